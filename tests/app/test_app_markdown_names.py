"""Names a user gives reach every visitor's screen as text, never as Markdown (issue 21, §3).

Runs trained and loaded with hostile file names, a hostile pattern and hostile special
tokens are shown on every page; every string Streamlit renders as Markdown (bodies,
labels, help, metric values, radio options, tab and expander titles) is read from the
page's element tree and must hold no piece of the attack unescaped. The same strings,
unescaped as a reader sees them, still name the run.
"""

from __future__ import annotations

from uuid import uuid4

import pytest
from google.protobuf.message import Message
from streamlit.testing.v1 import AppTest

from explorer import train
from explorer.files.formats import model_text
from tests.app_support import open_app, plain, raw_texts, texts_of
from ui.session import state as keys
from ui.session.samples import sample_text

LINK = "[Log in again](https:evil.example) ![x](http://127.0.0.1:9/track.png)"
DIRECTIVES = ":red[x] $y$ **b** <b>h</b>"
ADDRESS = "https://evil.example"
IMAGE_TOKEN = "![t](http://127.0.0.1:9/track.png)"
# what would become a link, an image, a colour, math, bold or HTML if left unescaped
MARKUP = ("](", "![", "https://", "http://", ":red[", "$y$", "**b**", "<b>")
# Markdown-rendered fields of Streamlit's element protos; a selectbox's options are text
MARKDOWN_FIELDS = {"body", "label", "help", "delta", "text", "captions", "options"}
PLAIN_OPTIONS = {"selectbox", "multiselect"}
NOT_MARKDOWN = {"html", "code", "dataframe", "arrow_vega_lite_chart", "graphviz_chart"}
PAGES = ("train", "tokens", "vocabulary", "compare", "animate")


def markdown_strings(app: AppTest) -> list[str]:
    """Every string the page renders as Markdown, from its element tree and its toasts."""
    found: list[str] = []

    def from_proto(proto: Message, plain_options: bool) -> None:
        for field, value in proto.ListFields():
            repeated = not isinstance(value, str | bytes | Message | int | float | bool)
            items = list(value) if repeated else [value]
            if field.message_type is not None:
                for item in items:
                    from_proto(item, plain_options)
            elif field.name in MARKDOWN_FIELDS and field.type == field.TYPE_STRING:
                found.extend([] if field.name == "options" and plain_options else items)

    def walk(node) -> None:
        kind = getattr(node, "type", "")
        if kind not in NOT_MARKDOWN and isinstance(getattr(node, "proto", None), Message):
            from_proto(node.proto, kind in PLAIN_OPTIONS)
        for child in getattr(node, "children", {}).values():
            walk(child)

    # AppTest's public roots; its third, the event container, holds the toasts (below)
    # and style-only html (not Markdown)
    walk(app.main)
    walk(app.sidebar)
    found += texts_of(app.toast)
    return found


def unescaped(app: AppTest) -> list[str]:
    """The Markdown strings on the page that hold a piece of the attack as markup."""
    return [text for text in markdown_strings(app) if any(mark in text for mark in MARKUP)]


def check_every_page(
    app: AppTest, shown: str, named_on: tuple[str, ...] = PAGES
) -> dict[str, list[str]]:
    """Visit every page; each must show no markup, and the pages `named_on` must show
    `shown` literally, as a reader sees it. Returns each page's Markdown strings."""
    seen: dict[str, list[str]] = {}
    for page in PAGES:
        app.switch_page(f"pages/{page}.py").run()
        assert not app.exception, (page, app.exception)
        assert unescaped(app) == [], page
        seen[page] = markdown_strings(app)
        if page in named_on:
            assert any(shown in plain(text) for text in seen[page]), (page, shown)
    return seen


def upload(app: AppTest, key: str, name: str, data: bytes) -> AppTest:
    """Put one file in a file uploader, as dropping it on the page does."""
    uploader = app.file_uploader(key=key)
    uploader._files = [(str(uuid4()), name, data, "application/octet-stream")]
    return app.run()


@pytest.fixture(scope="module")
def model_file() -> bytes:
    tokenizer = train(sample_text("shakespeare")[:5_000], 300, pattern="gpt4").tokenizer
    return model_text(tokenizer).encode("utf-8")


