"""The measures tokenizer papers compare with, at every vocab size, from one encode.

For a text and a tokenizer with merges, `size_metrics` gives bytes per token,
fertility, continued words, Rényi efficiency and vocabulary used at each requested vocab
size 256 + k (the first k merges), from a single encode: the counts of
`explorer.analysis.compression.metric_counts` are split back one merge at a time, largest id
first, so a 20,000-merge curve costs one encode plus 20,000 small steps.

- Words are whitespace-separated (`str.split()`'s words, `WORD_PATTERN`); a token that
  spans several words counts once for each word it touches, so fertility is >= 1.
- |V| at size v is v itself: the 256 bytes plus the first v - 256 merges (special tokens
  are not counted; special-token text is encoded as plain text).

    >>> from explorer.training.train import train
    >>> tok = train("low lower lowest " * 3, 262, pattern="gpt2").tokenizer
    >>> for m in size_metrics(tok, "low lower lowest", [256, 262]):
    ...     print(m.size, m.tokens, m.words, round(m.fertility, 2), round(m.continued_words, 2))
    256 16 3 4.67 1.0
    262 4 3 1.33 0.33
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from explorer.analysis.compression.metric_counts import WORD_PATTERN, MetricCounts, count_text
from explorer.analysis.compression.stats import StatsError
from explorer.encoding.tokenizer import Tokenizer

__all__ = [
    "METRICS",
    "RENYI_ALPHA",
    "WORD_PATTERN",
    "MetricCounts",
    "MetricInfo",
    "MetricsError",
    "SizeMetrics",
    "count_text",
    "metric_info",
    "metrics_at",
    "metrics_at_full_size",
    "size_metrics",
]

RENYI_ALPHA = 2.5  # Zouhar et al. 2023 found alpha = 2.5 tracks BLEU best


class MetricsError(StatsError):
    """A metric asked for at a size the tokenizer does not have."""


@dataclass(frozen=True)
class SizeMetrics:
    """Every metric of one text at one vocab size; ratios are 0.0 when there is nothing."""

    size: int
    tokens: int
    text_bytes: int
    words: int
    bytes_per_token: float
    fertility: float
    continued_words: float
    renyi_efficiency: float
    vocab_used: float


@dataclass(frozen=True)
class MetricInfo:
    """A metric's name, its one-line definition (help text) and where it comes from."""

    key: str
    label: str
    definition: str
    source: str
    higher_is_better: bool


METRICS: tuple[MetricInfo, ...] = (
    MetricInfo(
        "bytes_per_token",
        "Bytes per token",
        "UTF-8 bytes of the text ÷ its tokens (the ratio of totals, not a mean of ratios).",
        "The usual compression figure (tokka-bench's efficiency, nanochat's tok_eval ratio).",
        True,
    ),
    MetricInfo(
        "fertility",
        "Fertility",
        "Tokens per whitespace-separated word; a token spanning several words counts for each.",
        "Rust et al., How Good is Your Tokenizer?, ACL 2021.",
        False,
    ),
    MetricInfo(
        "continued_words",
        "Continued words",
        "Share of whitespace-separated words split into two or more tokens.",
        "Rust et al., How Good is Your Tokenizer?, ACL 2021.",
        False,
    ),
    MetricInfo(
        "renyi_efficiency",
        "Rényi efficiency",
        f"H_α(p) ÷ log₂|V| with α = {RENYI_ALPHA}, p the tokens' unigram distribution in the "
        "text and |V| the vocab size at that point (256 + merges).",
        "Zouhar et al., Tokenization and the Noiseless Channel, ACL 2023.",
        True,
    ),
    MetricInfo(
        "vocab_used",
        "Vocabulary used",
        "Share of the vocabulary at that size (256 + merges) that occurs in the encoded text.",
        "Vocabulary coverage, as in tokka-bench (Gubler 2025).",
        True,
    ),
)


def metric_info(key: str) -> MetricInfo:
    """The definition of a metric by its key (a SizeMetrics field name).

    >>> metric_info("fertility").source
    'Rust et al., How Good is Your Tokenizer?, ACL 2021.'
    """
    for info in METRICS:
        if info.key == key:
            return info
    raise MetricsError(f"there is no metric {key!r}; the metrics are {[m.key for m in METRICS]}")


