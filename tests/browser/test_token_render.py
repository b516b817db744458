"""The coloured tokens in a real browser: cards open on hover, Tab and tap; RTL text reads right.

No Streamlit server: explorer.html.render's HTML is set as the content of a plain page, which is
what st.html puts in the app's page (without the sandbox of an iframe).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from explorer import Tokenizer
from explorer.html.render import render_token
from explorer.html.token_html import tokens_to_html
from tests.browser.conftest import card, wait_for_card

ARABIC_WHOLE, ARABIC_BYTES = (
    "سلام",
    "بيت",
)  # the first word's letters are tokens, the second's bytes
HEBREW_WHOLE, HEBREW_BYTES = "שלום", "בית"
TOKENS = ".bpe > span"


def letters_as_tokens(word: str) -> Tokenizer:
    """A tokenizer whose only merges make each (two-byte) letter of `word` one token."""
    pairs = dict.fromkeys((letter.encode()[0], letter.encode()[1]) for letter in word)
    return Tokenizer(list(pairs))


def show(page: Page, tokenizer: Tokenizer, text: str, **options: Any) -> list[int]:
    """Set the page to the text's coloured tokens; returns the ids."""
    ids = tokenizer.encode(text)
    body = tokens_to_html(tokenizer, ids, **options)
    page.set_content(f"<!doctype html><body style='font-size:18px;width:640px'>{body}</body>")
    return ids


def test_hovering_a_token_opens_its_card_at_once(page: Page) -> None:
    tokenizer = Tokenizer([(116, 104), (256, 101)])  # th, the
    show(page, tokenizer, "the cat", show_ids=True)
    first = page.locator(TOKENS).first
    assert not card(first)["shown"]
    first.hover()
    text = wait_for_card(first)
    assert card(first)["delay"] == ["0s", "0s", "none"]  # CSS only: no delay, no script
    assert text.startswith("id 257: 'the'\n")
    assert "merge 2: 'th' + 'e'" in text  # merge k makes id 255 + k
    assert card(first)["fontSize"] == "14px"
    page.mouse.move(600, 400)
    wait_for_card(first, shown=False)


def test_tab_focuses_a_token_and_opens_its_card(page: Page) -> None:
    show(page, Tokenizer([(116, 104)]), "the")
    page.keyboard.press("Tab")
    first = page.locator(TOKENS).first
    expect(first).to_be_focused()
    assert "merge 1: 't' + 'h'" in wait_for_card(first)
    described = first.evaluate(
        "e => document.getElementById(e.getAttribute('aria-describedby')).textContent"
    )
    assert "merge 1: 't' + 'h'" in described  # what a screen reader reads on focus
    page.keyboard.press("Tab")
    wait_for_card(first, shown=False)
    assert wait_for_card(page.locator(TOKENS).nth(1)).startswith("id 101")


def test_a_tap_opens_a_card_on_a_touch_screen(browser: Browser) -> None:
    context = browser.new_context(has_touch=True, viewport={"width": 400, "height": 700})
    try:
        page = context.new_page()
        show(page, Tokenizer([(116, 104)]), "the cat sat")
        token = page.locator(TOKENS).nth(3)  # 'c'
        token.tap()
        assert wait_for_card(token).startswith("id 99: 'c'")
    finally:
        context.close()


def test_hidden_cards_and_ids_add_nothing_to_the_text(page: Page) -> None:
    tokenizer = Tokenizer([(116, 104)])
    ids = show(page, tokenizer, "the cat\nsat", show_ids=True)
    shown = "".join(render_token(tokenizer.token_bytes(i), keep_layout=True) for i in ids)
    passage = page.locator(".bpe")
    sub_text = "".join(map(str, ids))
    assert passage.inner_text().replace(sub_text, "") != ""  # the ids are drawn...
    page.evaluate("() => getSelection().selectAllChildren(document.querySelector('.bpe'))")
    selected = page.evaluate("() => getSelection().toString()")
    assert selected == shown  # ...but a copy holds the text alone: no ids, no cards
    css = "e => getComputedStyle(e).userSelect"
    assert passage.locator("sub").first.evaluate(css) == "none"


def test_neighbours_of_one_colour_keep_a_gap(page: Page) -> None:
    show(page, Tokenizer(), "aaa")
    boxes = [page.locator(TOKENS).nth(i).bounding_box() for i in range(3)]
    colors = page.locator(TOKENS).evaluate_all("s => s.map(e => getComputedStyle(e).background)")
    assert len(set(colors)) == 1  # one id, one colour
    for left, right in zip(boxes, boxes[1:]):
        assert left is not None and right is not None
        assert left["x"] + left["width"] < right["x"]


LETTER_XS = """label => {
    const text = label.firstChild, xs = [];
    for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(text, i); range.setEnd(text, i + 1);
        xs.push(range.getBoundingClientRect().x);
    }
    return xs;
}"""


@pytest.mark.parametrize(
    ("whole", "as_bytes"), [(ARABIC_WHOLE, ARABIC_BYTES), (HEBREW_WHOLE, HEBREW_BYTES)]
)
def test_rtl_words_read_right_to_left_and_byte_labels_left_to_right(
    page: Page, whole: str, as_bytes: str
) -> None:
    tokenizer = letters_as_tokens(whole)
    ids = show(page, tokenizer, f"{whole} {as_bytes}", show_ids=True)
    tokens = page.locator(TOKENS)
    letters = [tokens.nth(i) for i in range(len(whole))]
    assert [t.locator("sub").inner_text() for t in letters] == [str(i) for i in ids[: len(whole)]]
    xs = [t.bounding_box()["x"] for t in letters]  # type: ignore[index]
    assert xs == sorted(xs, reverse=True)  # the first letter rightmost: right to left

    labels = page.locator(".bpe > span > bdi")
    assert labels.count() == len(as_bytes.encode())
    first = labels.first
    assert first.inner_text() == f"<0x{as_bytes.encode()[0]:02X}>"
    style = first.evaluate("e => [getComputedStyle(e).direction, getComputedStyle(e).unicodeBidi]")
    assert style == ["ltr", "isolate"]
    for label in (first, labels.last):
        glyphs = label.evaluate(LETTER_XS)
        assert glyphs == sorted(glyphs) and len(set(glyphs)) == len(glyphs)  # '<', '0', 'x'...
    sub = letters[0].locator("sub")
    assert sub.evaluate("e => getComputedStyle(e).unicodeBidi") == "isolate"
