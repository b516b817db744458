"""A name one visitor gives is text on another visitor's screen (issue 21, section 3).

A hostile visitor loads a .model under a name written as Markdown (a link, an image) and
trains a word-count run with a special token written as a remote image; a second visitor,
in another browser context, opens each run's link. Neither screen may hold a link to the
hostile address or an image of it, and no page may ask 127.0.0.1:9 for anything; the
names read literally where the pages show them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from explorer import train
from explorer.files.formats import model_text
from harness.app_server import Server
from tests.browser.conftest import (
    IDLE_SECONDS,
    VIEWPORT,
    ScriptRuns,
    choose_radio,
    click_train,
    go_to,
    keyed,
    main_area,
    set_text_area,
    sidebar_tokenizer,
    sidebar_tokenizer_input,
    wait_until_idle,
)
from ui.session.markdown import WORD_JOINER

# a file name cannot hold "/": the image is relative, so it would ask the app's own server
FILE_STEM = "[Log in again](https:evil.example) ![x](track.png)"
NEUTRAL = "Loaded .model"  # what a link opener sees for a .model run (ui/session/opening.py)
IMAGE_TOKEN = "![t](http://127.0.0.1:9/track.png)"
TRACKER = "127.0.0.1:9"
SEARCH = "[Log in](https://evil.example) :red[r] $y$"


def requests_of(page: Page) -> list[str]:
    """Every address the page asks for from now on (the list fills as it does)."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    return asked


def assert_no_markup(page: Page, asked: list[str]) -> None:
    """No link to the hostile address, no image of the tracker, no request for either."""
    # (a heading's own anchor, href="#tokenizer-log-in-again-…", stays on the page)
    expect(page.locator('a[href*="evil"]:not([href^="#"])')).to_have_count(0)
    expect(page.locator('img[src*="track"]')).to_have_count(0)
    expect(page.locator('[data-testid="stMarkdownContainer"] img')).to_have_count(0)
    assert not [url for url in asked if TRACKER in url or "track.png" in url], asked


@pytest.fixture
def second_visitor(browser: Browser) -> Iterator[tuple[Page, list[str]]]:
    """Another browser context (another person): its page, and what it asks for."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(IDLE_SECONDS * 1000)
    ScriptRuns.watch(page)  # its reruns seen on the websocket: a short quiet period will do
    yield page, requests_of(page)
    context.close()


def open_link(page: Page, url: str) -> None:
    page.goto(url)
    wait_until_idle(page)
    expect(main_area(page).locator('[data-testid="stException"]')).to_have_count(0)


def note_shown(page: Page) -> str:
    """Train's caption on the missing tokenizer.json download, as a reader sees it (the
    word joiner markdown_text puts in an address is invisible)."""
    note = main_area(page).get_by_text("No tokenizer.json download: the special token")
    expect(note).to_be_visible()
    return note.inner_text().replace(WORD_JOINER, "")


def sidebar_caption(page: Page) -> str:
    return page.locator('[data-testid="stSidebar"] [data-testid="stCaptionContainer"]').inner_text()


def test_a_model_named_as_markdown_is_text_for_the_next_visitor(
    app: Page,
    streamlit_server: Server,
    second_visitor: tuple[Page, list[str]],
    tmp_path: Path,
) -> None:
    asked = requests_of(app)
    tokenizer = train("low lower lowest newer wider " * 40, 280, pattern="gpt4").tokenizer
    model = tmp_path / f"{FILE_STEM}.model"
    model.write_text(model_text(tokenizer), encoding="utf-8")
    app.get_by_text("Load a saved tokenizer").click()
    loader = keyed(app, "train_model_upload")
    loader.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(model)
    wait_until_idle(app)
    expect(app.get_by_role("heading", name=f"Tokenizer: {FILE_STEM}", exact=False)).to_be_visible()
    assert_no_markup(app, asked)
    assert f"{FILE_STEM}.model" in sidebar_caption(app)

    visitor, visitor_asked = second_visitor
    open_link(visitor, app.url)
    assert_no_markup(visitor, visitor_asked)
    # the link's opener never sees a name another visitor chose (link poisoning): a
    # neutral one says what the run is
    assert "Log in again" not in sidebar_caption(visitor)
    assert "a .model file" in sidebar_caption(visitor)
    assert sidebar_tokenizer(visitor).startswith(NEUTRAL)  # a selectbox shows text,
    sidebar_tokenizer_input(visitor).click()  # in its menu too
    expect(visitor.get_by_role("option").filter(has_text=NEUTRAL)).to_have_count(1)
    expect(visitor.locator('[role="option"] a, [role="option"] img')).to_have_count(0)
    visitor.keyboard.press("Escape")
    go_to(visitor, "Tokens")
    encoding = main_area(visitor).get_by_text("Encoding with", exact=False).first
    expect(encoding).to_contain_text(f"Encoding with {NEUTRAL}")
    assert_no_markup(visitor, visitor_asked)
    # Vocabulary writes a searched text in a code span (ui/vocabulary/lineage.code)
    go_to(visitor, "Vocabulary")
    search = keyed(visitor, "vocab_query").locator("input")
    search.fill(SEARCH)
    search.press("Enter")
    wait_until_idle(visitor)
    writes = main_area(visitor).locator("code", has_text="Log")
    expect(writes.first).to_contain_text("[Log·in](https://evil.example)·:red[r]·$y$")
    assert_no_markup(visitor, visitor_asked)
    assert_no_markup(app, asked)


def test_a_special_token_written_as_an_image_loads_nothing_for_the_next_visitor(
    app: Page, second_visitor: tuple[Page, list[str]]
) -> None:
    asked = requests_of(app)
    choose_radio(app, "train_source", "Word counts")
    # the word merges into one token spelled like the special token: a tokenizer.json
    # cannot hold both, and Train's caption says so, quoting the token
    set_text_area(keyed(app, "train_word_counts").locator("textarea"), f"hug 10\n{IMAGE_TOKEN} 50")
    specials = keyed(app, "train_specials").locator("input")
    specials.fill(IMAGE_TOKEN)
    specials.press("Enter")
    wait_until_idle(app)
    click_train(app)
    assert_no_markup(app, asked)
    assert IMAGE_TOKEN in note_shown(app)

    visitor, visitor_asked = second_visitor
    open_link(visitor, app.url)
    assert_no_markup(visitor, visitor_asked)
    assert note_shown(visitor) == note_shown(app)
