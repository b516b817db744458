"""Charts many sessions draw alike are converted once (ui/views/shared_charts.py), and
what a session draws is what st.altair_chart would have sent (Streamlit's side of the
conversion is canaried in tests/app/server/test_streamlit_internals.py)."""

from __future__ import annotations

import json
import threading
from typing import Any

import altair as alt
import pandas as pd
import pyarrow as pa
from streamlit.testing.v1 import AppTest

from tests.app_support import open_app
from ui.views.shared_charts import vega_lite_once


def line(values: list[int]) -> alt.Chart:
    frame = pd.DataFrame({"x": range(len(values)), "y": values})
    chart: alt.Chart = (
        alt.Chart(frame).mark_line().encode(x="x:Q", y="y:Q").configure_axis(labelFontSize=12)
    )
    return chart


def test_sessions_asking_at_once_share_one_conversion() -> None:
    built: list[int] = []

    def build() -> alt.Chart:
        built.append(1)
        return line(list(range(7_000)))  # past altair's own 5,000-row limit

    specs: list[dict[str, Any]] = []
    threads = [
        threading.Thread(target=lambda: specs.append(vega_lite_once(("test", "once"), build)))
        for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(built) == 1 and len(specs) == 8 and all(spec is specs[0] for spec in specs)
    (data,) = specs[0]["datasets"].values()
    assert pa.ipc.open_stream(data).read_all().num_rows == 7_000  # in Arrow, none cut
    assert specs[0]["config"]["axis"] == {"labelFontSize": 12}  # the chart's own config kept
    assert "view" not in specs[0]["config"]  # and no altair default theme


def drawn(chart: alt.Chart | dict[str, Any]) -> Any:
    """What Streamlit sends for one chart (its VegaLiteChart message): an altair chart, or
    a Vega-Lite spec."""

    def script(chart):  # type: ignore[no-untyped-def]  # AppTest runs its source alone
        import streamlit as st

        if isinstance(chart, dict):
            st.vega_lite_chart({**chart}, width="stretch")
        else:
            st.altair_chart(chart, width="stretch")

    return AppTest.from_function(script, args=(chart,)).run().get("vega_lite_chart")[0].proto


def test_a_kept_spec_is_drawn_as_st_altair_chart_draws_its_chart() -> None:
    chart = line([3, 1, 4, 1, 5])
    kept, direct = drawn(vega_lite_once(("test", "drawn"), lambda: chart)), drawn(chart)
    assert json.loads(kept.spec) == json.loads(direct.spec)
    assert kept.datasets == direct.datasets


def test_another_key_is_another_chart() -> None:
    one = vega_lite_once(("test", 1), lambda: line([1, 2, 3]))
    two = vega_lite_once(("test", 2), lambda: line([3, 2, 1]))
    assert one["datasets"] != two["datasets"]


def test_the_pages_draw_the_shared_specs_unchanged() -> None:
    """Two sessions draw Vocabulary's length charts from one spec; Streamlit's moving the
    data into its message takes nothing from the kept spec."""
    first, second = (open_app("vocabulary", {"sample": "aaabdaaabac"}) for _ in range(2))
    charts = [[element.proto for element in app.get("vega_lite_chart")] for app in (first, second)]
    assert len(charts[0]) == 2 and [c.spec for c in charts[0]] == [c.spec for c in charts[1]]
    assert all(chart.datasets and chart.datasets[0].data.data for chart in charts[1])
