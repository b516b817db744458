"""Vocabulary: a token's lineage panel: the chooser, its graph, its parents and its descendants."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import Tokenizer
from ui.session import state as keys
from ui.session.links import urls
from ui.session.runs import Run
from ui.views.cells import cut_cell
from ui.vocabulary.lineage import (
    chips_html,
    code,
    descendant_ids,
    lineage_graph,
    narration,
    repr_quoted,
    usage_sentence,
)
from ui.vocabulary.view import MAX_CHOICES, default_token


def choose_token(
    table: pd.DataFrame, rows: pd.DataFrame, query: str, run: Run, typed: list[int]
) -> int | None:
    """The token chooser over the matching rows, plus the current choice if it is elsewhere."""
    state = st.session_state
    new_run = keys.follow_run(state, keys.VOCAB_TOKEN_RUN, run.spec.name)
    if new_run or not (table["id"] == state.get(keys.VOCAB_TOKEN)).any():
        state.pop(keys.VOCAB_TOKEN, None)  # another run's token, or gone at this view size
    if keys.VOCAB_TOKEN not in st.session_state and (typed or not rows.empty):
        st.session_state[keys.VOCAB_TOKEN] = default_token(rows, query, typed)
    options = list(dict.fromkeys([*typed, *(int(i) for i in rows["id"].head(MAX_CHOICES))]))
    chosen = st.session_state.get(keys.VOCAB_TOKEN)
    if rows.empty:
        also = " The tokens that write your search are offered instead." if typed else ""
        st.info(f"No token matches: clear the search or choose another filter.{also}")
    if chosen is None:
        return None
    if chosen not in options:
        options.append(chosen)
    labels = table.set_index("id")["token"]
    capped = f" (the first {MAX_CHOICES:,} matches are listed)" if len(rows) > MAX_CHOICES else ""
    return st.selectbox(
        "Token",
        options,
        format_func=lambda i: f"{i} · {repr_quoted(cut_cell(labels[i]))}",
        key=keys.VOCAB_TOKEN,
        help=f"Pick a token, click a row of the table, or search{capped}",
    )


def show_token(
    tokenizer: Tokenizer,
    run: Run,
    size: int,
    table: pd.DataFrame,
    rows: pd.DataFrame,
    query: str,
    typed: list[int],
) -> None:
    """The chosen token: its lineage graph, how it was made, and what was built from it."""
    st.header("A token's lineage")
    token_id = choose_token(table, rows, query, run, typed)
    urls.update(st.query_params, {"token": None if token_id is None else str(token_id)})
    if token_id is None:
        return
    by_id = table.set_index("id", drop=False)
    row = by_id.loc[token_id]
    assert isinstance(row, pd.Series)  # one row, not a frame: a vocabulary's ids are unique
    graph_col, text_col = st.columns([3, 2], gap="large")
    with graph_col:
        st.graphviz_chart(lineage_graph(tokenizer, run.key, size, token_id))
        if row["kind"] == "outside":
            st.caption("No merge makes this token: there is no lineage to draw, only itself.")
        else:
            st.caption("Built bottom to top: its bytes on the bottom row, the token itself on top.")
    with text_col:
        st.markdown(narration(row, by_id["token"]))
        st.markdown(usage_sentence(row))
        if row["kind"] == "merge":
            show_parents(row, by_id["token"])
        show_descendants(tokenizer, run, size, row)


def show_parents(row: pd.Series, labels: pd.Series) -> None:
    """Buttons that move to each of the two parents."""
    st.markdown("**Parents** · go to one")
    cols = st.columns(2)
    for col, side in zip(cols, ("left", "right")):
        parent = int(row[side])
        col.button(
            f"{code(repr_quoted(cut_cell(labels[parent])))} · {parent}",
            key=f"vocab_go_{side}",
            on_click=_choose,
            args=(parent,),
            help=f"Show token {parent}",
            width="stretch",
        )


def _choose(token_id: int) -> None:
    """Make token_id the chosen token (a parent button's callback)."""
    st.session_state[keys.VOCAB_TOKEN] = token_id


def show_descendants(tokenizer: Tokenizer, run: Run, size: int, row: pd.Series) -> None:
    """The tokens built from this one, as chips."""
    ids = descendant_ids(tokenizer, run.key, size, int(row["id"]))
    st.markdown(f"**Descendants** · {len(ids):,} token{'s' if len(ids) != 1 else ''} built from it")
    if ids:
        st.html(chips_html(tokenizer, ids))
    else:
        st.caption("No later merge used this token.")
