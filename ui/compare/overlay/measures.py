"""The measures the overlay can draw, as the page explains them: a label, a one-line
definition (the help tooltip), where it comes from, and which way is better.

The keys are the JSON keys of `python -m explorer report` (issue 23).

    >>> MEASURES["bytes_per_token"].better, MEASURES["bytes_per_token"].best([2.5, 3.1])
    ('higher', 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Measure:
    """One measure of a text under a tokenizer at one vocab size."""

    key: str
    label: str
    definition: str
    source: str
    better: str  # "higher", "lower" or "" (it describes, it does not rank)
    number_format: str  # d3 format for the chart (".2f", ".1%")

    def best(self, values: Sequence[float | None]) -> int | None:
        """The index of the best value (the first of equals); None when the measure does
        not rank or there is no value."""
        present = [(i, v) for i, v in enumerate(values) if v is not None]
        if not self.better or not present:
            return None
        sign = 1 if self.better == "higher" else -1
        return max(present, key=lambda pair: (sign * pair[1], -pair[0]))[0]

    def shown(self, value: float) -> str:
        """A value as the table and sentences show it: `3.14` or `12.5 %`."""
        return f"{value:.1%}" if self.number_format.endswith("%") else f"{value:.2f}"

    @property
    def help(self) -> str:
        """The tooltip: the definition, which way is better, and the source."""
        way = f" {self.better.capitalize()} is better." if self.better else ""
        return f"{self.definition}{way} Source: {self.source}."


BYTES_PER_TOKEN = Measure(
    "bytes_per_token",
    "Bytes per token",
    "The text's UTF-8 bytes divided by its tokens (a ratio of totals, not a mean of ratios).",
    "the compression ratio most tokenizer reports give, as nanochat's tok_eval does",
    "higher",
    ".2f",
)
MEASURES: dict[str, Measure] = {BYTES_PER_TOKEN.key: BYTES_PER_TOKEN}
