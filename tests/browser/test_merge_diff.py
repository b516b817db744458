"""Compare's two-tokenizer section in Chromium: the scatter is drawn, and the split view
highlights as many places, on each side, as the engine finds."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from explorer import load_bundled
from explorer.analysis.diffs.split_diff import differing_spans, token_boundaries
from tests.browser.conftest import go_to, keyed, open_tab, set_text_area, wait_until_idle
from tests.browser.test_accessibility import assert_accessible

LOADING_MS = 120_000  # a cold server loads GPT-2's, GPT-4's and GPT-4o's vocabularies first
PASSAGE = "Tokenizers don't split “naïve” text the same way — ever. 12345 + 678 = 13023!"


def expected_places(text: str) -> int:
    """The places GPT-4 (cut to GPT-2's size, as the page compares them) and GPT-2 differ."""
    gpt2 = load_bundled("gpt2")
    gpt4 = load_bundled("cl100k_base").at_vocab_size(gpt2.vocab_size)
    bounds = [token_boundaries(t.encode_with_spans(text).byte_spans) for t in (gpt4, gpt2)]
    return len(differing_spans(text, *bounds))


def choose(page: Page, key: str, name: str) -> None:
    """Pick a tokenizer by typing its name into the picker, as a user may."""
    picker = keyed(page, key).locator("input")
    picker.click()
    picker.fill(name)
    page.get_by_role("option", name=name, exact=True).click()
    wait_until_idle(page)
    expect(picker).to_have_value(name)


def test_the_scatter_of_shared_merges_is_drawn(app: Page) -> None:
    go_to(app, "Compare")
    open_tab(app, "Two tokenizers")
    panel = app.get_by_role("tabpanel", name="Merge by merge")
    expect(panel).to_be_visible(timeout=LOADING_MS)
    chart = panel.locator('[data-testid="stVegaLiteChart"]')
    expect(chart.locator("canvas, svg").first).to_be_visible()
    expect(panel.locator('[data-testid="stDataFrame"]')).to_have_count(2)
    expect(panel.get_by_text("First divergence")).to_be_visible()


def test_the_split_view_highlights_each_place_on_both_sides(app: Page) -> None:
    go_to(app, "Compare")
    open_tab(app, "Two tokenizers")
    expect(keyed(app, "compare_pair_a")).to_be_visible(timeout=LOADING_MS)
    choose(app, "compare_pair_a", "GPT-4 · cl100k_base")
    choose(app, "compare_pair_b", "GPT-2 · gpt2")
    app.get_by_role("tab", name="Where they split the passage").click()
    passage = keyed(app, "compare_passage").locator("textarea")  # the tab's own box
    expect(passage).to_be_visible()
    set_text_area(passage, PASSAGE)
    wait_until_idle(app)
    count = expected_places(PASSAGE)
    assert count > 1
    panel = app.get_by_role("tabpanel", name="Where they split the passage")
    expect(
        panel.get_by_role("heading", name=f"{count} places where the splits differ")
    ).to_be_visible()
    views = panel.locator(".sd-view")
    expect(views).to_have_count(2)
    for side in range(2):
        expect(views.nth(side).locator("mark.sd-place")).to_have_count(count)
    # numbered alike on both sides, and the text both split alike is grey (7:1 on white)
    for side in range(2):
        places = views.nth(side).locator("mark.sd-place")
        expect(places.last).to_have_attribute("data-place", str(count))
    color = views.first.evaluate("e => getComputedStyle(e).color")
    assert color == "rgb(89, 89, 89)"


def test_both_views_pass_axe(app: Page) -> None:
    go_to(app, "Compare")
    open_tab(app, "Two tokenizers")
    merges = app.get_by_role("tabpanel", name="Merge by merge")
    expect(merges).to_be_visible(timeout=LOADING_MS)
    assert_accessible(app, "Compare, merge by merge")
    app.get_by_role("tab", name="Where they split the passage").click()
    expect(app.locator(".sd-view").first).to_be_visible()
    assert_accessible(app, "Compare, where the splits differ")
