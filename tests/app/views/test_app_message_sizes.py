"""No element the app sends outgrows a message (issue 21: a 402.6 MB merge log): a run
whose tokens are whole paragraphs (no pattern on a repetitive text) keeps every element
of every page far under Streamlit's 200 MB limit, because tables, charts, menus and
graphs cut each token to a cell's length (ui/views/cells.py) and the merge log is paged."""

from __future__ import annotations

import random

import pytest
from streamlit.testing.v1 import AppTest

from explorer import train
from tests.app_support import open_app
from ui.views.cells import CUT_NOTE

ELEMENT_BYTES = 200_000  # what one element may take here; the tokens whole are twice that
VOCAB = 1500


def repetitive_text() -> str:
    words = [
        "the",
        "cat",
        "sat",
        "on",
        "a",
        "mat",
        "while",
        "seven",
        "dogs",
        "ran",
        "past",
        "quickly",
        "and",
        "loudly",
    ]
    chooser = random.Random(1)
    paragraph = " ".join(chooser.choice(words) for _ in range(400))
    return (paragraph + "\n") * 25


def element_sizes(node, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The serialized size of every element under node (its protobuf message)."""
    proto = getattr(node, "proto", None)
    if proto is not None and hasattr(proto, "ByteSize"):
        found.append((proto.ByteSize(), type(node).__name__))
    children = getattr(node, "children", None)
    for child in children.values() if isinstance(children, dict) else ():
        element_sizes(child, found)
    return found


def trained_app() -> AppTest:
    """The Train page just after training the repetitive text without a pattern."""
    app = open_app("train")
    app.radio(key="train_source").set_value("paste").run()
    app.text_area(key="train_paste").input(repetitive_text())
    app.number_input(key="train_vocab").set_value(VOCAB)
    app.selectbox(key="train_pattern").set_value("none")
    app.run().button(key="train_go").click().run()
    assert not app.exception, app.exception
    return app


@pytest.fixture(scope="module")
def long_token_app() -> AppTest:
    return trained_app()


def test_the_run_has_tokens_that_would_not_fit_whole() -> None:
    """The case is real: the vocabulary's text is far more than the bound, whole."""
    vocab = train([repetitive_text()], VOCAB, pattern="none").tokenizer.vocab
    assert max(len(token) for token in vocab.values()) > ELEMENT_BYTES // 20
    assert sum(len(token) for token in vocab.values()) > 2 * ELEMENT_BYTES


@pytest.mark.parametrize("page", ["train", "vocabulary", "animate", "tokens", "compare"])
def test_every_element_stays_small(long_token_app: AppTest, page: str) -> None:
    app = long_token_app
    app.switch_page(f"pages/{page}.py").run()
    assert not app.exception, app.exception
    sizes = element_sizes(app.main, []) + element_sizes(app.sidebar, [])
    assert sizes and max(sizes)[0] <= ELEMENT_BYTES, sorted(sizes)[-3:]
    if page in ("train", "vocabulary"):
        assert any(CUT_NOTE in str(caption.value) for caption in app.caption)


def test_the_merge_log_is_paged() -> None:
    app = open_app("train", {"sample": "shakespeare", "vocab": "2500", "pattern": "gpt4"})
    log = app.dataframe[-1].value
    assert len(log) == 1000 and int(log["merge"].iloc[0]) == 1
    app.number_input(key="train_log_page").set_value(3).run()
    log = app.dataframe[-1].value
    assert int(log["merge"].iloc[0]) == 2001 and int(log["merge"].iloc[-1]) == 2500 - 256
    app.text_input(key="train_log_query").input("the").run()  # one page now: never past it
    assert not app.exception, app.exception
    log = app.dataframe[-1].value
    assert 0 < len(log) < 1000 and log["token"].str.casefold().str.contains("the").all()
