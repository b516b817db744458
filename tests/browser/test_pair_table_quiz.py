"""Animate's pair table and its quiz in Chromium: step, read the counts, pick, reveal, score.

The worked example `aaabdaaabac` (3 merges) keeps every count checkable by hand: at
step 0 ('a', 'a') is seen 4 times; at step 1 ('aa', 'a') and ('a', 'b') tie at 2.
"""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from harness.app_server import Server
from tests.browser.conftest import keyed, main_area, wait_until_idle
from tests.browser.test_accessibility import assert_accessible

AAAB = "animate?sample=aaabdaaabac&vocab=259&pattern=none"
PROJECTOR = {"width": 1280, "height": 720}


def open_animate(page: Page, server: Server, query: str = "", viewport=None) -> Page:
    """Animate on the worked example, in a new session, at this screen size."""
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(f"{server.url}{AAAB}{query}")
    expect(main_area(page).locator(".am-narration")).to_be_visible()
    wait_until_idle(page)
    return page


def panel(page: Page) -> Locator:
    return keyed(page, "animate_pairs")


def table_rows(page: Page) -> list[list[str]]:
    """The pair table's cells, five a row (rank, pair, count, first at, next)."""
    rows = panel(page).locator("table.pt tbody tr")
    return [[cell.strip() for cell in row.locator("td").all_inner_texts()] for row in rows.all()]


def step_forward(page: Page) -> None:
    keyed(page, "animate_next").get_by_role("button").click()
    wait_until_idle(page)


def turn_quiz_on(page: Page) -> None:
    keyed(page, "animate_quiz").locator("label").click()
    expect(keyed(page, "animate_quiz").get_by_role("switch")).to_be_checked()
    wait_until_idle(page)


def choose(page: Page, pair: str) -> None:
    keyed(page, "animate_quiz_pick").get_by_text(pair, exact=True).click()
    wait_until_idle(page)


def reveal(page: Page) -> None:
    button = page.get_by_role("button", name="Reveal")
    expect(button).to_be_enabled()
    button.click()
    wait_until_idle(page)


def score(page: Page) -> Locator:
    return panel(page).get_by_text("Score:").locator("xpath=..")


def test_the_table_counts_the_pairs_of_each_step(
    blank_page: Page, streamlit_server: Server
) -> None:
    page = open_animate(blank_page, streamlit_server)
    expect(panel(page)).to_contain_text("Pairs before the first merge · all 6 pairs")
    rows = table_rows(page)
    assert rows[0] == ["1", "('a', 'a')", "4", "1", "next → id 256"]
    assert rows[1][:3] == ["2", "('a', 'b')", "2"]
    assert len(rows) == 6

    step_forward(page)
    expect(panel(page)).to_contain_text("Pairs after step 1")
    rows = table_rows(page)
    assert rows[0] == ["1", "('aa', 'a')", "2", "1", "next → id 257"]
    assert rows[1] == ["2", "('a', 'b')", "2", "2", "tied"]
    expect(panel(page)).to_contain_text("is shared with 1 other pair")

    box = keyed(page, "animate_pairs_top").locator("input")
    box.fill("1")
    box.press("Enter")
    wait_until_idle(page)
    assert len(table_rows(page)) == 2  # one asked for, but the tie is always shown
    expect(panel(page)).to_contain_text("the 2 most frequent of 6 pairs")


def test_the_quiz_with_the_mouse(blank_page: Page, streamlit_server: Server) -> None:
    page = open_animate(blank_page, streamlit_server)
    turn_quiz_on(page)
    expect(panel(page).locator("table.pt")).to_have_count(0)
    expect(panel(page)).to_contain_text("Which pair does merge 1 fuse into token 256?")
    expect(page.get_by_role("button", name="Reveal")).to_be_disabled()
    expect(score(page)).to_have_text("Score: No answers yet")

    choose(page, "('a', 'b')")
    reveal(page)
    expect(main_area(page).locator(".am-narration")).to_contain_text("Step 1:")
    expect(panel(page)).to_contain_text(
        "Not this one: ('a', 'b') was seen 2 times, but ('a', 'a') was seen 4 times"
    )
    expect(score(page)).to_have_text("Score: 0 of 1 right")

    choose(page, "('aa', 'a')")  # tied with ('a', 'b'), and first
    reveal(page)
    expect(panel(page)).to_contain_text("Right! Merge 2 fuses ('aa', 'a'), seen 2 times")
    expect(panel(page)).to_contain_text("the tie goes to the pair whose first occurrence")
    expect(score(page)).to_have_text("Score: 1 of 2 right")

    panel(page).get_by_role("button", name="Reset score").click()
    wait_until_idle(page)
    expect(score(page)).to_have_text("Score: No answers yet")


