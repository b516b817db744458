"""The measures the overlay can draw, as the page explains them: the engine's definitions
and sources (explorer.analysis.compression.metrics.METRICS), with how the page formats each.

    >>> MEASURES["fertility"].better, MEASURES["bytes_per_token"].best([2.5, 3.1])
    ('lower', 1)
    >>> MEASURES["continued_words"].shown(0.4321)
    '43.2%'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from explorer.analysis.compression.metrics import METRICS, MetricInfo, SizeMetrics
from ui.views.formatting import markdown_text

FORMATS = {  # d3 formats for the chart; shares as percentages
    "bytes_per_token": ".2f",
    "fertility": ".2f",
    "continued_words": ".1%",
    "renyi_efficiency": ".3f",
    "vocab_used": ".1%",
}


@dataclass(frozen=True)
class Measure:
    """One of the engine's metrics, as the page shows it."""

    info: MetricInfo
    number_format: str

    @property
    def key(self) -> str:
        return self.info.key

    @property
    def label(self) -> str:
        return self.info.label

    @property
    def better(self) -> str:
        return "higher" if self.info.higher_is_better else "lower"

    def value(self, metrics: SizeMetrics) -> float:
        return float(getattr(metrics, self.key))

    def best(self, values: Sequence[float | None]) -> int | None:
        """The index of the best value (the first of equals); None when there is none."""
        present = [(i, v) for i, v in enumerate(values) if v is not None]
        if not present:
            return None
        sign = 1 if self.info.higher_is_better else -1
        return max(present, key=lambda pair: (sign * pair[1], -pair[0]))[0]

    def shown(self, value: float) -> str:
        """A value as the table and sentences show it: `3.14`, `0.412` or `12.5%`."""
        if self.number_format == ".1%":
            return f"{value:.1%}"
        return f"{value:.3f}" if self.number_format == ".3f" else f"{value:.2f}"


def measure_title(measure: Measure) -> str:
    """The label, safe in Markdown: "Bytes per token"."""
    return markdown_text(measure.label)


def measure_phrase(measure: Measure) -> str:
    """The label inside a sentence, safe in Markdown: "bytes per token", "Rényi efficiency"."""
    return markdown_text(
        measure.label if measure.key == "renyi_efficiency" else measure.label.lower()
    )


def measure_help(measure: Measure) -> str:
    """The one-line tooltip: the definition, which way is better, and the source (the
    engine's words, escaped: `|V|` stays as it is in Markdown)."""
    info = measure.info
    return markdown_text(
        f"{info.definition} {measure.better.capitalize()} is better. {info.source}"
    )


MEASURES: dict[str, Measure] = {info.key: Measure(info, FORMATS[info.key]) for info in METRICS}
BYTES_PER_TOKEN = MEASURES["bytes_per_token"]