def size_metrics(tokenizer: Tokenizer, text: str, sizes: Iterable[int]) -> list[SizeMetrics]:
    """Every metric of `text` at each vocab size in `sizes`, in that order, from one encode."""
    return metrics_at(tokenizer, count_text(tokenizer, text), sizes)


def metrics_at(
    tokenizer: Tokenizer, counts: MetricCounts, sizes: Iterable[int]
) -> list[SizeMetrics]:
    """Every metric at each size, from counts of the tokenizer's full encode (in `sizes` order).

    >>> tok = Tokenizer([(97, 97)])
    >>> [m.vocab_used * m.size for m in metrics_at(tok, count_text(tok, "aaaa b"), [257, 256])]
    [3.0, 3.0]
    """
    sizes = list(sizes)
    full = 256 + len(tokenizer.merges)
    _check_sizes(sizes, full)
    wanted = set(sizes)
    found: dict[int, SizeMetrics] = {}
    sweep = _Sweep(counts)
    for size in range(full, min(sizes, default=full) - 1, -1):
        if size < full:
            sweep.drop(size, tokenizer.merges[size - 256])
        if size in wanted:
            found[size] = sweep.metrics(size, counts)
    return [found[size] for size in sizes]


def metrics_at_full_size(counts: MetricCounts, size: int) -> SizeMetrics:
    """Every metric at one size, the tokenizer's own, from counts with no smaller sizes in
    them (a loaded model's: its merges do not make ids 256 + k, so there is no curve).

    >>> from collections import Counter
    >>> m = metrics_at_full_size(MetricCounts(8, 2, 2, 1, Counter({5: 2, 9: 1})), 100)
    >>> m.tokens, m.bytes_per_token, m.vocab_used
    (3, 2.6666666666666665, 0.02)
    """
    return _Sweep(counts).metrics(size, counts)


def _check_sizes(sizes: list[int], full: int) -> None:
    wrong = [size for size in sizes if not 256 <= size <= full]
    if wrong:
        raise MetricsError(
            f"this tokenizer has vocab sizes 256 to {full:,} (256 bytes and "
            f"{full - 256:,} merges); {', '.join(f'{s:,}' for s in wrong)} is outside"
        )


class _Sweep:
    """The encoded text's tokens at one size, stepping down one merge at a time."""

    def __init__(self, counts: MetricCounts) -> None:
        self.live = dict(counts.final)
        self.tokens = sum(self.live.values())
        self.power_sum = sum(n**RENYI_ALPHA for n in self.live.values())
        self.touches = counts.touches
        self.continued = counts.split_words
        self.inner_joins = counts.inner_joins
        self.whole_until = counts.whole_until

    def drop(self, token: int, parts: tuple[int, int]) -> None:
        """Go to the size without `token`: each of its occurrences becomes its two parts."""
        times = self.live.pop(token, 0)
        self.touches += self.inner_joins.get(token, 0)
        self.continued += self.whole_until.get(token, 0)
        if not times:
            return
        self.tokens += times
        self.power_sum -= times**RENYI_ALPHA
        for part in parts:  # subtle: a pair (a, a) adds to the same count twice
            before = self.live.get(part, 0)
            self.live[part] = before + times
            self.power_sum += (before + times) ** RENYI_ALPHA - before**RENYI_ALPHA

    def metrics(self, size: int, counts: MetricCounts) -> SizeMetrics:
        return SizeMetrics(
            size=size,
            tokens=self.tokens,
            text_bytes=counts.text_bytes,
            words=counts.words,
            bytes_per_token=_ratio(counts.text_bytes, self.tokens),
            fertility=_ratio(self.touches, counts.words),
            continued_words=_ratio(self.continued, counts.words),
            renyi_efficiency=self.renyi_efficiency(size),
            vocab_used=len(self.live) / size,
        )

    def renyi_efficiency(self, size: int) -> float:
        """H_α(p) / log₂ size; 0.0 when one token type (or none) makes the whole text."""
        if len(self.live) < 2:
            return 0.0
        entropy = (math.log2(self.power_sum) - RENYI_ALPHA * math.log2(self.tokens)) / (
            1 - RENYI_ALPHA
        )
        return entropy / math.log2(size)


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else 0.0
