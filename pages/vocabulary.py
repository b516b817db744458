"""Vocabulary: every token of the current tokenizer, how it was built and how it is used."""

from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from explorer import Tokenizer
from explorer.analysis.lineage import text_lineage_dot
from ui.session import links
from ui.session import state as keys
from ui.session.run_spec import OPENAI, RunKind
from ui.session.runs import (
    Run,
    add_run,
    bundled_spec,
    current_run,
    origin,
    trained_vocab_size,
    view_tokenizer,
    view_vocab_size,
)
from ui.shell import run_page
from ui.vocabulary.charts import length_by_step, length_histogram
from ui.vocabulary.view import (
    COLUMNS,
    EAGER_DESCENDANTS,
    FILTERS,
    INTERMEDIATE_HELP,
    MAX_BUILD_TOKENS,
    MAX_CHOICES,
    MAX_TABLE_ROWS,
    SORTS,
    chips_html,
    code,
    default_token,
    descendant_counts_cached,
    descendant_ids,
    encode_typed,
    lineage_graph,
    narration,
    query_id,
    render,
    repr_quoted,
    select_rows,
    shown_columns,
    typed_text,
    usage_known,
    usage_sentence,
    vocab_table,
    with_descendants,
)


def browse_published(run: Run) -> None:
    """Buttons that make GPT-2's, GPT-4's or GPT-4o's vocabulary the current tokenizer."""
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    row.caption("Browse a published vocabulary:", width="content")
    for name, title in OPENAI.items():
        current = run.spec.kind is RunKind.BUNDLED and run.spec.text_key == name
        if row.button(f"{title}'s", key=f"vocab_browse_{name}", disabled=current, help=name):
            try:
                with st.spinner(f"Loading {title}'s vocabulary ({name})…"):
                    spec = bundled_spec(name)
            except ValueError as exc:  # BundledError: a file missing or altered
                st.error(f"{title}'s vocabulary could not be loaded: {exc}")
                return
            add_run(spec, ())
            st.rerun()


def main() -> None:
    st.title("Vocabulary")
    try:
        run = current_run()
        tokenizer = view_tokenizer(run)
        size = view_vocab_size(run)
        table = vocab_table(tokenizer, run.history, run.key, size)
    except ValueError as exc:
        st.error(
            f"This vocabulary could not be built: {exc}. Choose another tokenizer in the "
            "sidebar, or train one on the Train page."
        )
        return
    st.caption(
        f"Every token of **{run.spec.name}** at vocab size {size:,}: what it is, which two "
        "tokens it was merged from, and how much it is used."
    )
    browse_published(run)
    known = usage_known(run.history, size)
    explain_missing(run, size, known)
    show_metrics(table, known)
    table = descendants_column(tokenizer, run, size, table)
    rows, query = search_controls(table, known)
    show_table(rows, len(table), run, known)
    typed = show_typed_text(tokenizer, run, size, query, table)
    st.divider()
    show_token(tokenizer, run, size, table, rows, query, typed)
    st.divider()
    show_lengths(table)


def explain_missing(run: Run, size: int, known: bool) -> None:
    """Say which columns are unknown for this run, and why."""
    full = trained_vocab_size(run)
    if run.history is None:
        st.info(
            f"This tokenizer was {origin(run.spec)}, so it has no training history: "
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
        help="256 bytes, one token per merge, then any special tokens",
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
        shown[columns],
        column_config=COLUMNS,
        hide_index=True,
        height=360 if len(shown) > 10 else "auto",
        key=keys.VOCAB_TABLE,
        on_select=partial(_table_selected, tuple(int(i) for i in shown["id"])),
        # subtle: with the index hidden, a row is selected only by its checkbox; a cell
        # selection makes a click anywhere in the row choose its token
        selection_mode=["single-row", "single-cell"],
    )
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


def show_typed_text(
    tokenizer: Tokenizer, run: Run, size: int, query: str, table: pd.DataFrame
) -> list[int]:
    """How the tokenizer writes a searched text that is no token: a graph of its build.

    Returns the text's token ids; [] for an empty search, an id, or a token's exact text.
    """
    exact = (table["plain"] == query).any() or (table["token"] == query).any()
    if not query.strip() or query_id(query) is not None or exact:
        return []
    space = st.toggle(
        "Read the search as a word in running text (with a space before it)",
        value=True,
        key=keys.VOCAB_WORD_SPACE,
        help="Most words in a sentence follow a space, and the vocabulary holds them with it.",
    )
    text = typed_text(query, leading_space=space)
    try:
        ids = encode_typed(tokenizer, run.key, size, text)
    except ValueError as exc:  # a custom pattern that times out
        st.warning(f"The search could not be encoded: {exc}")
        return []
    if len(ids) < 2:
        return ids
    parts = " + ".join(f"{code(repr_quoted(render(tokenizer.token_bytes(i))))} ({i})" for i in ids)
    st.markdown(
        f"**How it writes {code(repr_quoted(render(text.encode('utf-8', 'surrogatepass'))))}:** "
        f"{len(ids)} tokens, {parts}"
    )
    if len(ids) > MAX_BUILD_TOKENS:
        st.caption(f"Too long to draw: search {MAX_BUILD_TOKENS} tokens or fewer for a graph.")
        return ids
    st.graphviz_chart(text_lineage_dot(tokenizer, text, ids, label=render))
    st.caption("Its tokens side by side under it, each built from its bytes at the bottom.")
    return ids


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
        format_func=lambda i: f"{i} · {repr_quoted(labels[i])}",
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
    links.update(st.query_params, {"token": None if token_id is None else str(token_id)})
    if token_id is None:
        return
    by_id = table.set_index("id", drop=False)
    row = by_id.loc[token_id]
    graph_col, text_col = st.columns([3, 2], gap="large")
    with graph_col:
        st.graphviz_chart(lineage_graph(tokenizer, run.key, size, token_id))
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
            f"{code(repr_quoted(labels[parent]))} · {parent}",
            key=f"vocab_go_{side}",
            on_click=_choose,
            args=(parent,),
            help=f"Show token {parent}",
            width="stretch",
        )


def _choose(token_id: int) -> None:
    st.session_state[keys.VOCAB_TOKEN] = token_id


def show_descendants(tokenizer: Tokenizer, run: Run, size: int, row: pd.Series) -> None:
    """The tokens built from this one, as chips."""
    ids = descendant_ids(tokenizer, run.key, size, int(row["id"]))
    st.markdown(f"**Descendants** · {len(ids):,} token{'s' if len(ids) != 1 else ''} built from it")
    if ids:
        st.html(chips_html(tokenizer, ids))
    else:
        st.caption("No later merge used this token.")


def show_lengths(table: pd.DataFrame) -> None:
    """Token lengths: a histogram, and length against creation step."""
    st.header("Token lengths")
    if not (table["kind"] == "merge").any():
        st.info("No merges at this vocab size: every token is a single byte.")
        return
    left, right = st.columns(2, gap="large")
    left.altair_chart(length_histogram(table), width="stretch")
    right.altair_chart(length_by_step(table), width="stretch")


run_page(main)  # main inside the app's shell, even as a fresh server's first request