def test_the_quiz_with_the_keyboard(blank_page: Page, streamlit_server: Server) -> None:
    page = open_animate(blank_page, streamlit_server)
    turn_quiz_on(page)
    narration = main_area(page).locator(".am-narration")
    # → with nothing picked steps on and counts as a skip (focus off the switch first:
    # keys pressed in a widget are the widget's)
    narration.click()
    page.keyboard.press("ArrowRight")
    wait_until_idle(page)
    expect(narration).to_contain_text("Step 1:")
    expect(panel(page)).to_contain_text("Skipped. Merge 1 fuses ('a', 'a'), seen 4 times")
    expect(score(page)).to_have_text("Score: 0 of 0 right, 1 skipped")

    # arrows on the focused choices pick (they do not step), Tab goes to Reveal, Enter
    options = keyed(page, "animate_quiz_pick").locator("input[type=radio]")
    options.first.focus()
    page.keyboard.press("ArrowDown")
    wait_until_idle(page)
    expect(options.nth(1)).to_be_checked()
    page.keyboard.press("ArrowRight")
    wait_until_idle(page)
    expect(options.nth(2)).to_be_checked()
    expect(narration).to_contain_text("Step 1:")  # still the question of merge 2
    picked = keyed(page, "animate_quiz_pick").locator("label:has(input:checked)").inner_text()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Reveal")).to_be_focused()
    page.keyboard.press("Enter")
    wait_until_idle(page)
    expect(narration).to_contain_text("Step 2:")
    verdict = "Right!" if picked.strip() == "('aa', 'a')" else "Not"
    expect(panel(page)).to_contain_text(verdict)
    expect(score(page)).to_contain_text("of 1 right, 1 skipped")


def test_the_quiz_fits_the_presenter_view(blank_page: Page, streamlit_server: Server) -> None:
    page = open_animate(blank_page, streamlit_server, "&present=1&animate_step=1", PROJECTOR)
    expect(keyed(page, "sidebar_present").get_by_role("switch")).to_be_checked()
    turn_quiz_on(page)
    options = keyed(page, "animate_quiz_pick").locator('[role="radiogroup"] label')
    expect(options.first).to_be_visible()
    reveal_button = page.get_by_role("button", name="Reveal")
    on_screen = [options.first, options.last, reveal_button, score(page)]
    on_screen += [main_area(page).locator(".am-card"), main_area(page).locator(".am-narration")]
    for part in on_screen:
        found = part.bounding_box()
        assert found is not None and found["y"] + found["height"] <= PROJECTOR["height"], part
    size = options.first.evaluate("e => getComputedStyle(e.querySelector('p')).fontSize")
    assert float(size.removesuffix("px")) >= 20  # readable from the back

    choose(page, "('aa', 'a')")
    reveal(page)
    expect(panel(page)).to_contain_text("Right! Merge 2 fuses ('aa', 'a')")
    expect(score(page)).to_have_text("Score: 1 of 1 right")
    expect(main_area(page).locator(".am-narration")).to_contain_text("Step 2:")


def test_the_quiz_has_no_serious_accessibility_violation(
    blank_page: Page, streamlit_server: Server
) -> None:
    page = open_animate(blank_page, streamlit_server, viewport={"width": 1440, "height": 900})
    turn_quiz_on(page)
    choose(page, "('a', 'b')")
    reveal(page)  # a wrong answer: the warning's colours too
    expect(panel(page)).to_contain_text("Not this one")
    assert_accessible(page, "Animate's quiz after a wrong answer")
