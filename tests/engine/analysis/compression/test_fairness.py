"""Premiums against English and the Gini of tokens per byte, across the 26 UDHR languages."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.analysis.compression.fairness import (
    GINI,
    PREMIUM,
    fairness_curve,
    gini,
    tokens_per_byte_gini,
)
from explorer.analysis.compression.language_cost import language_curves
from explorer.analysis.compression.stats import StatsError, byte_length
from explorer.encoding.tokenizer import Tokenizer
from explorer.training.train import train
from ui.session.samples import sample_text, udhr_texts

LANGUAGES = udhr_texts()


@cache
def udhr_tokenizer() -> Tokenizer:
    return train(sample_text("udhr"), 700, pattern="gpt4").tokenizer


def brute_gini(values: list[float]) -> float:
    """The textbook double sum: mean absolute difference over all pairs ÷ twice the mean."""
    n, mean = len(values), sum(values) / len(values)
    return sum(abs(a - b) for a in values for b in values) / (n * n * 2 * mean)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.0, 10.0, allow_nan=False), min_size=1, max_size=30))
def test_gini_equals_the_double_sum_and_is_a_share(values: list[float]) -> None:
    if sum(values) == 0:
        assert gini(values) == 0.0
        return
    assert gini(values) == pytest.approx(brute_gini(values), abs=1e-12)
    assert 0.0 <= gini(values) < 1.0


def test_udhr_premiums_and_gini_at_every_size() -> None:
    tok = udhr_tokenizer()
    curves = language_curves(tok, LANGUAGES)
    assert len(curves) == 26
    sizes = [256, 300, 500, 700]
    for point in fairness_curve(curves, sizes):
        english = len(tok.at_vocab_size(point.size).encode_ordinary(LANGUAGES["English"]))
        assert point.premiums["English"] == 1.0
        assert list(point.premiums) == list(LANGUAGES)
        for language in ("Japanese", "Burmese", "French"):
            theirs = len(tok.at_vocab_size(point.size).encode_ordinary(LANGUAGES[language]))
            assert point.premiums[language] == pytest.approx(theirs / english)
        per_byte = [c.tokens_at(point.size) / c.bytes for c in curves]
        assert point.gini == pytest.approx(brute_gini(per_byte))
    at_bytes = fairness_curve(curves, [256])[0]
    assert at_bytes.gini == 0.0  # one token per byte in every language
    english_bytes = byte_length(LANGUAGES["English"])
    assert at_bytes.premiums["Burmese"] == byte_length(LANGUAGES["Burmese"]) / english_bytes
    assert tokens_per_byte_gini(curves, 700) > 0.0


def test_fairness_needs_english() -> None:
    curves = language_curves(udhr_tokenizer(), {"French": LANGUAGES["French"]})
    with pytest.raises(StatsError, match="against English"):
        fairness_curve(curves, [300])


def test_premium_and_gini_have_help_text() -> None:
    assert (PREMIUM.key, GINI.key) == ("premium", "gini")
    assert "Petrov" in PREMIUM.source and "whole text" in PREMIUM.definition
    assert "lower is fairer" in GINI.definition
