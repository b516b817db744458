"""Text that looks like HTML stays text: in the tokens, the animation, the vocabulary, the log.

The app trains on a pasted text full of markup; wherever the text or its tokens are drawn,
a real browser must show the characters and run nothing: no alert, no <b>, no <img>.
"""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import (
    after_step_label,
    go_to,
    grid_cells,
    keyed,
    main_area,
    train_pasted,
    wait_until_idle,
)

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
BOLD = "</span><b>bold</b>"
QUOTES = "\"'"
LINE = f"Say {SCRIPT} then {IMG} and {BOLD} with {QUOTES}quoted{QUOTES} words.\n"
TEXT = LINE * 30
VOCAB_SIZE = 400  # on 30 copies of one line, merges soon cover whole pieces of markup


def shown(text: str) -> str:
    """Text as a visible-whitespace view draws it: a space is "·"."""
    return text.replace(" ", "·")


def assert_inert(page: Page, dialogs: list[str], view: Locator) -> None:
    """Nothing ran, and no markup from the text became an element, in `view` or anywhere."""
    assert dialogs == []
    expect(view.locator("b", has_text="bold")).to_have_count(0)
    expect(page.locator("b", has_text="bold")).to_have_count(0)
    expect(page.locator('img[src="x"]')).to_have_count(0)
    assert page.evaluate(
        "() => [...document.scripts].every(s => !s.textContent.includes('alert(1)'))"
    )


def search_grid(page: Page, key: str, query: str) -> list[str]:
    """Type a query into the search box with this key; the table cells that show then."""
    box = keyed(page, key).locator("input")
    box.fill(query)
    box.press("Enter")
    wait_until_idle(page)
    return grid_cells(main_area(page))


def test_markup_in_the_text_shows_literally_everywhere(dialogs: list[str], app: Page) -> None:
    name = train_pasted(app, TEXT, VOCAB_SIZE, pattern="none")
    main = main_area(app)
    expect(main.get_by_role("heading", name=f"Tokenizer: {name}")).to_be_visible()

    log = " ".join(search_grid(app, "train_log_query", "script"))
    assert "Say·<script>alert(1)</script" in log  # merges build the markup piece by piece
    log = " ".join(search_grid(app, "train_log_query", "bold"))
    # a cell shows a token's first 60 characters (ui/views/cells.py), so the rows whose
    # tokens hold "</span><b>bold</b>" show the line's start, its <img …> as text
    assert "<img·src=x·onerror=alert…" in log
    assert_inert(app, dialogs, main)

    go_to(app, "Tokens")
    tokens = app.locator(".bpe")
    for piece in (SCRIPT, IMG, BOLD, QUOTES):
        expect(tokens).to_contain_text(piece, use_inner_text=True)  # not the hidden cards
    assert LINE.strip() in tokens.inner_text()
    assert_inert(app, dialogs, tokens)

    go_to(app, "Animate merges")
    keyed(app, "animate_next").get_by_role("button").click()
    expect(after_step_label(main, 1)).to_be_visible()
    wait_until_idle(app)
    passage = main.locator(".bpe")
    expect(passage).to_have_count(2)  # before and after the merge
    for piece in (SCRIPT, IMG, BOLD, QUOTES):
        expect(passage.last).to_contain_text(shown(piece), use_inner_text=True)
    assert_inert(app, dialogs, passage.last)

    go_to(app, "Vocabulary")
    cells = " ".join(search_grid(app, "vocab_query", "script"))
    assert shown(f"Say {SCRIPT} then <img src=x onerror=alert…") in cells  # cut at 60
    cells = " ".join(search_grid(app, "vocab_query", QUOTES))
    assert QUOTES in cells
    assert_inert(app, dialogs, main)
