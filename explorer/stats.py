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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from explorer.history import MergeHistory
from explorer.pretokenize import compile_pattern, covering_pieces, match_timeout
from explorer.tokenizer import Tokenizer


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
    tokens = len(tokenizer.encode(text, disallowed_special=()))
    size = byte_length(text)
    return TextStats(len(text), size, tokens, _ratio(size, tokens), _ratio(len(text), tokens))


def compression_curve(history: MergeHistory) -> list[CurvePoint]:
    """The training corpus's length at every vocab size, 256 to 256 + len(history.steps).

    Bytes per token is over `history.initial_length`, the bytes the tokens spell out;
    `corpus_bytes` may also count special-token text and text the pattern skipped, which
    training never saw as tokens.

    >>> from explorer.train import train
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

    Each distinct pre-token chunk is merged once and weighted by how often it occurs.

    >>> merge_applications(Tokenizer([(97, 97), (256, 97)]), "aaa aaaa")
    [3, 1]
    """
    applied = [0] * len(tokenizer.merges)
    for chunk, freq in Counter(_chunks(tokenizer, text)).items():
        for new_id in applied_merges(tokenizer.initial_ids(chunk), tokenizer.ranks):
            applied[new_id - 256] += freq
    return applied


def applied_merges(data: bytes | list[int], ranks: Mapping[tuple[int, int], int]) -> list[int]:
    """The ids made, in order, while merging one chunk as `explorer.tokenizer.merge_bytes` does.

    An instrumented copy of its heap loop: lowest rank first, leftmost first among equals.

    >>> applied_merges(b"aaab", {(97, 97): 256, (256, 97): 257})
    [256, 257]
    """
    ids = list(data)
    n = len(ids)
    nxt = [*range(1, n), -1]
    prv = list(range(-1, n - 1))
    heap = [(r, i) for i in range(n - 1) if (r := ranks.get((ids[i], ids[i + 1]))) is not None]
    heapq.heapify(heap)
    made: list[int] = []
    while heap:
        new_id, i = heapq.heappop(heap)
        j = nxt[i]
        if ids[i] < 0 or j < 0 or ranks.get((ids[i], ids[j])) != new_id:
            continue  # stale: this position changed since the entry was pushed
        made.append(new_id)
        ids[i], ids[j] = new_id, -1
        k = nxt[i] = nxt[j]
        if k >= 0:
            prv[k] = i
            if (right := ranks.get((new_id, ids[k]))) is not None:
                heapq.heappush(heap, (right, i))
        if (p := prv[i]) >= 0 and (left := ranks.get((ids[p], new_id))) is not None:
            heapq.heappush(heap, (left, p))
    return made


def byte_length(text: str) -> int:
    """UTF-8 length, with lone surrogates counted as the tokenizer encodes them."""
    return len(text.encode("utf-8", "surrogatepass"))


def _chunks(tokenizer: Tokenizer, text: str) -> list[str]:
    """The pre-token chunks encode merges inside, special-token text included as plain text."""
    pattern = tokenizer.pattern
    return covering_pieces(
        text, compile_pattern(pattern), timeout=match_timeout(pattern, len(text))
    )


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else 0.0
