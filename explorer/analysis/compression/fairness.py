"""How evenly a tokenizer treats languages, at every vocab size: premiums and one Gini.

Built on `explorer.analysis.compression.language_cost`'s curves (one encode per language gives every
size). The texts are one declaration in many languages (the bundled UDHR: preamble and
articles 1-5), so each language says the same thing:

- the **premium** of a language is its tokens ÷ English's tokens, over the whole text
  (one ratio of totals, not a sum or mean over articles) — Petrov et al., NeurIPS 2023;
- the **Gini coefficient** of the languages' tokens per byte is 0 when every language
  costs the same per byte and grows towards 1 as the cost gathers in a few (lower is fairer).

    >>> from explorer.analysis.compression.language_cost import language_curves
    >>> from explorer.encoding.tokenizer import Tokenizer
    >>> curves = language_curves(Tokenizer([(97, 97)]), {"English": "aaaa", "Other": "abab"})
    >>> [(f.size, f.premiums, round(f.gini, 3)) for f in fairness_curve(curves, [256, 257])]
    [(256, {'English': 1.0, 'Other': 1.0}, 0.0), (257, {'English': 1.0, 'Other': 2.0}, 0.167)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from explorer.analysis.compression.language_cost import REFERENCE_LANGUAGE, LanguageCurve, token_tax
from explorer.analysis.compression.metrics import MetricInfo

PREMIUM_DEFINITION = (
    "A language's tokens ÷ English's tokens for the same declaration (whole text, not per "
    "article); 1 is parity, 2 means twice as many tokens."
)
PREMIUM_SOURCE = (
    "Petrov et al., Language Model Tokenizers Introduce Unfairness Between Languages, NeurIPS 2023."
)
GINI_DEFINITION = (
    "Gini coefficient of tokens per byte across the languages: 0 when every language "
    "costs the same per byte, towards 1 as the cost falls on a few; lower is fairer."
)
GINI_SOURCE = "Gini's inequality index, over the per-language costs of Petrov et al. 2023."
PREMIUM = MetricInfo(
    "premium", "Premium against English", PREMIUM_DEFINITION, PREMIUM_SOURCE, False
)
GINI = MetricInfo("gini", "Gini of tokens per byte", GINI_DEFINITION, GINI_SOURCE, False)


@dataclass(frozen=True)
class FairnessAt:
    """Every language's premium against the reference, and the Gini, at one vocab size."""

    size: int
    premiums: dict[str, float]
    gini: float


def fairness_curve(
    curves: Sequence[LanguageCurve], sizes: Iterable[int], reference: str = REFERENCE_LANGUAGE
) -> list[FairnessAt]:
    """Premiums and the tokens-per-byte Gini at each size, from the curves (no encoding)."""
    return [
        FairnessAt(size, token_tax(curves, size, reference), tokens_per_byte_gini(curves, size))
        for size in sizes
    ]


def tokens_per_byte_gini(curves: Iterable[LanguageCurve], size: int) -> float:
    """The Gini coefficient of tokens per UTF-8 byte across languages (empty texts left out)."""
    return gini([c.tokens_at(size) / c.bytes for c in curves if c.bytes])


def gini(values: Sequence[float]) -> float:
    """Mean absolute difference over all ordered pairs ÷ twice the mean; 0.0 for no spread.

    >>> gini([1, 1, 1]), gini([0, 0, 1]), gini([1, 3])
    (0.0, 0.6666666666666666, 0.25)
    """
    ordered = sorted(values)
    count, total = len(ordered), sum(ordered)
    if count == 0 or total == 0:
        return 0.0
    # sum over i<j of (x_j - x_i) is sum of x_k * (2k - n + 1) over the sorted values
    spread = sum(value * (2 * k - count + 1) for k, value in enumerate(ordered))
    return spread / (count * total)
