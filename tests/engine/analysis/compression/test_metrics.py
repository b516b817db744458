"""The literature's metrics at every size from one encode, against re-encoding at each size."""

from __future__ import annotations

import math
import re
from functools import cache

import pytest
import tokenization_scorer
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.analysis.compression.metric_counts import WIDE_SPACES
from explorer.analysis.compression.metrics import (
    METRICS,
    RENYI_ALPHA,
    WORD_PATTERN,
    MetricCounts,
    MetricsError,
    SizeMetrics,
    count_text,
    metric_info,
    metrics_at,
    size_metrics,
)
from explorer.encoding.pretokenize import as_unicode
from explorer.encoding.tokenizer import Tokenizer
from explorer.files.bundled import load_bundled
from explorer.training.train import train
from ui.session.samples import udhr_texts

LANGUAGES = udhr_texts()
# spaces ASCII and wide (U+00A0, U+3000), multi-byte letters, a control str.split() splits at
ALPHABET = "ab ab\n\t.,é日本\u00a0\u3000\x1c"
FULL = 256 + 120


@cache
def trained(pattern: str) -> Tokenizer:
    """120 merges over the alphabet's characters and a few languages: words, spaces, scripts."""
    corpus = (ALPHABET * 4) + LANGUAGES["English"][:3000] + LANGUAGES["Japanese"][:1500]
    return train(corpus, FULL, pattern=pattern).tokenizer


def reencoded(tokenizer: Tokenizer, text: str, size: int) -> SizeMetrics:
    """The slow way: the tokenizer of the first merges, its spans, words by `str.split()`."""
    small = tokenizer.at_vocab_size(size)
    encoding = small.encode_with_spans(text, disallowed_special=())
    unicode = as_unicode(text)
    words = [
        (len(unicode[: m.start()].encode()), len(unicode[: m.end()].encode()))
        for m in re.finditer(WORD_PATTERN, unicode)
    ]
    assert len(words) == len(unicode.split())
    per_word = [
        sum(1 for a, b in encoding.byte_spans if a < end and b > start) for start, end in words
    ]
    tokens, text_bytes = len(encoding.ids), len(unicode.encode())
    return SizeMetrics(
        size=size,
        tokens=tokens,
        text_bytes=text_bytes,
        words=len(words),
        bytes_per_token=text_bytes / tokens if tokens else 0.0,
        fertility=sum(per_word) / len(words) if words else 0.0,
        continued_words=sum(n >= 2 for n in per_word) / len(words) if words else 0.0,
        renyi_efficiency=scorer_efficiency(encoding.ids, size),
        vocab_used=len(set(encoding.ids)) / size,
    )


def scorer_efficiency(ids: list[int], size: int) -> float:
    """tokenization-scorer's Rényi efficiency of these tokens with |V| = size."""
    if len(set(ids)) < 2:
        return 0.0
    words = " ".join(f"t{token}" for token in ids)
    return float(tokenization_scorer.score(words, metric="renyi", power=RENYI_ALPHA, vocab=size))


def assert_same(got: SizeMetrics, expected: SizeMetrics) -> None:
    assert got.size == expected.size
    assert (got.tokens, got.text_bytes, got.words) == (
        expected.tokens,
        expected.text_bytes,
        expected.words,
    ), got.size
    for name in ("bytes_per_token", "fertility", "continued_words", "vocab_used"):
        assert getattr(got, name) == pytest.approx(getattr(expected, name), rel=1e-12), name
    assert got.renyi_efficiency == pytest.approx(expected.renyi_efficiency, rel=1e-9, abs=1e-12)


SIZES = [256, 257, 270, 300, 333, 350, FULL]


@settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet=ALPHABET, max_size=60), pattern=st.sampled_from(["none", "gpt2"]))
def test_the_curve_from_one_encode_equals_reencoding_at_each_size(text: str, pattern: str) -> None:
    tok = trained(pattern)
    for got in size_metrics(tok, text, SIZES):
        assert_same(got, reencoded(tok, text, got.size))


@pytest.mark.parametrize("pattern", ["gpt4", "none"])
@pytest.mark.parametrize("language", ["English", "Japanese", "Arabic"])
def test_real_text_at_every_size_agrees_with_the_scorer(pattern: str, language: str) -> None:
    tok = trained(pattern)
    text = LANGUAGES[language][:1200]
    every = metrics_at(tok, count_text(tok, text), range(256, FULL + 1))
    assert [m.size for m in every] == list(range(256, FULL + 1))
    for got in every[::17] + every[-1:]:
        assert_same(got, reencoded(tok, text, got.size))


