"""Vocabulary: a click on any cell of a row chooses that row's token (not only its checkbox)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from harness.app_server import Server
from tests.browser.conftest import ScriptRuns, grid_cells, keyed, main_area, wait_until_idle

AAAB = "sample=aaabdaaabac&vocab=259&pattern=none"
ROW_PX = 35  # st.dataframe's default row height, the header's too


def test_a_click_on_a_cell_chooses_the_rows_token(page: Page, streamlit_server: Server) -> None:
    ScriptRuns.watch(page)  # its reruns seen on the websocket: a short quiet period will do
    page.goto(f"{streamlit_server.url}vocabulary?{AAAB}")
    wait_until_idle(page)
    main = main_area(page)
    chosen = keyed(page, "vocab_token").locator("input")
    expect(chosen).to_have_value("258 · 'aaab'")  # the longest token by default
    table = main.locator('[data-testid="stDataFrame"]').first
    grid_cells(main)  # drawn
    rows = table.locator('[role="row"]:has([role="gridcell"])')
    third_row_id = rows.nth(2).locator('[role="gridcell"]').first.inner_text()  # id comes first
    assert third_row_id != "258"
    box = table.bounding_box()
    assert box is not None
    # a cell in the middle of the third row, well right of the checkbox column
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + ROW_PX * 3 + ROW_PX / 2)
    wait_until_idle(page)
    expect(chosen).to_have_value(re.compile(rf"^{third_row_id} · "))
