"""Cost per language at every vocab size: one encode each, against a tokenizer per size."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.analysis.compression.language_cost import (
    LanguageCurve,
    cost_grid,
    heatmap_sizes,
    language_curve,
    language_curves,
    token_tax,
)
from explorer.analysis.compression.stats import StatsError, byte_length
from explorer.encoding.tokenizer import Tokenizer
from explorer.training.train import train
from ui.session.samples import sample_text, udhr_texts

LANGUAGES = udhr_texts()


@cache
def udhr_tokenizer(pattern: str) -> Tokenizer:
    """A tokenizer trained on the 26-language UDHR sample: merges in many scripts."""
    return train(sample_text("udhr"), 900, pattern=pattern).tokenizer


@cache
def truncated(pattern: str, vocab_size: int) -> Tokenizer:
    return udhr_tokenizer(pattern).at_vocab_size(vocab_size)


def direct_count(pattern: str, vocab_size: int, text: str) -> int:
    """The slow way: the tokenizer of the first merges, encoding the whole text."""
    return len(truncated(pattern, vocab_size).encode(text, disallowed_special=()))


SIZES = (256, 257, 300, 512, 700, 899, 900)


@pytest.mark.parametrize("pattern", ["gpt4", "none", "o200k"])
@pytest.mark.parametrize("language", ["English", "Japanese", "Burmese", "Arabic", "Hindi"])
def test_one_encode_gives_every_size(pattern: str, language: str) -> None:
    curve = language_curve(language, udhr_tokenizer(pattern), LANGUAGES[language])
    assert curve.bytes == byte_length(LANGUAGES[language])
    for size in SIZES:
        assert curve.tokens_at(size) == direct_count(pattern, size, LANGUAGES[language]), size


@settings(max_examples=40, deadline=None)
@given(
    language=st.sampled_from(sorted(LANGUAGES)),
    start=st.integers(0, 1500),
    length=st.integers(0, 400),
    extra=st.text(max_size=20),
    size=st.sampled_from(SIZES),
    pattern=st.sampled_from(["gpt4", "none"]),
)
def test_counts_from_one_encode_equal_a_truncated_tokenizer(
    language: str, start: int, length: int, extra: str, size: int, pattern: str
) -> None:
    text = LANGUAGES[language][start : start + length] + extra
    curve = language_curve(language, udhr_tokenizer(pattern), text)
    assert curve.tokens_at(size) == direct_count(pattern, size, text)
    assert curve.tokens_at(256) == byte_length(text)


def test_a_curve_keeps_only_the_merges_it_used() -> None:
    tok = Tokenizer([(97, 97), (98, 98), (256, 97)])  # aa, bb, aaa
    curve = language_curve("demo", tok, "aaa aa")
    assert curve == LanguageCurve("demo", 6, ranks=(0, 2), removed=(2, 3))
    assert [curve.tokens_at(size) for size in (256, 257, 258, 259, 10_000)] == [6, 4, 4, 3, 3]
    assert language_curve("empty", tok, "").bytes_per_token_at(259) == 0.0
    with pytest.raises(StatsError, match="start at 256"):
        curve.tokens_at(255)


def test_curves_follow_the_languages_order() -> None:
    curves = language_curves(udhr_tokenizer("gpt4"), LANGUAGES)
    assert [c.language for c in curves] == list(LANGUAGES)
    english = curves[0]
    assert english.bytes_per_token_at(900) > english.bytes_per_token_at(300) > 1.0


def test_heatmap_sizes_span_the_run_on_a_log_scale() -> None:
    sizes = heatmap_sizes(20_000)
    assert sizes[0] == 256 and sizes[-1] == 20_000 and sizes == sorted(set(sizes))
    assert 25 <= len(sizes) <= 32
    assert sum(size < 1000 for size in sizes) >= 8  # the early merges get their columns
    assert heatmap_sizes(256) == [256]
    assert heatmap_sizes(200_000)[-1] == 200_000
    with pytest.raises(StatsError):
        heatmap_sizes(100)


@given(full=st.integers(256, 300_000), columns=st.integers(2, 60))
def test_heatmap_sizes_are_sorted_distinct_and_in_range(full: int, columns: int) -> None:
    sizes = heatmap_sizes(full, columns)
    assert sizes[0] == 256 and sizes[-1] == full
    assert sizes == sorted(set(sizes)) and len(sizes) <= max(columns, 1)


def test_token_tax_is_against_english() -> None:
    english_only = train(sample_text("shakespeare"), 900, pattern="gpt4").tokenizer
    tax = token_tax(language_curves(english_only, LANGUAGES), 900)
    assert tax["English"] == 1.0
    assert tax["Burmese"] > 3 * tax["French"] > 3  # a script its merges never reached
    curves = language_curves(udhr_tokenizer("gpt4"), LANGUAGES)
    bytes_only = token_tax(curves, 256)  # no merges: the ratio of the texts' bytes
    assert bytes_only["Russian"] == pytest.approx(
        byte_length(LANGUAGES["Russian"]) / byte_length(LANGUAGES["English"])
    )
    with pytest.raises(StatsError, match="English"):
        token_tax(curves[1:], 900)
    empty = [language_curve("English", udhr_tokenizer("gpt4"), ""), *curves[1:]]
    with pytest.raises(StatsError, match="empty"):
        token_tax(empty, 900)


def test_cost_grid_has_every_language_at_every_size() -> None:
    curves = language_curves(udhr_tokenizer("gpt4"), LANGUAGES)
    grid = cost_grid(curves, [256, 900])
    assert len(grid) == 2 * len(LANGUAGES)
    language, size, ratio, tokens = grid[0]
    assert (language, size, ratio, tokens) == ("English", 256, 1.0, curves[0].bytes)
