"""Compare in a real browser: the 26-language heatmap and the token tax are drawn."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import go_to, main_area
from ui.compare.languages import HEATMAP_TITLE, TAX_TITLE
from ui.compare.overlap import OVERLAP_TITLE


def test_the_language_heatmap_and_token_tax_are_drawn(app: Page) -> None:
    go_to(app, "Compare")
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
    overlap = main.locator('[data-testid="stVegaLiteChart"]', has_text=OVERLAP_TITLE)
    expect(overlap.locator("svg.marks")).to_be_visible()
