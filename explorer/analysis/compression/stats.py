"""Compression statistics: tokens and bytes per token, for one text or along training.

Special-token text counts as ordinary text here (`encode(text, disallowed_special=())`),
so the numbers do not depend on which special tokens a caller allows.

    >>> tok = Tokenizer([(97, 97), (256, 97), (257, 98)])  # aa, aaa, aaab
    >>> tokens_at_every_size(tok, "aaabdaaabac")
    [11, 9, 7, 5]
    >>> text_stats(tok, "aaabdaaabac").bytes_per_token
    2.2
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from explorer.encoding.tokenizer import Tokenizer
from explorer.training.history import MergeHistory


class StatsError(ValueError):
    """A statistic asked for something that does not exist, such as a vocab size below 256."""


@dataclass(frozen=True)
class TextStats:
    """The size of one text in characters, UTF-8 bytes and tokens; ratios are 0.0 with no tokens."""

    chars: int
    bytes: int
    tokens: int
    bytes_per_token: float
    chars_per_token: float


@dataclass(frozen=True)
class CurvePoint:
    """The training corpus's length in tokens with the first `vocab_size - 256` merges."""

    vocab_size: int
    tokens: int
    bytes_per_token: float


def text_stats(tokenizer: Tokenizer, text: str) -> TextStats:
    """Characters, bytes and tokens of a text under one tokenizer.

    >>> text_stats(Tokenizer([(97, 97)]), "aaé")
    TextStats(chars=3, bytes=4, tokens=3, bytes_per_token=1.3333333333333333, chars_per_token=1.0)
    """
    return counted_stats(text, len(tokenizer.encode(text, disallowed_special=())))


def counted_stats(text: str, tokens: int) -> TextStats:
    """The TextStats of a text already encoded into `tokens` tokens, without encoding again.

    >>> counted_stats("héllo", 2).bytes_per_token, counted_stats("", 0).chars_per_token
    (3.0, 0.0)
    """
    size = byte_length(text)
    return TextStats(len(text), size, tokens, _ratio(size, tokens), _ratio(len(text), tokens))


def compression_curve(history: MergeHistory) -> list[CurvePoint]:
    """The training corpus's length at every vocab size, 256 to 256 + len(history.steps).

    Bytes per token is over `history.initial_length`, the bytes the tokens spell out;
    `corpus_bytes` may also count special-token text and text the pattern skipped, which
    training never saw as tokens.

    >>> from explorer.training.train import train
    >>> curve = compression_curve(train("aaabdaaabac", 259, pattern="none").history)
    >>> [(p.vocab_size, p.tokens, p.bytes_per_token) for p in curve]
    [(256, 11, 1.0), (257, 9, 1.2222222222222223), (258, 7, 1.5714285714285714), (259, 5, 2.2)]
    """
    size = history.initial_length
    lengths = [size, *(step.length_after for step in history.steps)]
    return [CurvePoint(256 + k, n, _ratio(size, n)) for k, n in enumerate(lengths)]


def tokens_at_every_size(tokenizer: Tokenizer, text: str) -> list[int]:
    """Token counts of a text with 0, 1, ..., len(tokenizer.merges) merges, from one encode.

    Index k equals `len(tokenizer.at_vocab_size(256 + k).encode(text, disallowed_special=()))`.
    Encoding applies merges in increasing rank, each application removes one token, and
    a merge never makes a pair of lower rank, so the tokenizer of the first k merges
    applies exactly the full tokenizer's applications of rank < k.
    """
    counts = [byte_length(text)]
    for applied in merge_applications(tokenizer, text):
        counts.append(counts[-1] - applied)
    return counts


def bytes_per_token_at(
    tokenizer: Tokenizer, text: str, vocab_sizes: Iterable[int]
) -> dict[int, float]:
    """Bytes per token of a text at each vocab size (sizes past the tokenizer's use all merges).

    >>> bytes_per_token_at(Tokenizer([(97, 97)]), "aaaa", [256, 257, 300])
    {256: 1.0, 257: 2.0, 300: 2.0}
    """
    vocab_sizes = list(vocab_sizes)
    too_small = [v for v in vocab_sizes if v < 256]
    if too_small:
        raise StatsError(
            f"vocab sizes must be at least 256, the 256 single bytes (got {too_small})"
        )
    counts = tokens_at_every_size(tokenizer, text)
    last = len(counts) - 1
    return {v: _ratio(counts[0], counts[min(v - 256, last)]) for v in vocab_sizes}


def merge_applications(tokenizer: Tokenizer, text: str) -> list[int]:
    """How often each merge, by rank, is applied while encoding text with every merge.

    Token t >= 256 is only ever made by merge t - 256 from its two parents, which were
    made the same way; so one ordinary encode, and each token's tree walked once (larger
    ids first: a parent always has a smaller id than its child), gives every count.

    >>> merge_applications(Tokenizer([(97, 97), (256, 97)]), "aaa aaaa")
    [3, 1]
    """
    applied = [0] * len(tokenizer.merges)
    # subtle: tokens outside the merges (from a file) have no tree and no size of their own
    tokenizer = tokenizer.merges_only()
    pending = {t: n for t, n in Counter(tokenizer.encode_ordinary(text)).items() if t >= 256}
    largest_first = [-t for t in pending]
    heapq.heapify(largest_first)
    while largest_first:
        token = -heapq.heappop(largest_first)
        uses = pending.pop(token)
        applied[token - 256] += uses
        for part in tokenizer.merges[token - 256]:
            if part < 256:
                continue
            if part not in pending:
                pending[part] = 0
                heapq.heappush(largest_first, -part)
            pending[part] += uses
    return applied


def byte_length(text: str) -> int:
    """UTF-8 length, with lone surrogates counted as the tokenizer encodes them."""
    return len(text.encode("utf-8", "surrogatepass"))


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else 0.0
