"""Animate's two charts: the winning pair's count and the corpus length at every step.

The charts are drawn with altair and turned into Vega-Lite once per server: every run
fills the same two specs with its own named datasets, already in Arrow, the form
Streamlit sends a chart's datasets in. Building and validating them per run took 80 ms
of CPU (a room of thirty opening Animate at once waited 2.4 s for them); filling them
takes about 1 ms. The current step is a tiny named dataset too, so a step change swaps
one row: it neither rebuilds the chart nor converts its lines again (Streamlit goes
through pandas for data that is not yet Arrow, ~2 ms a table).
"""

from __future__ import annotations

import functools
from typing import Any

import altair as alt
import pyarrow as pa

from explorer import MergeHistory, Tokenizer
from ui.views.cells import cut_cell
from ui.views.token_text import pair_text, quoted

MAX_CHART_POINTS = 600  # per chart line; the marked step is always exact


MARKER_DATA = "current_step"
COUNT_DATA, LENGTH_DATA = "pair_counts", "corpus_lengths"  # the lines' datasets


MARKER_SCHEMA = pa.schema(
    [("step", pa.int64()), ("count", pa.int64()), ("tokens", pa.int64()), ("merge", pa.string())]
)


def sample_steps(last: int, max_points: int = MAX_CHART_POINTS) -> list[int]:
    """Steps 0..last evenly thinned to at most max_points, keeping both ends.

    >>> sample_steps(10, 4)
    [0, 3, 7, 10]
    >>> sample_steps(3)
    [0, 1, 2, 3]
    """
    if last + 1 <= max_points:
        return list(range(last + 1))
    return sorted({round(i * last / (max_points - 1)) for i in range(max_points)})


def step_row(history: MergeHistory, step: int, tokenizer: Tokenizer) -> dict[str, Any]:
    """What the charts say about one step (step 0 has no pair and no count)."""
    if step == 0:
        return {"step": 0, "count": None, "tokens": history.initial_length, "merge": "(bytes)"}
    merge = history.steps[step - 1]
    return {
        "step": step,
        "count": merge.count,
        "tokens": merge.length_after,
        "merge": cut_cell(f"{pair_text(tokenizer, merge.pair)} → {quoted(merge.token)}", 120),
    }


def step_rows(history: MergeHistory, tokenizer: Tokenizer) -> list[dict[str, Any]]:
    """One row per charted step (thinned for long histories)."""
    return [step_row(history, s, tokenizer) for s in sample_steps(len(history.steps))]


