"""Compare's "Every run on one text" in a real browser: the chart draws a line per run with
a legend, hovering it reads a run, a size and a value, and the table and sentence follow."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    SAMPLE_TOKENIZER,
    go_to,
    grid_rows,
    keyed,
    main_area,
    open_tab,
)
from ui.compare.overlay.chart import TITLE
from ui.session import state as keys

GPT4 = "GPT-4 · cl100k_base"


def test_the_overlay_draws_every_run_and_reads_values_on_hover(app: Page) -> None:
    go_to(app, "Compare")
    open_tab(app, "Every run")  # Compare runs only its open tab
    section = keyed(app, keys.COMPARE_OVERLAY)
    section.scroll_into_view_if_needed()
    chart = section.locator('[data-testid="stVegaLiteChart"]', has_text=TITLE)
    expect(chart.locator("svg.marks")).to_be_visible()
    for name in (SAMPLE_TOKENIZER, GPT4):  # the legend: one entry per run
        expect(chart.locator("g.role-legend")).to_contain_text(name)
    expect(chart.locator("g.mark-line path")).to_have_count(2)
    expect(chart).to_contain_text("Vocab size (log scale)")
    plot = chart.locator("g.mark-line path").first.bounding_box()
    assert plot is not None
    tooltip = app.locator("#vg-tooltip-element")
    for step in range(1, 12):  # across the plot until the nearest point answers
        app.mouse.move(plot["x"] + plot["width"] * step / 12, plot["y"] + plot["height"] / 2)
        if tooltip.is_visible():
            break
    expect(tooltip).to_be_visible()
    expect(tooltip).to_contain_text("Run")
    expect(tooltip).to_contain_text("Vocab size")
    expect(tooltip).to_contain_text("Bytes per token")
    assert re.search(rf"({re.escape(SAMPLE_TOKENIZER)}|{re.escape(GPT4)})", tooltip.inner_text())
    sentence = main_area(app).get_by_text(
        re.compile(r"^At vocab size 2,000, on the UDHR in English")
    )
    expect(sentence).to_be_visible()
    table = section.locator('[data-testid="stDataFrame"]').first
    rows = grid_rows(table)
    assert {row[0] for row in rows} == {SAMPLE_TOKENIZER, GPT4}
    assert sum(cell.endswith("★") for row in rows for cell in row) == 2  # 1,000 and 2,000:
    # sizes only GPT-4 reaches have no best
