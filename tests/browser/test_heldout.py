"""In Chromium: train with a held-out share, then Compare draws both curves and the bend.

Shakespeare with pattern `none` and 10,000 tokens memorises its training text (still
gaining 38 % per doubling at 5,000), while its held-out paragraphs bend near 3,500: the
over-fitting the section is there to show, from bundled text only.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    choose_option,
    click_train,
    go_to,
    keyed,
    main_area,
    sidebar_tokenizer_input,
    wait_until_idle,
)
from tests.browser.test_accessibility import assert_accessible

HELD_OUT_RUN = "Shakespeare, 10 % held out · none · 10k"


def train_with_held_out_share(page: Page) -> None:
    """On Train: the default sample, pattern none, 10,000 tokens, 10 % held out."""
    vocab = keyed(page, "train_vocab").locator("input")
    vocab.fill("10000")
    vocab.press("Enter")
    wait_until_idle(page)
    choose_option(page, "train_pattern", "none")
    keyed(page, "train_holdout").get_by_text("Hold out text the tokenizer does not see").click()
    wait_until_idle(page)
    expect(keyed(page, "train_holdout_percent").locator("input")).to_have_value("10")
    expect(main_area(page).get_by_text(re.compile(r"^Held out: 74 paragraphs"))).to_be_visible()
    click_train(page)
    expect(sidebar_tokenizer_input(page)).to_have_value(HELD_OUT_RUN)


def test_compare_shows_training_and_held_out_curves_and_the_bend(app: Page) -> None:
    train_with_held_out_share(app)
    go_to(app, "Compare")
    main = main_area(app)
    chart = main.locator('[data-testid="stVegaLiteChart"]').first
    expect(chart).to_contain_text("Bytes per token as the vocabulary grows")
    for name in ("Training corpus", "Your text", "Held-out text"):
        expect(chart).to_contain_text(name)
    expect(chart).to_contain_text("bend")  # the label at the held-out curve's bend
    sentence = main.get_by_text(
        re.compile(r"^Held-out text: beyond about [\d,]+ tokens, each doubling gains less than 5 %")
    )
    expect(sentence).to_be_visible()
    expect(main.get_by_text(re.compile(r"^Training corpus: no bend yet"))).to_be_visible()
    expect(
        main.get_by_text(re.compile(r"^Where the curve bends: the smallest vocab size N"))
    ).to_be_visible()
    labels = chart.locator("g.mark-text text", has_text=re.compile(r"^bend$"))
    expect(labels).to_have_count(2)  # the held-out text's and your text's (UDHR, English)
    tooltip = app.locator("#vg-tooltip-element")
    seen = []
    for label in labels.all():
        label.hover()
        expect(tooltip).to_be_visible()
        expect(tooltip).to_contain_text("Bends at")
        seen.append(tooltip.inner_text())
    assert any("Held-out text" in text for text in seen), seen
    expect(
        main.get_by_text(re.compile(r"^The gap between the training and held-out"))
    ).to_be_visible()
    fallback = main.locator('[data-testid="stVegaLiteChart"]', has_text="Held-out bytes left as")
    expect(fallback.locator("svg.marks, canvas").first).to_be_visible()
    assert_accessible(app, "Compare with a held-out share")  # WCAG 2.1 AA, as every page