def run_charts(
    history: MergeHistory, tokenizer: Tokenizer
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The run's two charts as Vega-Lite: the shared specs with the run's lines.

    >>> from explorer import train
    >>> result = train("aaabdaaabac", 259, pattern="none")
    >>> counts, lengths = run_charts(result.history, result.tokenizer)
    >>> pa.ipc.open_stream(lengths["datasets"][LENGTH_DATA]).read_all()["tokens"].to_pylist()
    [11, 9, 7, 5]
    """
    rows = step_rows(history, tokenizer)
    counted = [row for row in rows if row["count"] is not None]
    count_spec, length_spec = _chart_specs()
    steps = (0, len(history.steps))
    counts = [merge.count for merge in history.steps]
    lengths = [history.initial_length, *(merge.length_after for merge in history.steps)]
    if counts:
        count_spec = fixed_scales(count_spec, steps, (min(counts), max(counts)))
    length_spec = fixed_scales(length_spec, steps, (min(lengths), max(lengths)))
    return (
        with_datasets(count_spec, {COUNT_DATA: arrow_bytes(counted, MARKER_SCHEMA)}),
        with_datasets(length_spec, {LENGTH_DATA: arrow_bytes(rows, MARKER_SCHEMA)}),
    )


def fixed_scales(
    spec: dict[str, Any], x_domain: tuple[int, int], y_domain: tuple[int, int]
) -> dict[str, Any]:
    """A copy of a chart spec (the line first, then the marker) whose x and y scales span
    these domains, rounded outward as the data's own would be (nice), whatever the marker.

    # subtle: with the scales fed by the data, every layer's data fed them, the marker's
    # too: a new marker re-ran the scales, so Vega re-encoded the whole line (600 points,
    # each with its tooltip, through Streamlit's expression interpreter) and redrew the
    # axes at every step, ~13 ms of the browser's time for the two charts against ~0.2 ms
    # now. The run's whole extent is the domain, so every marker falls inside it and the
    # axes stay put while stepping; the drawn chart is the same (its SVG byte for byte).

    >>> spec = {"layer": [{"encoding": {"x": {"field": "step"}, "y": {"scale": {"zero": False}}}}]}
    >>> fixed_scales(spec, (0, 9), (3, 7))["layer"][0]["encoding"]["y"]["scale"]
    {'zero': False, 'domain': [3, 7], 'nice': True}
    >>> "scale" in spec["layer"][0]["encoding"]["x"]  # the shared spec is left alone
    False
    """
    line, *markers = spec["layer"]
    encoding = dict(line["encoding"])
    for channel, domain in (("x", x_domain), ("y", y_domain)):
        scale = {**encoding[channel].get("scale", {}), "domain": list(domain), "nice": True}
        encoding[channel] = {**encoding[channel], "scale": scale}
    return {**spec, "layer": [{**line, "encoding": encoding}, *markers]}


@functools.cache
def _chart_specs() -> tuple[dict[str, Any], dict[str, Any]]:
    """The two charts without data, built and validated once."""
    return chart_spec(count_chart()), chart_spec(length_chart())


def with_datasets(spec: dict[str, Any], datasets: dict[str, bytes]) -> dict[str, Any]:
    """A copy of a spec with these datasets added (the spec itself is left alone)."""
    return {**spec, "datasets": {**spec.get("datasets", {}), **datasets}}


_TOOLTIP = [
    alt.Tooltip("step:Q", title="Step", format=","),
    alt.Tooltip("merge:N", title="Merge"),
    alt.Tooltip("count:Q", title="Pair count", format=","),
    alt.Tooltip("tokens:Q", title="Corpus tokens", format=","),
]


_STEP_AXIS = alt.X(
    "step:Q", title="Step (merges so far)", axis=alt.Axis(format=",d", tickMinStep=1)
)


def _with_marker(line: alt.Chart, field: str) -> alt.LayerChart:
    """The line with a red rule and dot on the step in the MARKER_DATA dataset."""
    marker = alt.Chart(alt.NamedData(name=MARKER_DATA))
    # subtle: Vega gives a mark's SVG group an image role; with no marker (step 0 has no
    # pair count) it is an unnamed image to a screen reader (axe-core: svg-img-alt). The
    # marker repeats the step the narration states, so it is hidden from them.
    rule = marker.mark_rule(color="#D62728", strokeWidth=2, aria=False).encode(
        x="step:Q", tooltip=_TOOLTIP
    )
    dot = marker.mark_point(color="#D62728", filled=True, size=90, aria=False).encode(
        x="step:Q", y=f"{field}:Q", tooltip=_TOOLTIP
    )
    layers = alt.layer(line, rule, dot)
    # alt.layer makes a FacetChart only when every layer has the same row/column/facet
    # encoding; none of these has one
    assert isinstance(layers, alt.LayerChart)
    return layers.properties(height=260)


def count_chart() -> alt.LayerChart:
    """The winning pair's count at each step (COUNT_DATA), log scale, with the current
    step's marker."""
    line = (
        alt.Chart(alt.NamedData(name=COUNT_DATA), title="How often the merged pair occurred")
        .mark_line(color="#4C78A8", interpolate="step-after")
        .encode(
            x=_STEP_AXIS,
            y=alt.Y(
                "count:Q",
                title="Pair count (log scale)",
                scale=alt.Scale(type="log"),
                axis=alt.Axis(format=",d", tickMinStep=1),
            ),
            tooltip=_TOOLTIP,
        )
    )
    return _with_marker(line, "count")


def length_chart() -> alt.LayerChart:
    """The corpus length in tokens after each step (LENGTH_DATA), with the current step's
    marker."""
    line = (
        alt.Chart(alt.NamedData(name=LENGTH_DATA), title="Corpus length after each step")
        .mark_line(color="#4C78A8")
        .encode(
            x=_STEP_AXIS,
            y=alt.Y(
                "tokens:Q",
                title="Tokens in the corpus",
                scale=alt.Scale(zero=False),
                axis=alt.Axis(format=",d", tickMinStep=1),
            ),
            tooltip=_TOOLTIP,
        )
    )
    return _with_marker(line, "tokens")


def arrow_bytes(rows: list[dict[str, Any]], schema: pa.Schema | None = None) -> bytes:
    """Rows as an Arrow IPC stream, which Streamlit passes on without converting.

    >>> rows = [{"step": 3, "count": 7}]
    >>> pa.ipc.open_stream(arrow_bytes(rows)).read_all().to_pylist() == rows
    True
    """
    table = pa.Table.from_pylist(rows, schema=schema)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    stream: bytes = sink.getvalue().to_pybytes()  # pyarrow publishes no types
    return stream


def chart_spec(chart: alt.TopLevelMixin) -> dict[str, Any]:
    """The chart as Vega-Lite, validated once, its datasets in Arrow; Streamlit applies
    its own theme."""
    spec = chart.to_dict()
    spec.pop("config", None)  # altair's default 300 x 300 view
    datasets = spec.get("datasets", {})
    spec["datasets"] = {name: arrow_bytes(rows) for name, rows in datasets.items()}
    return spec


def marked(spec: dict[str, Any], row: dict[str, Any], field: str) -> dict[str, Any]:
    """A copy of a chart spec marking one step (no marker when row has no `field`).

    >>> shown = marked({"datasets": {}}, {"step": 3, "count": 7}, "count")
    >>> pa.ipc.open_stream(shown["datasets"][MARKER_DATA]).read_all().to_pylist()
    [{'step': 3, 'count': 7, 'tokens': None, 'merge': None}]
    """
    shown = tuple(row.items()) if row.get(field) is not None else ()
    return with_datasets(spec, {MARKER_DATA: _marker_bytes(shown)})


@functools.lru_cache(maxsize=1024)
def _marker_bytes(row: tuple[tuple[str, Any], ...]) -> bytes:
    """The marker's one row (or none) in Arrow, kept: in a class each follower draws the
    same step's markers, and pyarrow's stream setup was ~6 % of a follow's server time."""
    return arrow_bytes([dict(row)] if row else [], MARKER_SCHEMA)
