"""The Compare page's support: compression-curve charts and the vocab sizes to pick from.

A curve is a text's token count at 0, 1, 2, ... merges; `counts[0]` is its length in
bytes, so bytes per token at vocab size 256 + k is `counts[0] / counts[k]`:

    >>> rows = curve_rows("demo", [11, 9, 7, 5])
    >>> [(r["Vocab size"], r["Tokens"], round(r["Bytes per token"], 2)) for r in rows]
    [(256, 11, 1.0), (257, 9, 1.22), (258, 7, 1.57), (259, 5, 2.2)]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import altair as alt
import pandas as pd
import streamlit as st

from explorer import MergeHistory
from explorer.analysis.compression.stats import compression_curve
from ui.views.theme_css import CHART_GREY  # the theme_css rule lightens it on a dark page

MAX_POINTS = 600  # per curve: enough for a smooth line, small enough for the browser
# Tableau blue, orange and green (a held-out text's curve): apart for most colour vision
COLORS = ("#4C78A8", "#F58518", "#54A24B")
DASHES = ((1, 0), (6, 3), (2, 2))  # solid, dashed, dotted: the lines differ without colour too
# one legend for colour and dash: Vega-Lite merges them into dashed line swatches
LEGEND = alt.Legend(orient="top", labelLimit=400, symbolType="stroke", symbolStrokeWidth=3)
TITLE = "Bytes per token as the vocabulary grows"
SUBTITLE = "Higher is better compression. Hover for values; drag to pan, scroll to zoom."


@st.cache_resource(max_entries=16, ttl="1h", show_spinner=False)
def training_counts_cached(_history: MergeHistory, run_key: str) -> tuple[int, ...]:
    """The training corpus's length in tokens at every vocab size (from the history)."""
    return tuple(point.tokens for point in compression_curve(_history))


def tokens_at(counts: Sequence[int], vocab_size: int) -> int:
    """A curve's token count at a vocab size (sizes past its end use every merge).

    >>> tokens_at([11, 9, 7, 5], 257), tokens_at([11, 9, 7, 5], 9999)
    (9, 5)
    """
    return counts[min(vocab_size - 256, len(counts) - 1)]


def curve_ratio_at(counts: Sequence[int], vocab_size: int) -> float:
    """A curve's bytes per token at a vocab size: `curve_ratio_at([11, 5], 257) == 2.2`."""
    tokens = tokens_at(counts, vocab_size)
    return counts[0] / tokens if tokens else 0.0


def sample_indices(count: int, max_points: int = MAX_POINTS) -> set[int]:
    """At most about `max_points` evenly spaced indices of `count`, first and last included.

    >>> sorted(sample_indices(10, 4))
    [0, 3, 6, 9]
    """
    if count <= max_points:
        return set(range(count))
    last = count - 1
    return {round(i * last / (max_points - 1)) for i in range(max_points)}


def curve_rows(
    name: str, counts: Sequence[int], keep: Collection[int] = (), max_points: int = MAX_POINTS
) -> list[dict[str, object]]:
    """Chart rows of one curve, thinned to `max_points`; vocab sizes in `keep` always stay."""
    if not counts or counts[0] == 0:
        return []
    indices = sample_indices(len(counts), max_points)
    indices |= {size - 256 for size in keep if 0 <= size - 256 < len(counts)}
    return [
        {
            "Text": name,
            "Vocab size": 256 + k,
            "Tokens": counts[k],
            "Bytes per token": counts[0] / counts[k],
        }
        for k in sorted(indices)
    ]


def curve_frame(curves: dict[str, Sequence[int]], view_size: int) -> pd.DataFrame:
    """All curves in one long table (Text, Vocab size, Tokens, Bytes per token)."""
    rows = [row for name, counts in curves.items() for row in curve_rows(name, counts, {view_size})]
    return pd.DataFrame(rows, columns=["Text", "Vocab size", "Tokens", "Bytes per token"])