def test_a_run_from_a_hostile_file_name_pattern_and_special_token_is_text_everywhere() -> None:
    app = open_app("train")
    app.radio(key=keys.TRAIN_SOURCE).set_value("upload").run()
    text = f"We hold these truths {DIRECTIVES} to be self-evident. " * 40
    upload(app, keys.TRAIN_UPLOAD, f"{LINK}.txt", text.encode("utf-8"))
    app.number_input(key=keys.TRAIN_VOCAB).set_value(300)
    app.selectbox(key=keys.TRAIN_PATTERN).set_value("custom").run()
    app.text_input(key=keys.TRAIN_REGEX).input(r"https://e|\w+|.")
    app.text_input(key=keys.TRAIN_SPECIALS).input(DIRECTIVES).run()
    assert unescaped(app) == []
    app.button(key=keys.TRAIN_GO).click().run()
    assert not app.exception, app.exception
    assert not texts_of(app.error), texts_of(app.error)
    seen = check_every_page(app, LINK)
    sidebar = " ".join(texts_of(app.sidebar.caption))
    assert f"{LINK}.txt" in sidebar and r"https://e|\w+|." in sidebar  # the file and the pattern
    app.switch_page("pages/tokens.py").run()
    app.text_area(key=keys.TOKENS_TEXT).input(f"a {DIRECTIVES} b").run()
    assert unescaped(app) == []
    (contains,) = [t for t in texts_of(app.info) if "contains the special token" in t]
    assert DIRECTIVES in contains
    assert any(plain(t).startswith(f"Encoding with **{LINK}") for t in seen["tokens"])


def test_a_special_token_in_a_word_count_run_is_text_in_trains_caption() -> None:
    app = open_app("train")
    app.radio(key=keys.TRAIN_SOURCE).set_value("words").run()
    # the word merges into one token spelled like the special token, which a tokenizer.json
    # cannot hold: the caption saying so quotes the special token
    app.text_area(key=keys.TRAIN_WORD_COUNTS).input(f"hug 10\n{IMAGE_TOKEN} 50")
    app.text_input(key=keys.TRAIN_SPECIALS).input(IMAGE_TOKEN).run()
    app.button(key=keys.TRAIN_GO).click().run()
    assert not app.exception, app.exception
    assert unescaped(app) == []
    notes = [t for t in texts_of(app.caption) if t.startswith("No tokenizer")]
    assert notes and all(IMAGE_TOKEN in note for note in notes), texts_of(app.caption)


def test_a_model_file_with_a_hostile_name_is_text_everywhere(model_file: bytes) -> None:
    app = open_app("train")
    upload(app, keys.TRAIN_MODEL_UPLOAD, f"{LINK}.model", model_file)
    assert not app.exception, app.exception
    check_every_page(app, LINK)


@pytest.mark.parametrize("name", [ADDRESS, DIRECTIVES])
def test_a_file_that_cannot_be_loaded_is_named_as_text(name: str) -> None:
    app = open_app("train")
    upload(app, keys.TRAIN_MODEL_UPLOAD, f"{name}.model", b"not a model\n")
    assert not app.exception, app.exception
    (error,) = [t for t in raw_texts(app.error) if t.startswith("This file cannot be loaded")]
    assert not any(mark in error for mark in MARKUP)
    assert f"{name}.model" in plain(error)


# a pasted run is named by its first 24 characters or so (run_spec.first_words)
@pytest.mark.parametrize("start", [ADDRESS, ":red[x] $y$ **b**", "![x](http://e.ex)"])
def test_a_pasted_text_whose_first_words_are_markup_names_its_run_as_text(start: str) -> None:
    app = open_app("train")
    app.radio(key=keys.TRAIN_SOURCE).set_value("paste").run()
    app.text_area(key=keys.TRAIN_PASTE).input(f"{start} and then some words " * 30)
    app.number_input(key=keys.TRAIN_VOCAB).set_value(280).run()
    app.button(key=keys.TRAIN_GO).click().run()
    assert not app.exception, app.exception
    name = str(app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value)
    assert any(mark in name for mark in MARKUP)  # the run's name holds the markup...
    # ...which every page shows as text; Animate names it only in its HTML labels
    check_every_page(app, name, named_on=("train", "tokens", "vocabulary", "compare"))
