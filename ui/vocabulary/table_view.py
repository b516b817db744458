"""Vocabulary: the token table: search, filter and sort it, and click a row to choose a token."""

from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from explorer import Tokenizer
from ui.session import state as keys
from ui.session.runs import Run
from ui.views import cells
from ui.vocabulary.view import (
    COLUMNS,
    EAGER_DESCENDANTS,
    FILTERS,
    MAX_TABLE_ROWS,
    SORTS,
    descendant_counts_cached,
    select_rows,
    shown_columns,
    with_descendants,
)

TEXT_COLUMNS = ("token", "parents")  # cut to a cell's length in the table


def descendants_column(
    tokenizer: Tokenizer, run: Run, size: int, table: pd.DataFrame
) -> pd.DataFrame:
    """The table with descendant counts: at once for a small vocabulary, else when asked.

    Counting them for 200,000 tokens takes seconds (once: then cached), so a large
    vocabulary counts them when the toggle is on or the table is sorted by them.
    """
    wanted = len(table) <= EAGER_DESCENDANTS
    if not wanted:
        wanted = st.toggle(
            "Count every token's descendants",
            key=keys.VOCAB_COUNT_DESCENDANTS,
            help=f"A few seconds for {len(table):,} tokens, the first time. A chosen token's "
            "descendants are always shown below.",
        )
        wanted = wanted or st.session_state.get(keys.VOCAB_SORT) == "Descendants (most first)"
    if not wanted:
        return table
    return with_descendants(table, descendant_counts_cached(tokenizer, run.key, size))


def search_controls(table: pd.DataFrame, known: bool) -> tuple[pd.DataFrame, str]:
    """Search, filter and sort widgets; returns the rows they select, and the query."""
    query_col, filter_col, sort_col = st.columns([3, 2, 2])
    query = query_col.text_input(
        "Search by text or id",
        key=keys.VOCAB_QUERY,
        placeholder="the, ·the or 300",
        help="A number finds that id. Text matches tokens as shown (· for a space) or as "
        "plain text, ignoring case; exact matches come first.",
        on_change=_forget_token,
    )
    filter_name = filter_col.selectbox(
        "Show", list(FILTERS), key=keys.VOCAB_FILTER, on_change=_forget_token
    )
    sort_name = sort_col.selectbox("Sort by", list(SORTS), key=keys.VOCAB_SORT)
    if filter_name == "Intermediate-only" and not known:
        st.warning(
            "Which tokens are intermediate-only is known only for a tokenizer trained here, "
            "at its full vocab size: choose one in the sidebar and slide the view to the end."
        )
    return select_rows(table, query, filter_name, sort_name), query


def _forget_token() -> None:
    """A new search or filter shows its first match."""
    st.session_state.pop(keys.VOCAB_TOKEN, None)


def show_table(rows: pd.DataFrame, total: int, run: Run, known: bool) -> None:
    """The matching rows (the first MAX_TABLE_ROWS); clicking a row chooses that token below."""
    shown = rows.head(MAX_TABLE_ROWS)
    listed = f" The first {len(shown):,} are listed." if len(shown) < len(rows) else ""
    st.caption(
        f"**{len(rows):,}** of {total:,} tokens match.{listed} Click a token in the table to "
        "see its lineage below."
    )
    columns = shown_columns(
        known=known, counts=run.history is not None, descendants="descendants" in rows
    )
    st.dataframe(
        cells.cut_columns(shown[columns], TEXT_COLUMNS),  # a token can be the whole text
        column_config=COLUMNS,
        hide_index=True,
        height=360 if len(shown) > 10 else "auto",
        key=keys.VOCAB_TABLE,
        on_select=partial(_table_selected, tuple(int(i) for i in shown["id"])),
        # subtle: with the index hidden, a row is selected only by its checkbox; a cell
        # selection makes a click anywhere in the row choose its token
        selection_mode=["single-row", "single-cell"],
    )
    if cells.any_cut(shown, TEXT_COLUMNS):
        st.caption(f"{cells.CUT_NOTE}; choose one to see it whole below.")
    if known:
        st.caption(
            "**Intermediate-only** tokens were merged during training but never appear in the "
            "final encoding of the training corpus: later merges absorbed every occurrence "
            "(like 'aa' inside 'aaab'). They were stepping stones, yet each takes a place in "
            "the vocabulary."
        )


def _table_selected(ids: tuple[int, ...]) -> None:
    """Choose the token of the row whose checkbox or cell was clicked."""
    selection = st.session_state[keys.VOCAB_TABLE]["selection"]
    rows = list(selection.get("rows", [])) + [row for row, _ in selection.get("cells", [])]
    if rows and rows[0] < len(ids):
        st.session_state[keys.VOCAB_TOKEN] = ids[rows[0]]
