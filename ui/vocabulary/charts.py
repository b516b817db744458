"""The Vocabulary page's charts: how long tokens are, and how length grows with the step."""

from __future__ import annotations

import altair as alt
import pandas as pd

from ui.views.cells import cut_columns

KIND_COLORS = {  # the token-length histogram's bars
    "merged": "#4e79a7",
    "outside the merges": "#f28e2b",
    "special": "#e15759",
}


MAX_POINTS = 4000  # tokens drawn in the length-by-step chart


def length_histogram(table: pd.DataFrame) -> alt.Chart:
    """How many merged (special, outside the merges) tokens have each length in bytes.

    The 256 single bytes are left out: they are in every vocabulary and would dwarf the rest.
    """
    learned = table[table["kind"] != "byte"]
    counts = learned.groupby(["length", "kind"], as_index=False).agg(tokens=("id", "size"))
    names = {"merge": "merged", "outside": "outside the merges", "special": "special"}
    counts["kind"] = counts["kind"].map(names)
    kinds = [kind for kind in KIND_COLORS if kind in set(counts["kind"])] or ["merged"]
    title = alt.TitleParams(
        "How long are the learned tokens?", subtitle="The 256 single bytes are left out"
    )
    chart: alt.Chart = (  # altair types mark_*() as returning Any
        alt.Chart(counts, title=title)
        .mark_bar()
        .encode(
            x=alt.X("length:O", title="Token length (bytes)", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("tokens:Q", title="Tokens", stack=True, axis=alt.Axis(tickMinStep=1)),
            color=alt.Color(
                "kind:N",
                title="Kind",
                # only the kinds there are: no "special" in the legend of a vocab without any
                scale=alt.Scale(domain=kinds, range=[KIND_COLORS[kind] for kind in kinds]),
            ),
            tooltip=[
                alt.Tooltip("length:O", title="Length (bytes)"),
                alt.Tooltip("kind:N", title="Kind"),
                alt.Tooltip("tokens:Q", title="Tokens", format=","),
            ],
        )
    )
    return chart


def length_by_step(table: pd.DataFrame, points: int = MAX_POINTS, bins: int = 60) -> alt.LayerChart:
    """Each merged token's length against its creation step, with the mean length drawn over.

    Above `points` merges only the longest token of each of `points` groups is drawn.
    """
    merged = table[table["kind"] == "merge"]
    dots = merged
    if len(merged) > points:
        group = merged["step"] * points // len(merged)
        dots = merged.loc[merged.groupby(group)["length"].idxmax()]
    width = max(1, -(-len(merged) // bins))
    mean = merged.groupby(merged["step"] // width * width, as_index=False).agg(
        step=("step", "min"), last=("step", "max"), mean=("length", "mean")
    )
    mean["steps"] = [
        f"{a:,}–{b:,}" if a != b else f"{a:,}" for a, b in zip(mean.step, mean["last"])
    ]
    jitter = 0.6 if len(dots) > 100 else 0
    x = alt.X("step:Q", title="Creation step", axis=alt.Axis(format=",d", tickMinStep=1))
    scatter = (
        alt.Chart(cut_columns(dots[["id", "token", "step", "length"]], ["token"]))
        # a little vertical jitter when there are many, so a length is a band, not a line
        .transform_calculate(shown=f"datum.length + (random() - 0.5) * {jitter}")
        .mark_circle(size=24 if len(dots) > 100 else 70, opacity=0.45, color="#4e79a7")
        .encode(
            x=x,
            y=alt.Y("shown:Q", title="Token length (bytes)", axis=alt.Axis(tickMinStep=1)),
            tooltip=[
                alt.Tooltip("token:N", title="Token"),
                alt.Tooltip("id:Q", title="Id", format="d"),
                alt.Tooltip("step:Q", title="Step", format=",d"),
                alt.Tooltip("length:Q", title="Bytes"),
            ],
        )
    )
    line = (
        alt.Chart(mean)
        .mark_line(color="#f28e2b", strokeWidth=2.5, opacity=0.9)
        .encode(
            x=x,
            y="mean:Q",
            tooltip=[
                alt.Tooltip("steps:N", title="Steps"),
                alt.Tooltip("mean:Q", title="Mean length (bytes)", format=".1f"),
            ],
        )
    )
    title = alt.TitleParams(
        "Later merges make longer tokens",
        subtitle=(
            "Each dot is a token"
            if len(dots) == len(merged)
            else "The longest token of each stretch of steps"
        )
        + "; the orange line is the mean length",
    )
    layers = alt.layer(scatter, line, title=title)
    # alt.layer makes a FacetChart only when every layer has the same row/column/facet
    # encoding; none of these has one
    assert isinstance(layers, alt.LayerChart)
    return layers
