"""Vocabulary: the whole vocabulary at a glance: what is unknown and why, four numbers, lengths."""

from __future__ import annotations

from collections.abc import Hashable

import pandas as pd
import streamlit as st

from ui.session import state as keys
from ui.session.runs import Run, origin, trained_vocab_size
from ui.views.formatting import markdown_text
from ui.views.shared_charts import show_chart
from ui.vocabulary.charts import length_by_step, length_histogram
from ui.vocabulary.view import INTERMEDIATE_HELP


def explain_missing(run: Run, size: int, known: bool) -> None:
    """Say which columns are unknown for this run, and why."""
    full = trained_vocab_size(run)
    if run.history is None:
        st.info(
            f"This tokenizer was {markdown_text(origin(run.spec))}, so it has no training history: "
            "counts at merge, uses in the corpus and intermediate-only flags are unknown. "
            "Its tokens, parents and lineage are all here."
        )
    elif not known and size < full:
        left, right = st.columns([4, 1], vertical_alignment="center")
        left.info(
            f"Uses in the training corpus are known only for the full tokenizer ({full:,} "
            "tokens), so the Uses and Intermediate-only columns are hidden at this view size."
        )
        right.button(
            f"View all {full:,} tokens", key=keys.VOCAB_VIEW_FULL, on_click=_view_full, args=(full,)
        )


def _view_full(full: int) -> None:
    """Slide the sidebar's view to the full vocabulary, where uses are known."""
    st.session_state[keys.SIDEBAR_VIEW_SIZE] = full


def show_metrics(table: pd.DataFrame, known: bool) -> None:
    """Four numbers about the whole vocabulary."""
    merged = table[table["kind"] == "merge"]
    specials = int((table["kind"] == "special").sum())
    cols = st.columns(4)
    cols[0].metric(
        "Tokens",
        f"{len(table) - specials:,}",
        f"+ {specials:,} special" if specials else None,
        delta_color="off",
        delta_arrow="off",
        help="256 bytes, one token per merge, any tokens outside the merges (an imported "
        "file lists them, no merge makes them), then any special tokens",
    )
    cols[1].metric("Merged tokens", f"{len(merged):,}", help="Tokens made by merging two others")
    mean = merged["length"].mean() if len(merged) else float("nan")
    cols[2].metric(
        "Mean merged length",
        "–" if pd.isna(mean) else f"{mean:.1f} bytes",
        help="The average length in bytes of the merged tokens",
    )
    intermediate = int(table["intermediate"].fillna(False).sum()) if known else None
    cols[3].metric(
        "Intermediate-only",
        "unknown" if intermediate is None else f"{intermediate:,}",
        help=INTERMEDIATE_HELP,
    )


def show_lengths(table: pd.DataFrame, table_key: Hashable) -> None:
    """Token lengths: a histogram, and length against creation step.

    `table_key` names the table (its run and vocab size): the charts are drawn once for
    every session that shows it."""
    st.header("Token lengths")
    if not (table["kind"] == "merge").any():
        st.info("No merges at this vocab size: every token is a single byte.")
        return
    left, right = st.columns(2, gap="large")
    show_chart(("lengths", table_key), lambda: length_histogram(table), left)
    show_chart(("length by step", table_key), lambda: length_by_step(table), right)
