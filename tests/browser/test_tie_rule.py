"""The textbook tie rule in Chromium: one click on Train, then aa, ab, aaab on the merge
log and on Animate, whose narration names the rule that broke the tie."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    go_to,
    grid_rows,
    keyed,
    main_area,
    sidebar_tokenizer_input,
    wait_until_idle,
)
from ui.train.tie_rule_form import TEXTBOOK_EXAMPLE

TEXTBOOK_RUN = "aaabdaaabac · none · lowest-ids · 259"
NARRATION = re.compile(r"^Step \d+: ")


def merge_log_tokens(page: Page) -> list[str]:
    """The token column of the Train page's merge log (its last table), in row order."""
    table = main_area(page).locator('[data-testid="stDataFrame"]').last
    rows = grid_rows(table)
    headers = [h.strip().lower() for h in table.locator('[role="columnheader"]').all_inner_texts()]
    column = headers.index("new token")
    return [cells[column] for cells in rows]


def test_the_textbook_example_merges_aa_ab_aaab(app: Page) -> None:
    main = main_area(app)
    button = keyed(app, f"train_example_{TEXTBOOK_EXAMPLE.key}").get_by_role("button")
    expect(button).to_have_text(re.compile("aaabdaaabac, textbook tie rule"))
    button.click()
    wait_until_idle(app)
    expect(sidebar_tokenizer_input(app)).to_have_value(TEXTBOOK_RUN)
    expect(keyed(app, "train_tie_rule").locator("input")).to_have_value(
        "Lowest ids (the textbook example)"
    )
    assert merge_log_tokens(app) == ["aa", "ab", "aaab"]
    expect(main.get_by_text("the tie went to the pair with the lowest ids")).to_be_visible()

    go_to(app, "Animate merges")
    narration = main.get_by_text(NARRATION)
    tokens = []
    for step in (1, 2, 3):
        keyed(app, "animate_next").get_by_role("button").click()
        expect(narration).to_contain_text(f"Step {step}:")
        wait_until_idle(app)
        made = re.search(r"becomes token \d+ '([^']*)'", narration.inner_text())
        assert made is not None, narration.inner_text()
        tokens.append(made[1])
        if step == 2:
            expect(narration).to_contain_text(
                "('a', 'b') tied with 1 other pair at count 2; the tie went to the pair "
                "with the lowest ids"
            )
    assert tokens == ["aa", "ab", "aaab"]
