"""What each language costs as the vocabulary grows: one encode per text gives every size.

A tokenizer's first k merges are a tokenizer of size 256 + k, and encoding with them
applies exactly the full tokenizer's merge applications of rank < k (see
`explorer.analysis.compression.stats.tokens_at_every_size`). So one encode per text, kept as the
ranks that were applied and how often, answers "how many tokens at vocab size v" for every v:

    >>> from explorer.encoding.tokenizer import Tokenizer
    >>> tok = Tokenizer([(97, 97), (256, 97), (257, 98)])  # aa, aaa, aaab
    >>> curve = language_curve("demo", tok, "aaabdaaabac")
    >>> [curve.tokens_at(size) for size in (256, 257, 258, 259, 5000)]
    [11, 9, 7, 5, 5]
    >>> round(curve.bytes_per_token_at(259), 2)
    2.2
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from explorer.analysis.compression.stats import StatsError, byte_length, merge_applications
from explorer.encoding.tokenizer import Tokenizer

REFERENCE_LANGUAGE = "English"
HEATMAP_COLUMNS = 32  # vocab sizes drawn across: readable at 1440 px, even for 200k runs


@dataclass(frozen=True)
class LanguageCurve:
    """One text's length at every vocab size, stored as the merges its encode applied.

    `ranks` are the 0-based merges applied at least once, increasing; `removed[i]` is
    how many tokens merges `ranks[0..i]` removed together (each application removes one).
    A curve of 20,000 merges takes as much room as the text's distinct merges, not 20,000.
    """

    language: str
    bytes: int
    ranks: tuple[int, ...]
    removed: tuple[int, ...]

    def tokens_at(self, vocab_size: int) -> int:
        """Tokens with the first `vocab_size - 256` merges (sizes past the end use all)."""
        if vocab_size < 256:
            raise StatsError(f"vocab sizes start at 256, the single bytes (got {vocab_size})")
        applied = bisect_left(self.ranks, vocab_size - 256)  # merges of rank < k
        return self.bytes - (self.removed[applied - 1] if applied else 0)

    def bytes_per_token_at(self, vocab_size: int) -> float:
        """UTF-8 bytes per token at a vocab size; 0.0 for an empty text."""
        tokens = self.tokens_at(vocab_size)
        return self.bytes / tokens if tokens else 0.0


def language_curve(language: str, tokenizer: Tokenizer, text: str) -> LanguageCurve:
    """A text's curve from one ordinary encode (special-token text counts as plain text)."""
    applied = [(rank, n) for rank, n in enumerate(merge_applications(tokenizer, text)) if n]
    ranks = tuple(rank for rank, _ in applied)
    removed = tuple(itertools.accumulate(n for _, n in applied))
    return LanguageCurve(language, byte_length(text), ranks, removed)


def language_curves(tokenizer: Tokenizer, texts: Mapping[str, str]) -> list[LanguageCurve]:
    """One curve per language, in the mapping's order: one encode each."""
    return [language_curve(language, tokenizer, text) for language, text in texts.items()]


def heatmap_sizes(full: int, columns: int = HEATMAP_COLUMNS) -> list[int]:
    """About `columns` vocab sizes from 256 to `full`, spaced evenly on a log scale.

    Most of the change comes in the first merges, so equal ratios, not equal steps,
    keep the early columns from all falling into one bin. Sizes are rounded to two
    significant figures so the axis reads well; 256 and `full` stay.

    >>> heatmap_sizes(20_000, 8)
    [256, 480, 890, 1700, 3100, 5800, 11000, 20000]
    >>> heatmap_sizes(260, 8)
    [256, 257, 258, 259, 260]
    """
    if full < 256:
        raise StatsError(f"a vocab size is at least 256 (got {full})")
    if full - 256 < columns:
        return list(range(256, full + 1))
    ratio = (full / 256) ** (1 / (columns - 1))
    sizes = {256, full}
    for step in range(1, columns - 1):
        sizes.add(_round_size(256 * ratio**step))
    return sorted(size for size in sizes if 256 <= size <= full)


def _round_size(size: float) -> int:
    """Two significant figures: `_round_size(1234.5) == 1200`."""
    step = 10 ** max(len(str(int(size))) - 2, 0)
    return int(round(size / step) * step)


def token_tax(
    curves: Iterable[LanguageCurve], vocab_size: int, reference: str = REFERENCE_LANGUAGE
) -> dict[str, float]:
    """Tokens of each language per token of the reference (the same text, translated).

    >>> from explorer.encoding.tokenizer import Tokenizer
    >>> curves = language_curves(Tokenizer([(97, 97)]), {"English": "aaaa", "Other": "abab"})
    >>> token_tax(curves, 257)
    {'English': 1.0, 'Other': 2.0}
    """
    curves = list(curves)
    base = next((c for c in curves if c.language == reference), None)
    if base is None:
        raise StatsError(f"the token tax is counted against {reference}, which is not among them")
    base_tokens = base.tokens_at(vocab_size)
    if base_tokens == 0:
        raise StatsError(f"the {reference} text is empty, so there is nothing to compare with")
    return {c.language: c.tokens_at(vocab_size) / base_tokens for c in curves}


def cost_grid(
    curves: Sequence[LanguageCurve], sizes: Iterable[int]
) -> list[tuple[str, int, float, int]]:
    """(language, vocab size, bytes per token, tokens) for every language at every size."""
    sizes = list(sizes)
    return [
        (c.language, size, c.bytes_per_token_at(size), c.tokens_at(size))
        for c in curves
        for size in sizes
    ]