@pytest.mark.parametrize("language", ["English", "Japanese"])
def test_gpt2s_vocabulary_in_its_own_byte_order(language: str) -> None:
    tok = load_bundled("gpt2")  # ids 0-255 are bytes in GPT-2's order, not the bytes' values
    text = LANGUAGES[language][:600]
    for got in size_metrics(tok, text, [256, 1_000, 20_000, 50_256]):
        assert_same(got, reencoded(tok, text, got.size))


words = st.lists(st.text(alphabet="abé日.", min_size=1, max_size=8), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(parts=words, spaces=st.sampled_from([" ", "\n", "  ", "\u3000"]))
def test_shares_and_bounds_hold(parts: list[str], spaces: str) -> None:
    text = spaces.join(parts)
    for m in size_metrics(trained("none"), text, SIZES):
        assert m.words == len(parts)
        assert m.fertility >= 1.0
        assert 0.0 <= m.continued_words <= 1.0
        assert 0.0 < m.vocab_used <= 1.0
        assert 0.0 <= m.renyi_efficiency <= 1.0
        if len(set(trained("none").at_vocab_size(m.size).encode(text))) >= 2:
            assert m.renyi_efficiency > 0.0


def test_a_small_example_by_hand() -> None:
    tok = Tokenizer([(104, 105), (32, 256)])  # "hi", " hi"
    at_258, at_257, at_256 = size_metrics(tok, "hi hi!", [258, 257, 256])
    # 258: "hi" " hi" "!" -> the second word "hi!" is in two tokens; " hi" touches one word
    assert (at_258.tokens, at_258.words, at_258.fertility, at_258.continued_words) == (
        3,
        2,
        1.5,
        0.5,
    )
    assert at_257.tokens == 4 and at_257.fertility == 1.5  # "hi" " " "hi" "!"
    assert (at_256.tokens, at_256.fertility, at_256.continued_words) == (6, 2.5, 1.0)
    assert at_258.vocab_used == 3 / 258
    p = [1 / 3] * 3
    renyi = math.log2(sum(x**RENYI_ALPHA for x in p)) / (1 - RENYI_ALPHA)
    assert at_258.renyi_efficiency == pytest.approx(renyi / math.log2(258))


def test_counts_of_two_texts_add() -> None:
    tok = trained("gpt2")
    first, second = "ab ab é\n", "日本 ab."
    together = count_text(tok, first) + count_text(tok, second)
    assert isinstance(together, MetricCounts)
    assert together == count_text(tok, first + second)  # a newline ends every gpt2 piece


def test_empty_text_and_sizes_outside_the_tokenizer() -> None:
    tok = trained("none")
    (empty,) = size_metrics(tok, "", [300])
    assert (empty.tokens, empty.words, empty.bytes_per_token, empty.fertility) == (0, 0, 0.0, 0.0)
    assert empty.renyi_efficiency == 0.0 and empty.vocab_used == 0.0
    with pytest.raises(MetricsError, match=r"vocab sizes 256 to 376 .*; 255, 377 is outside"):
        size_metrics(tok, "ab", [255, 300, 377])
    assert size_metrics(tok, "ab", []) == []


def test_every_metric_has_a_definition_and_a_source() -> None:
    keys = [info.key for info in METRICS]
    assert keys == [
        "bytes_per_token",
        "fertility",
        "continued_words",
        "renyi_efficiency",
        "vocab_used",
    ]
    assert set(keys) <= set(SizeMetrics.__dataclass_fields__)
    assert all(info.definition.endswith(".") and info.source for info in METRICS)
    assert metric_info("renyi_efficiency").label == "Rényi efficiency"
    assert "α = 2.5" in metric_info("renyi_efficiency").definition
    with pytest.raises(MetricsError, match="no metric 'premium'"):
        metric_info("premium")


def test_the_wide_spaces_are_those_python_splits_at() -> None:
    beyond_ascii = "".join(chr(c) for c in range(128, 0x110000) if chr(c).isspace())
    assert beyond_ascii == WIDE_SPACES


def test_text_that_is_not_valid_unicode_is_measured_as_it_is_encoded() -> None:
    tok = trained("gpt2")
    text = "ab \ud800b é\ud83d\ude00 ab"  # a lone surrogate (U+FFFD) and a pair as two code points
    for got in size_metrics(tok, text, SIZES):
        assert_same(got, reencoded(tok, text, got.size))
        assert got.text_bytes == len(tok.decode_bytes(tok.encode_ordinary(text)))
