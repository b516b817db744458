"""Animate's shared caches: a step built ahead is the step the stage then draws."""

from __future__ import annotations

import pytest

from explorer import train
from ui.animate import caches
from ui.session.runs import tokenizer_at

TEXT = "aaabdaaabac"


def test_a_step_built_ahead_is_drawn_from_the_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    tokenizer = train(TEXT, 259, pattern="none").tokenizer
    run_key = "test_step_caches: built ahead"
    caches.warm_step(tokenizer, run_key, TEXT, 2, show_ids=False, titles=True)

    def built_again(*args: object, **kwargs: object) -> str:
        raise AssertionError("the step was built again, not read from the caches")

    monkeypatch.setattr(caches, "tokens_to_html", built_again)
    monkeypatch.setattr(caches, "shared_cards_html", built_again)
    after, before = tokenizer_at(tokenizer, run_key, 258), tokenizer_at(tokenizer, run_key, 257)
    frame = caches.frame_cached(before, after, run_key, 2, TEXT)
    assert frame.after.ids == tokenizer.at_vocab_size(258).encode(TEXT)
    page = caches.passage_html(after, run_key, TEXT, frame.after.ids, show_ids=False, titles=True)
    assert page.count('class="c-') == len(frame.after.ids)  # every token drawn
    assert 'role="tooltip"' in caches.cards_html(after, run_key, TEXT, frame)


def test_a_step_that_cannot_be_built_is_left_for_the_stage(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tokenizer = train(TEXT, 258, pattern="none").tokenizer

    def unencodable(*args: object) -> None:
        raise ValueError("the passage holds a special token this tokenizer lacks")

    monkeypatch.setattr(caches, "frame_cached", unencodable)
    # no error here: the step on screen is drawn already; the stage reports it when shown
    caches.warm_step(tokenizer, "test_step_caches: bad", TEXT, 1, show_ids=True, titles=False)
