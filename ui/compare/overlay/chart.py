"""The overlay chart: one line per run, a measure against vocab size (log scale, so a run of
2,000 and GPT-4o's 200,019 both read), a hover readout and a rule at the viewed size.

The frame is long: one row per run and size, with columns RUN, SIZE and VALUE.

    >>> log_sizes(256, 100_000, 5)
    [256, 1140, 5060, 22500, 100000]
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from ui.compare.charts import hover_points, view_marks
from ui.compare.overlay.measures import Measure

RUN, SIZE, VALUE = "Run", "Vocab size", "Value"
# Tableau 10: apart for most colour vision, and eight runs at most (picks.MAX_CHOSEN)
PALETTE = ("#4C78A8", "#F58518", "#54A24B", "#E45756", "#72B7B2", "#B279A2", "#EECA3B", "#9D755D")
DASHES = ((1, 0), (6, 3), (2, 2), (8, 3, 2, 3))  # lines differ without colour too
TITLE = "Every run on one text"


def log_sizes(low: int, high: int, count: int) -> list[int]:
    """About `count` vocab sizes from `low` to `high`, evenly spaced on a log scale and
    rounded to three significant figures (the ends kept as they are)."""
    if high <= low or count < 2:
        return sorted({low, high})
    ratio = (high / low) ** (1 / (count - 1))
    inner = [_three_figures(low * ratio**i) for i in range(1, count - 1)]
    return sorted({low, *inner, high})


def _three_figures(value: float) -> int:
    digits = len(str(int(value))) - 3
    return int(round(value, -digits)) if digits > 0 else round(value)


def overlay_chart(
    frame: pd.DataFrame, measure: Measure, view_size: int, subtitle: list[str]
) -> alt.LayerChart:
    """Lines of `measure` per run over a log vocab-size axis; hovering shows every run's
    value at the size under the pointer. `subtitle`: its lines."""
    runs = list(dict.fromkeys(frame[RUN]))
    # one legend for colour and dash (Vega-Lite merges them); names that would not fit
    # in one row on a phone go one to a row
    legend = alt.Legend(
        orient="top",
        columns=1 if sum(map(len, runs)) > 40 else 0,
        labelLimit=420,
        symbolType="stroke",
        symbolStrokeWidth=3,
    )
    x = alt.X(
        f"{SIZE}:Q",
        title="Vocab size (log scale)",
        scale=alt.Scale(type="log", nice=False),
        axis=alt.Axis(format="~s", values=_ticks(frame)),
    )
    y = alt.Y(f"{VALUE}:Q", title=measure.label, scale=alt.Scale(zero=False))
    color = alt.Color(
        f"{RUN}:N",
        title=None,
        scale=alt.Scale(domain=runs, range=[PALETTE[i % len(PALETTE)] for i in range(len(runs))]),
        legend=legend,
    )
    dash = alt.StrokeDash(
        f"{RUN}:N",
        title=None,
        scale=alt.Scale(
            domain=runs, range=[list(DASHES[i % len(DASHES)]) for i in range(len(runs))]
        ),
        legend=legend,
    )
    tooltip = [
        alt.Tooltip(f"{RUN}:N"),
        alt.Tooltip(f"{SIZE}:Q", format=",d"),
        alt.Tooltip(f"{VALUE}:Q", title=measure.label, format=measure.number_format),
    ]
    base = alt.Chart(frame)
    lines = base.mark_line(strokeWidth=2).encode(x, y, color, dash)
    points = hover_points(base, x, y, color, tooltip, size_field=SIZE)
    high = frame[SIZE].max() if not frame.empty else view_size
    at_right = view_size > (256 * high) ** 0.5  # past the middle of a log axis
    chart: alt.LayerChart = (  # altair types configure_*() as returning Any
        alt.layer(lines, points, *view_marks(view_size, x, at_right=at_right))
        .properties(title=alt.TitleParams(TITLE, subtitle=subtitle, anchor="start"), height=400)
        .configure_axis(labelFontSize=12, titleFontSize=13)
    )
    return chart


def _ticks(frame: pd.DataFrame) -> list[int]:
    """Round sizes for the log axis: 256, 500, 1k, 2k, 5k, ... up to the largest size."""
    high = int(frame[SIZE].max()) if not frame.empty else 256
    ticks = [256]
    for power in range(3, 7):
        ticks += [m * 10**power // 10 for m in (5, 10, 20) if 256 < m * 10**power // 10 <= high]
    return sorted(set(ticks))
