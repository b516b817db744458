"""Compression statistics, and token counts at every vocab size against real encodes."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import explorer
from explorer.analysis.compression.stats import (
    CurvePoint,
    StatsError,
    TextStats,
    bytes_per_token_at,
    compression_curve,
    merge_applications,
    text_stats,
    tokens_at_every_size,
)
from explorer.encoding.tokenizer import Tokenizer
from explorer.training.train import train, train_word_counts

SHARED = Path(__file__).parents[5] / "shared"
SPECIAL = "<|endoftext|>"


@cache
def source_text(name: str) -> str:
    """Real text every clone has: one of the engine's own modules."""
    return next(Path(explorer.__file__).parent.rglob(name)).read_text()


@cache
def trained(pattern: str, merges: int) -> Tokenizer:
    return train(source_text("tokenizer.py"), 256 + merges, pattern=pattern).tokenizer


def direct_counts(tokenizer: Tokenizer, text: str, vocab_sizes: list[int]) -> list[int]:
    """The slow way: a tokenizer per size, each encoding the whole text."""
    return [
        len(tokenizer.at_vocab_size(v).encode(text, disallowed_special=())) for v in vocab_sizes
    ]


def sample_sizes(tokenizer: Tokenizer, how_many: int) -> list[int]:
    top = tokenizer.vocab_size
    step = max(1, (top - 256) // how_many)
    return sorted({256, 257, 258, *range(256, top, step), top - 1, top})


def test_text_stats() -> None:
    tok = Tokenizer([(97, 97), (256, 97), (257, 98)])
    assert text_stats(tok, "aaabdaaabac") == TextStats(11, 11, 5, 2.2, 2.2)
    assert text_stats(tok, "héllo") == TextStats(5, 6, 6, 1.0, 5 / 6)
    assert text_stats(tok, "") == TextStats(0, 0, 0, 0.0, 0.0)


def test_text_stats_counts_special_token_text_as_plain_text() -> None:
    tok = Tokenizer([(97, 97)], special_tokens=[SPECIAL])
    stats = text_stats(tok, f"aa{SPECIAL}aa")
    assert stats.tokens == 2 + len(SPECIAL)
    assert tokens_at_every_size(tok, f"aa{SPECIAL}aa") == [4 + len(SPECIAL), stats.tokens]


def test_compression_curve_follows_the_history() -> None:
    history = train(source_text("tokenizer.py"), 256 + 200).history
    curve = compression_curve(history)
    assert len(curve) == len(history.steps) + 1
    assert curve[0] == CurvePoint(256, history.initial_length, 1.0)
    assert curve[-1].vocab_size == 256 + len(history.steps)
    assert curve[-1].tokens == history.final_length
    assert curve[-1].bytes_per_token == history.initial_length / history.final_length
    assert [p.tokens for p in curve] == [history.length_at(p.vocab_size) for p in curve]
    assert all(a.tokens > b.tokens for a, b in zip(curve, curve[1:]))


def test_compression_curve_of_hug_pug_and_of_nothing() -> None:
    curve = compression_curve(
        train_word_counts("hug 10\npug 5\npun 12\nbun 4\nhugs 5", 259).history
    )
    assert [(p.vocab_size, p.tokens) for p in curve] == [
        (256, 113),
        (257, 93),
        (258, 77),
        (259, 62),
    ]
    assert compression_curve(train("", 300).history) == [CurvePoint(256, 0, 0.0)]


def test_tokens_at_every_size_on_a_tiny_example() -> None:
    tok = Tokenizer([(97, 97), (256, 97), (257, 98)])
    assert tokens_at_every_size(tok, "aaabdaaabac") == [11, 9, 7, 5]
    assert tokens_at_every_size(tok, "") == [0, 0, 0, 0]
    assert tokens_at_every_size(Tokenizer(), "abc") == [3]
    assert merge_applications(tok, "aaaa aaab") == [3, 1, 1]  # aa aa _ aa a b -> aa aa _ aaab


@pytest.mark.parametrize("pattern", ["gpt4", "gpt2", "o200k", "words", "none", r"\w+"])
def test_tokens_at_every_size_match_encoding_at_each_size(pattern: str) -> None:
    tok = trained(pattern, 400)
    text = source_text("pretokenize.py")  # not the training text: unseen chunks too
    counts = tokens_at_every_size(tok, text)
    assert len(counts) == tok.vocab_size - 255
    sizes = sample_sizes(tok, 12)
    assert [counts[v - 256] for v in sizes] == direct_counts(tok, text, sizes)


@pytest.mark.parametrize("pattern", ["gpt4", "none"])
def test_tokens_at_every_size_on_taylorswift(pattern: str) -> None:
    path = SHARED / "corpora" / "taylorswift.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent (shared/ is beside the project for developers and CI only)")
    text = path.read_text()
    if pattern == "none":
        text = text[:40_000]  # one long chunk; the slow reference encodes it once per size
    tok = train(text, 256 + 1000, pattern=pattern).tokenizer
    counts = tokens_at_every_size(tok, text)
    sizes = sample_sizes(tok, 8)
    assert [counts[v - 256] for v in sizes] == direct_counts(tok, text, sizes)


def test_bytes_per_token_at() -> None:
    tok = trained("gpt4", 400)
    text = source_text("history.py")
    size = len(text.encode())
    ratios = bytes_per_token_at(tok, text, [256, 400, 656, 10_000])
    assert ratios[256] == 1.0
    assert ratios[400] == size / len(tok.at_vocab_size(400).encode(text))
    assert ratios[656] == ratios[10_000] == size / len(tok.encode(text))
    assert bytes_per_token_at(tok, "", [300]) == {300: 0.0}
    with pytest.raises(StatsError, match="at least 256"):
        bytes_per_token_at(tok, text, [300, 255])


ALPHABET = st.sampled_from([*"aeinst hr.,'\n\tAEI0123éßü日本🙂", SPECIAL, "  ", "the "])


@settings(max_examples=60, deadline=None)  # 60 texts x 2 patterns x 61 sizes each
@given(st.lists(st.one_of(ALPHABET, st.text(max_size=3)), max_size=60).map("".join))
def test_tokens_at_every_size_match_encoding_on_random_text(text: str) -> None:
    for pattern in ("gpt4", "none"):
        tok = small_tokenizer(pattern)
        counts = tokens_at_every_size(tok, text)
        assert counts == direct_counts(tok, text, list(range(256, tok.vocab_size + 1)))


@cache
def small_tokenizer(pattern: str) -> Tokenizer:
    text = "the cat sat on the mat; ünïcödé 日本語 🙂🙂 aaaa\n\n" * 3 + source_text("history.py")
    return train(text, 256 + 60, pattern=pattern, special_tokens=[SPECIAL]).tokenizer