def compression_chart(
    curves: dict[str, Sequence[int]], view_size: int, extra: Sequence[alt.Chart] = ()
) -> alt.LayerChart:
    """Lines of bytes per token per text, a hover readout and a rule at the viewed size;
    `extra` layers (such as where each curve bends) go on top."""
    frame = curve_frame(curves, view_size)
    names = list(curves)
    x = alt.X(
        "Vocab size:Q",
        title="Vocab size",
        axis=alt.Axis(format=",d"),
        scale=alt.Scale(nice=False, zero=False),
    )
    y = alt.Y("Bytes per token:Q", title="Bytes per token", scale=alt.Scale(zero=False))
    color = alt.Color(
        "Text:N",
        title=None,
        scale=alt.Scale(domain=names, range=list(COLORS[: len(names)])),
        legend=LEGEND,
    )
    dash = alt.StrokeDash(
        "Text:N",
        scale=alt.Scale(domain=names, range=[list(d) for d in DASHES[: len(names)]]),
        title=None,
        legend=LEGEND,
    )
    tooltip = [
        alt.Tooltip("Text:N"),
        alt.Tooltip("Vocab size:Q", format=",d"),
        alt.Tooltip("Bytes per token:Q", format=".2f"),
        alt.Tooltip("Tokens:Q", format=",d"),
    ]
    zoom = alt.selection_interval(bind="scales", encodings=["x"])
    base = alt.Chart(frame)
    lines = base.mark_line(strokeWidth=2).encode(x, y, color, dash).add_params(zoom)
    points = hover_points(base, x, y, color, tooltip)
    chart: alt.LayerChart = (  # altair types configure_*() as returning Any
        alt.layer(
            lines,
            points,
            *view_marks(view_size, x, at_right=_at_right(frame, view_size)),
            *extra,
        )
        .properties(title=alt.TitleParams(TITLE, subtitle=SUBTITLE, anchor="start"), height=380)
        .configure_axis(labelFontSize=12, titleFontSize=13)
    )
    return chart


def hover_points(
    base: alt.Chart,
    x: alt.X,
    y: alt.Y,
    color: alt.Color,
    tooltip: Sequence[alt.Tooltip],
    size_field: str = "Vocab size",
) -> alt.Chart:
    """The hover readout of a line chart: a point on every line at the size nearest the
    pointer (hidden elsewhere), each with its tooltip; gone when the pointer leaves.

    >>> x, y = alt.X("Vocab size:Q"), alt.Y("Tokens:Q")
    >>> chart = hover_points(alt.Chart(pd.DataFrame()), x, y, alt.Color("Text:N"), [])
    >>> chart.mark.type, chart.params[0].select.nearest
    ('circle', True)
    """
    hover = alt.selection_point(
        fields=[size_field], nearest=True, on="pointerover", empty=False, clear="pointerout"
    )
    chart: alt.Chart = (  # altair types mark_*() as returning Any
        base.mark_circle(size=60)
        .encode(
            x,
            y,
            color,
            opacity=alt.condition(hover, alt.value(1.0), alt.value(0.0)),
            tooltip=list(tooltip),
        )
        .add_params(hover)
    )
    return chart


def _at_right(frame: pd.DataFrame, view_size: int) -> bool:
    """Whether the viewed size is in the right half of the chart (its label goes left)."""
    if frame.empty:
        return False
    low, high = float(frame["Vocab size"].min()), float(frame["Vocab size"].max())
    return view_size > (low + high) / 2


def view_marks(view_size: int, x: alt.X, *, at_right: bool = False) -> list[alt.Chart]:
    """A dashed rule and a label at the sidebar's "view at vocab size"."""
    label = f"viewing {view_size:,}"
    marker = alt.Chart(pd.DataFrame({"Vocab size": [view_size], "label": [label]}))
    rule = marker.mark_rule(color=CHART_GREY, strokeDash=[4, 3]).encode(
        x, tooltip=[alt.Tooltip("label:N", title="Sidebar")]
    )
    text = marker.mark_text(
        align="right" if at_right else "left",
        baseline="top",
        dx=-6 if at_right else 6,
        color=CHART_GREY,
    ).encode(x, y=alt.value(4), text="label:N")
    return [rule, text]


NICE_SIZES: tuple[int, ...] = (
    256,
    260,
    300,
    400,
    512,
    750,
    1000,
    1500,
    2000,
    3000,
    4000,
    5000,
    7500,
)
NICE_SIZES += (10_000, 15_000, 20_000, 30_000, 40_000, 50_000)


def size_options(full: int) -> list[int]:
    """Vocab sizes to pick from: round numbers below the run's full size, and the full size.

    >>> size_options(600)
    [256, 260, 300, 400, 512, 600]
    """
    return [size for size in NICE_SIZES if size < full] + [full]


def default_sizes(full: int) -> list[int]:
    """Bytes only, 512, 2,000 and the full size, as far as the run reaches.

    >>> default_sizes(2000), default_sizes(50_000), default_sizes(259)
    ([256, 512, 2000], [256, 512, 2000, 50000], [256, 259])
    """
    return sorted({min(size, full) for size in (256, 512, 2000, full)})


def size_label(size: int, full: int) -> str:
    """How a size reads in the picker: `size_label(256, 2000) == '256 (bytes only)'`."""
    if size == 256:
        return "256 (bytes only)"
    return f"{size:,} (full)" if size == full else f"{size:,}"


# --- bytes per token in 26 languages: the current tokenizer against OpenAI's ---------------

SERIES_COLORS = ("#4C78A8", "#F58518", "#54A24B", "#B279A2")  # yours first, then OpenAI's
