"""Altair charts that many sessions draw alike, turned into Vega-Lite once and shared.

`st.altair_chart` converts its chart on every call: altair checks the whole spec against
the Vega-Lite schema (jsonschema, under a lock Streamlit holds for altair's globals) and
the data is serialised to Arrow. Compare's compression chart took ~40 ms of that per
session, the largest share of the server's time when a room of thirty opened the five
pages at once (py-spy, BENCHMARKS.md "Thirty students open a link at once"). A chart that
depends only on plain values (a run's key, a text, a vocab size) is drawn here instead:
the first session to ask converts it, the sessions asking at the same time wait for that
one conversion (SharedLru.get_or_make), and later ones draw the kept spec.

    >>> import altair as alt, pandas as pd
    >>> build = lambda: alt.Chart(pd.DataFrame({"x": [1, 2]})).mark_line().encode(x="x:Q")
    >>> spec = vega_lite_once(("doctest", 1), build)
    >>> spec is vega_lite_once(("doctest", 1), build), sorted(spec)[:3]
    (True, ['$schema', 'data', 'datasets'])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import altair as alt
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui.server.lru import SharedLru
from ui.server.streamlit_internals import altair_to_vega_lite, converts_altair

# subtle: Streamlit's own conversion (through the door), so the spec is the one
# st.altair_chart sends (no altair default theme, datasets in Arrow, no 5,000-row limit),
# made under Streamlit's lock on altair's global theme and data transformer. The public
# `chart.to_dict()` draws the same spec but reads those globals unlocked: beside another
# session's st.altair_chart it lost its data to that chart's (docs/streamlit-internals.md).
# With a Streamlit that lacks the conversion, the charts are drawn as before.

# a chart per run, text and size on screen in any session; specs hold their data (a
# compression chart of 600 points a curve is ~30 KB), so they are bounded by bytes too
SPECS_KEPT = 128
SPECS_BYTES = 64 * 2**20
_specs = SharedLru(SPECS_KEPT, SPECS_BYTES)
# the charts st.altair_chart takes (Streamlit's own union of altair's top-level charts)
TopChart = (
    alt.Chart
    | alt.LayerChart
    | alt.ConcatChart
    | alt.HConcatChart
    | alt.VConcatChart
    | alt.FacetChart
    | alt.RepeatChart
)


def vega_lite_once(key: Hashable, build: Callable[[], TopChart]) -> dict[str, Any]:
    """The chart `build()` makes, as Streamlit's Vega-Lite spec, converted once per key.

    The key names everything the chart depends on; the spec is shared read only.
    """
    assert converts_altair(), "show_chart draws with st.altair_chart instead"
    return _specs.get_or_make(key, lambda: altair_to_vega_lite(build()), spec_bytes)


def show_chart(
    key: Hashable,
    build: Callable[[], TopChart],
    where: DeltaGenerator | None = None,
    **drawn: Any,
) -> None:
    """Draw the chart `build()` makes (in `where`, a column say), converted once per key;
    `drawn`: what st.altair_chart takes besides (`height=320`, `alt="..."`)."""
    drawn = {"width": "stretch", **drawn}
    if not converts_altair():  # another Streamlit: each session converts its own
        (where or st).altair_chart(build(), **drawn)
        return
    spec = vega_lite_once(key, build)
    # a shallow copy: Streamlit moves the datasets out of the dict it is given
    (where or st).vega_lite_chart({**spec}, **drawn)


def spec_bytes(spec: dict[str, Any]) -> int:
    """A spec's weight for the cache: its datasets' bytes (the rest is a few KB)."""
    datasets = spec.get("datasets", {})
    return sum(len(data) for data in datasets.values() if isinstance(data, bytes)) + 4096
