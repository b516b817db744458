"""Layout in a real browser: passages wrap between words; the presenter view and a phone
show what a step needs on the first screen.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from explorer import train
from explorer.html.token_html import tokens_to_html
from harness.app_server import Server
from tests.browser.conftest import go_to, keyed, main_area, set_text_area, wait_until_idle

PASSAGE = "The pair of pears paired up. Then the pair of pairs paired again, and again. " * 6

# The places where a line changes between two letters of one word (visible whitespace
# symbols count as spaces), as "a|b"; id text is left out (cards are ::after, not text).
MID_WORD_BREAKS = r"""() => {
  const found = [], range = document.createRange(), letter = /[^\s·↵→]/;
  const walker = document.createTreeWalker(document.querySelector('.bpe'),
    NodeFilter.SHOW_TEXT, {acceptNode: node => node.parentElement.closest('sub')
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  let previous = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getClientRects()[0];
      if (!box) continue;
      const char = node.data[i];
      if (previous && box.top > previous.top + 2 && letter.test(previous.char)
          && letter.test(char)) found.push(previous.char + '|' + char);
      previous = {top: box.top, char};
    }
  }
  return found;
}"""


@pytest.mark.parametrize("visible_whitespace", [True, False])
@pytest.mark.parametrize("width", [160, 230, 330])
def test_passages_wrap_between_words_never_inside_one(
    page: Page, width: int, visible_whitespace: bool
) -> None:
    tokenizer = train(PASSAGE, 270, pattern="gpt4").tokenizer
    ids = tokenizer.encode(PASSAGE)
    pieces = [tokenizer.decode([token]) for token in ids]
    inside_words = [
        a + "|" + b for a, b in zip(pieces, pieces[1:]) if a[-1].isalpha() and b[0].isalpha()
    ]
    assert len(inside_words) > 50  # words of several tokens, such as " p|air"
    body = tokens_to_html(tokenizer, ids, visible_whitespace=visible_whitespace)
    page.set_content(f"<!doctype html><body style='font-size:18px;width:{width}px'>{body}")
    lines = page.evaluate("() => document.querySelector('.bpe').getClientRects()[0].height")
    assert lines > 5 * 18  # it wraps
    assert page.evaluate(MID_WORD_BREAKS) == []


# --- the presenter view and phones (the app, on the session's server) -------------------

PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}


def open_page(app: Page, server: Server, path: str, viewport: dict[str, int]) -> Page:
    """Open a page of the app by its address (a new session) at this screen size; the
    tests give it a `blank_page`, as `app`'s first page would only be thrown away."""
    app.set_viewport_size(viewport)
    app.goto(f"{server.url}{path}")
    app.locator('[data-testid="stMain"] h1').first.wait_for()
    wait_until_idle(app)
    app.wait_for_selector('[data-testid="stSkeleton"]', state="detached")
    return app


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not on the page"
    return found


def bottom(locator: Locator) -> float:
    found = box(locator)
    return found["y"] + found["height"]


def font_px(locator: Locator) -> float:
    return float(locator.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))


def test_the_presenter_view_shows_a_whole_step_on_one_projector_screen(
    blank_page: Page, streamlit_server: Server
) -> None:
    app = open_page(blank_page, streamlit_server, "animate?present=1&animate_step=2", PROJECTOR)
    main = main_area(app)
    expect(keyed(app, "sidebar_present").get_by_role("switch")).to_be_checked()
    passages = main.locator(".bpe")
    expect(passages).to_have_count(2)  # before and after
    play = keyed(app, "animate_play").get_by_role("button")
    on_screen = [play, main.locator(".am-card"), main.locator(".am-narration")]
    on_screen += [passages.first, passages.last]
    for part in on_screen:
        assert bottom(part) <= PROJECTOR["height"], part
    assert font_px(passages.first.locator("span").first) >= 28  # tokens
    assert font_px(main.locator(".am-narration")) >= 24
    assert font_px(main.locator(".am-chip").first) >= 28
    expect(keyed(app, "animate_passage")).to_have_count(0)  # the editor is put away
    # keyboard stepping: the shortcuts of the buttons still work
    app.locator("body").press("ArrowRight")
    wait_until_idle(app)
    expect(main.locator(".am-narration")).to_contain_text("Step 3:")
    app.locator("body").press("ArrowLeft")
    wait_until_idle(app)
    expect(main.locator(".am-narration")).to_contain_text("Step 2:")


def test_the_presenter_toggle_keeps_the_passage_the_user_typed(app: Page) -> None:
    go_to(app, "Animate merges")
    main = main_area(app)
    main.get_by_text("Passage:").click()
    set_text_area(keyed(app, "animate_passage").locator("textarea"), "the cat sat on the mat")
    wait_until_idle(app)
    keyed(app, "sidebar_present").locator("label").click()
    wait_until_idle(app)
    expect(main.locator(".am-narration")).to_have_css("font-size", "24px")
    keyed(app, "sidebar_present").locator("label").click()
    wait_until_idle(app)
    expect(keyed(app, "animate_passage").locator("textarea")).to_have_value(
        "the cat sat on the mat"
    )


@pytest.mark.parametrize("path", ["animate?animate_step=2", "tokens"])
def test_on_a_phone_the_coloured_text_starts_on_the_first_screen(
    blank_page: Page, streamlit_server: Server, path: str
) -> None:
    app = open_page(blank_page, streamlit_server, path, PHONE)
    first_token = main_area(app).locator(".bpe > span").first
    assert box(first_token)["y"] < PHONE["height"]
    assert app.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def test_on_a_phone_the_step_buttons_share_one_row(
    blank_page: Page, streamlit_server: Server
) -> None:
    app = open_page(blank_page, streamlit_server, "animate?animate_step=2", PHONE)
    tops = {
        round(box(keyed(app, key).get_by_role("button"))["y"])
        for key in ("animate_play", "animate_back", "animate_next")
    }
    assert len(tops) == 1, tops
