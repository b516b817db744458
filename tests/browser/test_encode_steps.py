"""Tokens, encode step by step, in Chromium: the chips and merge numbers the browser draws
at each step are the engine's trace; keys and Play step it; user text stays text."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from explorer import Tokenizer, render_token, train
from explorer.encoding.encode_trace import EncodeStep, fused_starts, trace_encoding
from tests.browser.conftest import go_to, keyed, wait_until_idle
from tests.browser.test_accessibility import VIEWPORT, assert_accessible
from ui.session import state as keys
from ui.session.samples import sample_text

WORD = "tokenization"
STEP_LABEL = re.compile(r"^Step \d+ of \d+$")


@pytest.fixture(scope="module")
def sample_tokenizer() -> Tokenizer:
    """The tokenizer a new session opens on (Shakespeare, gpt4, 2,000)."""
    return train(sample_text("shakespeare"), 2000, pattern="gpt4").tokenizer


def open_section(page: Page, text: str) -> Locator:
    """On Tokens: open the section, trace `text`; the stage."""
    go_to(page, "Tokens")
    keyed(page, keys.TOKENS_ENCODE_OPEN).locator("summary").click()
    wait_until_idle(page)
    box = keyed(page, keys.TOKENS_ENCODE_TEXT).locator("input")
    box.fill(text)
    box.press("Enter")
    wait_until_idle(page)
    return keyed(page, keys.TOKENS_ENCODE_STAGE)


def step_label(page: Page) -> Locator:
    """The "Step k of N" beside the buttons."""
    return keyed(page, keys.TOKENS_ENCODE_OPEN).get_by_text(STEP_LABEL)


def chip_texts(tokenizer: Tokenizer, ids: tuple[int, ...]) -> list[str]:
    """What each coloured chip of a chunk reads: its text, then its id."""
    return [f"{render_token(tokenizer.token_bytes(i), visible_whitespace=True)}{i}" for i in ids]


def check_stage(stage: Locator, tokenizer: Tokenizer, step: EncodeStep) -> None:
    """The chunk before and after, and the candidates' numbers, as the engine has them."""
    before, after = stage.locator(".es-chunk").all()
    assert before.locator(".bpe > span").all_inner_texts() == chip_texts(tokenizer, step.ids_before)
    assert after.locator(".bpe > span").all_inner_texts() == chip_texts(tokenizer, step.ids_after)
    numbers = stage.locator(".es-cand").evaluate_all("els => els.map(e => e.dataset.merge)")
    assert numbers == [str(c.merge_number) for c in step.candidates]
    lowest = stage.locator(".es-low")
    expect(lowest).to_have_count(1)
    expect(lowest).to_have_attribute("data-merge", str(step.merge_number))
    expect(lowest).to_contain_text("lowest")
    expect(stage.locator(".bpe .h")).to_have_count(3 * len(fused_starts(step)))  # before, after


def test_steps_match_the_engine(app: Page, sample_tokenizer: Tokenizer) -> None:
    stage = open_section(app, WORD)
    steps = trace_encoding(sample_tokenizer, WORD).steps
    expect(step_label(app)).to_have_text(f"Step 0 of {len(steps)}")
    next_button = keyed(app, keys.TOKENS_ENCODE_NEXT).get_by_role("button")
    for numbered in steps:
        next_button.click()
        expect(step_label(app)).to_have_text(f"Step {numbered.number} of {len(steps)}")
        wait_until_idle(app)
        expect(stage.locator(".am-narration")).to_contain_text(
            f"merge {numbered.step.merge_number} fuses"
        )
        check_stage(stage, sample_tokenizer, numbered.step)
    expect(next_button).to_be_disabled()
    assert f"encode_step={len(steps)}" in app.url


def test_keys_and_play_step_it(app: Page, sample_tokenizer: Tokenizer) -> None:
    open_section(app, WORD)
    last = len(trace_encoding(sample_tokenizer, WORD).steps)
    # shortcuts wait while the text box has focus (arrows move its caret): click away
    keyed(app, keys.TOKENS_ENCODE_STAGE).locator(".am-narration").click()
    app.keyboard.press("ArrowRight")
    expect(step_label(app)).to_have_text(f"Step 1 of {last}")
    app.keyboard.press("ArrowRight")
    expect(step_label(app)).to_have_text(f"Step 2 of {last}")
    app.keyboard.press("ArrowLeft")
    expect(step_label(app)).to_have_text(f"Step 1 of {last}")
    play = keyed(app, keys.TOKENS_ENCODE_PLAY).get_by_role("button")
    play.click()
    expect(play).to_contain_text("Pause")
    expect(step_label(app)).to_have_text(f"Step {last} of {last}", timeout=30_000)
    expect(play).to_contain_text("Play")  # it stops at the last step


def test_user_text_appears_literally(app: Page) -> None:
    stage = open_section(app, "<b>&amp;")
    expect(stage.locator(".am-narration")).to_contain_text("Step 0 of")
    expect(stage.locator(".bpe")).to_have_text("<b>&amp;")
    keyed(app, keys.TOKENS_ENCODE_NEXT).get_by_role("button").click()
    wait_until_idle(app)
    expect(stage.locator("b")).to_have_count(0)  # no element made from the user's text
    assert "<b>&amp;" in stage.locator(".bpe").last.inner_text()


def test_the_open_section_has_no_serious_violation(app: Page) -> None:
    app.set_viewport_size(VIEWPORT)
    stage = open_section(app, "Encoding <b>&amp; tokens")
    keyed(app, keys.TOKENS_ENCODE_NEXT).get_by_role("button").click()
    expect(stage.locator(".es-low")).to_have_count(1)
    assert_accessible(app, "Tokens, encode step by step at step 1")
