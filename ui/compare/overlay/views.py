"""Every measure of every run at one vocab size, each column with its one-line definition and
source as the header's tooltip, and where each run is best."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from ui.compare.overlay.measures import MEASURES, measure_help, measure_title
from ui.compare.overlay.results import RunFigures

NUMBER_FORMATS = {".2f": "%.2f", ".3f": "%.3f", ".1%": "percent"}


def measures_frame(figures: Sequence[RunFigures], size: int) -> pd.DataFrame:
    """One row per run that has `size`: its five measures there, and which it is best at."""
    present = [f for f in figures if size in f.by_size]
    rows: list[dict[str, object]] = [{"Run": f.name} for f in present]
    best_in: list[list[str]] = [[] for _ in present]
    for measure in MEASURES.values():
        values = [measure.value(f.by_size[size]) for f in present]
        for row, value in zip(rows, values):
            row[measure.label] = value
        best = measure.best(values) if len(present) > 1 else None
        if best is not None:
            best_in[best].append(measure.label)
    for row, labels in zip(rows, best_in):
        row["Best in"] = ", ".join(labels)
    return pd.DataFrame(rows, columns=["Run", *(m.label for m in MEASURES.values()), "Best in"])


def every_measure_table(figures: Sequence[RunFigures], size: int) -> None:
    """The measures table at `size`, with a header tooltip per measure."""
    frame = measures_frame(figures, size)
    if frame.empty:
        return
    st.markdown(
        f"**Every measure at vocab size {size:,}** (hover a column's name for its definition)"
    )
    config = {
        m.label: st.column_config.NumberColumn(
            measure_title(m), format=NUMBER_FORMATS[m.number_format], help=measure_help(m)
        )
        for m in MEASURES.values()
    }
    config["Best in"] = st.column_config.TextColumn(
        "Best in", help="The measures at which this tokenizer is best among those drawn."
    )
    st.dataframe(frame, hide_index=True, width="stretch", column_config=config)
