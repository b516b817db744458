"""Compare in a real browser: the 26-language heatmap and the token tax are drawn, each in
its tab, and the open tab is in the page's link."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from harness.app_server import Server
from tests.browser.conftest import go_to, main_area, open_tab, wait_until_idle
from tests.browser.test_accessibility import assert_accessible
from ui.compare.languages import HEATMAP_TITLE, TAX_TITLE
from ui.compare.overlap import OVERLAP_TITLE

OVERLAP_HEADER = "How much of your vocabulary GPT already has"


def test_the_language_heatmap_and_token_tax_are_drawn(app: Page) -> None:
    go_to(app, "Compare")
    open_tab(app, "Languages")
    main = main_area(app)
    heatmap = main.locator('[data-testid="stVegaLiteChart"]', has_text=HEATMAP_TITLE)
    heatmap.scroll_into_view_if_needed()
    expect(heatmap.locator("svg.marks")).to_be_visible()
    cells = heatmap.locator("g.mark-rect path")  # one per language and size, plus the outline
    expect(cells.first).to_be_attached()
    assert cells.count() > 26 * 20
    expect(heatmap).to_contain_text("Burmese")
    tax = main.locator('[data-testid="stVegaLiteChart"]', has_text=TAX_TITLE)
    expect(tax.locator("svg.marks")).to_be_visible()
    assert_accessible(app, "Compare, languages")  # each tab is a page of its own to axe
    open_tab(app, "GPT overlap")
    overlap = main.locator('[data-testid="stVegaLiteChart"]', has_text=OVERLAP_TITLE)
    expect(overlap.locator("svg.marks")).to_be_visible()
    expect(heatmap).to_have_count(0)  # the tab not open is not drawn
    assert_accessible(app, "Compare, overlap with GPT")


def test_a_tab_is_in_the_link_and_a_link_opens_it(app: Page, streamlit_server: Server) -> None:
    go_to(app, "Compare")
    open_tab(app, "Languages")
    assert "compare_section=Languages" in app.url
    app.goto(app.url.replace("compare_section=Languages", "compare_section=GPT+overlap"))
    wait_until_idle(app)
    tab = app.get_by_role("tab", name="GPT overlap", exact=True)
    expect(tab).to_have_attribute("aria-selected", "true")
    expect(app.get_by_role("heading", name=OVERLAP_HEADER)).to_be_visible()
    open_tab(app, "Compression")  # the first tab: the link no longer names one
    assert "compare_section" not in app.url
    app.goto(streamlit_server.url + "compare?compare_section=Languages")  # a fresh session
    wait_until_idle(app)
    expect(app.get_by_role("heading", name="Across 26 languages")).to_be_visible()
    expect(app.get_by_role("heading", name="Compression as the vocabulary grows")).to_have_count(0)
