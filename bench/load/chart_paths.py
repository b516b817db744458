"""Shared charts: Streamlit's private altair conversion against the public `chart.to_dict()`.

Not a test. For Compare's compression chart (Shakespeare trained to 2,256, a Python text
beside it) and Animate's two charts, times each path's conversion (once per chart and
key) and each session's draw (`st.vega_lite_chart` of the kept spec, outside a script
run), checks the drawn specs and data are the same (AppTest), and runs the public path
beside another thread's st.altair_chart-style conversion to count specs that lost their
data (altair's theme and data transformer are process globals). The paths:

- private: ui/server/streamlit_internals.altair_to_vega_lite (what shared_charts uses)
- to_dict: `chart.to_dict()`, altair's default theme taken back out; data as JSON rows
- to_dict+arrow: the same, each dataset turned into Arrow bytes once

    .venv/bin/python -m bench.load.chart_paths [--repeat 15] [--race-seconds 10]
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import altair as alt
import pandas as pd
import pyarrow as pa
import streamlit as st
from streamlit.testing.v1 import AppTest

from explorer import train
from explorer.analysis.compression.stats import tokens_at_every_size
from ui.animate import charts as anim
from ui.compare.bend import bend_marks, bends_of
from ui.compare.charts import compression_chart, training_counts_cached
from ui.server.streamlit_internals import altair_to_vega_lite

ROOT = Path(__file__).resolve().parents[2]
Spec = dict[str, Any]


def arrow(rows: list[dict[str, Any]]) -> bytes:
    table = pa.Table.from_pylist(rows)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return bytes(sink.getvalue().to_pybytes())


def public(chart: Any, *, to_arrow: bool) -> Spec:
    """`chart.to_dict()` without what altair's default theme added under the chart's own
    config (Streamlit's conversion turns the theme off); datasets as Arrow if asked."""
    spec: Spec = chart.to_dict()
    own = chart.config.to_dict() if chart.config is not alt.Undefined else {}
    theme = alt.theme.get()
    for key, value in (theme() if theme else {}).get("config", {}).items():
        config = spec.get("config", {})
        if key not in own:
            config.pop(key, None)
        elif isinstance(value, dict):
            for inner in value:
                if inner not in own[key]:
                    config[key].pop(inner, None)
    if spec.get("config") == {}:
        del spec["config"]
    if to_arrow:
        spec["datasets"] = {name: arrow(rows) for name, rows in spec.get("datasets", {}).items()}
    return spec


PATHS: dict[str, Callable[[Any], Spec]] = {
    "private": altair_to_vega_lite,
    "to_dict": lambda chart: public(chart, to_arrow=False),
    "to_dict+arrow": lambda chart: public(chart, to_arrow=True),
}


def median_ms(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return 1000 * statistics.median(times)


def charts() -> dict[str, Callable[[], Any]]:
    text = (ROOT / "sample_texts" / "shakespeare.txt").read_text()
    result = train(text, 2256, pattern="gpt4")
    other = (ROOT / "sample_texts" / "python_source.txt").read_text()[:20_000]
    curves: dict[str, Sequence[int]] = {
        "Training corpus": training_counts_cached(result.history, "bench"),
        "Your text": tuple(tokens_at_every_size(result.tokenizer, other)),
    }
    return {
        "Compare's compression chart": lambda: compression_chart(
            curves, 1000, bend_marks(bends_of(curves), curves)
        ),
        "Animate's pair-count chart": anim.count_chart,
        "Animate's length chart": anim.length_chart,
    }


def drawn_script(specs: list[dict]) -> None:  # type: ignore[type-arg]
    import streamlit as st

    for spec in specs:
        st.vega_lite_chart({**spec}, width="stretch")


def same_drawing(specs: list[Spec]) -> list[bool]:
    """Whether each spec draws what the first does: the same Vega-Lite (dataset names
    aside, altair's and Streamlit's hashes differ) and the same rows."""
    app = AppTest.from_function(drawn_script, args=(specs,)).run()
    protos = [chart.proto for chart in app.get("vega_lite_chart")]

    def normal(proto: Any) -> tuple[str, list[list[dict[str, Any]]]]:
        text = json.dumps(json.loads(proto.spec), sort_keys=True)
        for number, dataset in enumerate(proto.datasets):
            text = text.replace(dataset.name, f"data{number}")
        rows = [pa.ipc.open_stream(d.data.data).read_all().to_pylist() for d in proto.datasets]
        return text, rows

    first = normal(protos[0])
    return [normal(proto) == first for proto in protos]


def race(seconds: float) -> tuple[int, int]:
    """(specs without their own data, specs made) for to_dict() beside a conversion of
    Streamlit's in another thread, as another session's st.altair_chart does."""
    frame = pd.DataFrame({"x": range(200), "y": range(200)})

    def line() -> Any:
        return alt.Chart(frame).mark_line().encode(x="x:Q", y="y:Q")

    stop = time.monotonic() + seconds

    def other_session() -> None:
        while time.monotonic() < stop:
            altair_to_vega_lite(line())

    thread = threading.Thread(target=other_session)
    thread.start()
    wrong = made = 0
    while time.monotonic() < stop:
        datasets = line().to_dict().get("datasets", {})
        made += 1
        wrong += not datasets or not all(isinstance(rows, list) for rows in datasets.values())
    thread.join()
    return wrong, made


def convert_new(convert: Callable[[Any], Spec], build: Callable[[], Any]) -> Spec:
    return convert(build())


def draw_kept(spec: Spec) -> None:
    st.vega_lite_chart({**spec})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--race-seconds", type=float, default=10)
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # st.* outside a script run says so each call
    for name, build in charts().items():
        chart = build()
        specs = {path: convert(chart) for path, convert in PATHS.items()}
        same = same_drawing(list(specs.values()))
        print(f"{name}:")
        for (path, convert), drawn_alike in zip(PATHS.items(), same, strict=True):
            spec = specs[path]
            converted = median_ms(functools.partial(convert_new, convert, build), args.repeat)
            draw = median_ms(functools.partial(draw_kept, spec), args.repeat * 2)
            print(
                f"  {path:14s} convert {converted:7.1f} ms, draw {draw:5.2f} ms, "
                f"drawn as private: {drawn_alike}"
            )
    wrong, made = race(args.race_seconds)
    print(f"to_dict() beside another session's conversion: {wrong} of {made} specs lost their data")


if __name__ == "__main__":
    main()
