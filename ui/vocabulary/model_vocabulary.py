"""Vocabulary for a real model's run: its tokens by kind, searched and paged on the server,
a token's lineage (every pair that makes it, and theirs), and the check-up.

A model of 200k-262k ids is never sent whole to the browser: `explorer.models.vocab_index`
filters and sorts on the server and the table gets one page (PAGE_ROWS rows). The index is
built once per model and shared by every session (a bounded LRU). Ids, merge ranks and
kinds are named apart: an **id** is the model's own, a **rank** a merge's place in its file.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer.models.model import LoadedModel, ModelMerge
from explorer.models.model_checkup import KINDS as CHECK_KINDS
from explorer.models.model_checkup import NOT_APPLICABLE, ModelCheckUp, model_check_up, row_note
from explorer.models.token_facts import KIND_WORDS, shown_token, token_card, token_kind
from explorer.models.vocab_index import ANY_KIND, KINDS, PAGE_ROWS, SORTS, VocabIndex
from ui.server.heavy_work import in_a_child
from ui.server.lru import SharedLru
from ui.session import state as keys
from ui.session.runs import ModelRun
from ui.views import cells
from ui.views.formatting import markdown_text, plural

_indexes = SharedLru(4)  # run key -> VocabIndex (Gemma 3's: ~40 MB)
_checkups = SharedLru(4)  # run key -> ModelCheckUp
LINEAGE_DEPTH = 8  # levels of a lineage drawn (each part's lowest-rank merge)
LINEAGE_NODES = 40
CHECKUP_ROWS = 500  # rows of one kind sent to the browser
KIND_HELP = {
    "special": "Added or special tokens (chat markers, padding): the model's code inserts "
    "them, text seldom does.",
    "base": "The symbols encoding starts from: the 256 bytes of a byte-level model, or the "
    "single characters of a SentencePiece-style one.",
    "byte fallback": "`<0xE3>`-style tokens: one byte each, for characters a SentencePiece-style "
    "vocabulary lacks.",
    "merged": "Tokens one or more merges make (a rank file: every split into two tokens).",
    "no merge": "Tokens no merge makes and that are no base symbol: the model takes a "
    "pre-token that is one of them whole.",
}


def vocab_index(run: ModelRun) -> VocabIndex:
    """The model's index, built once per server process (a second or two for 262k ids)."""
    return _indexes.get_or_make(run.key, lambda: VocabIndex.of(run.model), len)


def show_model_vocabulary(run: ModelRun) -> None:
    """The Vocabulary page for a real model's run."""
    model = run.model
    base = "bytes" if model.base == "bytes" else "characters, with byte fallback"
    st.caption(
        f"Every token of **{markdown_text(run.spec.name)}**: {model.vocab_size:,} ids, "
        f"{len(model.merges):,} merges, base symbols {base}. A token's **id** is the model's "
        "own; a merge's **rank** is its place in the file's merge order, from 0: the two "
        "numbers do not follow each other."
    )
    with st.spinner("Indexing the vocabulary…"):
        index = vocab_index(run)
    counts = index.counts()
    row = st.container(horizontal=True, horizontal_alignment="distribute")
    for kind in KINDS:
        row.metric(
            markdown_text(KIND_WORDS[kind].capitalize()),
            f"{counts[kind]:,}",
            help=KIND_HELP[kind],
            width="content",
        )
    chosen = token_table(index)
    st.divider()
    lineage(model, chosen)
    st.divider()
    checkup(run)


def token_table(index: VocabIndex) -> int | None:
    """Search, kind and sort, then one page of the matching tokens; returns the first row's id."""
    state = st.session_state
    controls = st.container(horizontal=True, vertical_alignment="bottom")
    query = controls.text_input(
        "Search tokens",
        key=keys.VOCAB_MODEL_QUERY,
        placeholder="a piece of a token, or an id",
        help="Matches the token as the table draws it (▁ for a SentencePiece space).",
    )
    kind = controls.selectbox(
        "Kind",
        [ANY_KIND, *KINDS],
        key=keys.VOCAB_MODEL_KIND,
        format_func=lambda k: "any kind" if k == ANY_KIND else KIND_WORDS[k],
    )
    sort = controls.selectbox("Sort by", SORTS, key=keys.VOCAB_MODEL_SORT)
    pages = index.query(query, kind=kind, sort=sort, page=1).pages
    page_number = 1
    if pages > 1:
        held = state.get(keys.VOCAB_MODEL_PAGE)
        if not isinstance(held, int) or held > pages:
            state[keys.VOCAB_MODEL_PAGE] = 1  # a new search starts on its first page
        page_number = controls.number_input(
            f"Page (of {pages:,})",
            min_value=1,
            max_value=pages,
            step=1,
            key=keys.VOCAB_MODEL_PAGE,
            width=150,
        )
    page = index.query(query, kind=kind, sort=sort, page=int(page_number))
    if not page.total:
        st.info("No token matches: try a shorter piece, or another kind.")
        return None
    first = (page.page - 1) * PAGE_ROWS
    st.caption(
        f"{plural(page.total, 'token')} match; rows {first + 1:,}–{first + len(page.rows):,} "
        "shown (the table is searched and sorted on the server, a page at a time)."
    )
    frame = pd.DataFrame(
        {
            "Id": [r.id for r in page.rows],
            "Token": [r.shown for r in page.rows],
            "Kind": [KIND_WORDS[r.kind] for r in page.rows],
            "Bytes": [r.length for r in page.rows],
            "Merges that make it": [r.makers for r in page.rows],
            "Lowest merge rank": [r.first_rank if r.first_rank >= 0 else None for r in page.rows],
        }
    )
    st.dataframe(
        cells.cut_columns(frame, ["Token"]),
        hide_index=True,
        width="stretch",
        column_config={
            "Id": st.column_config.NumberColumn("Id", format="%d", help="The model's own id"),
            "Lowest merge rank": st.column_config.NumberColumn(
                "Lowest merge rank",
                format="%d",
                help="The rank of the first merge (in the file's order) that makes the token",
            ),
        },
    )
    return page.rows[0].id


def lineage(model: LoadedModel, first_id: int | None) -> None:
    """A token by id: its card, every pair that makes it, and its parts' own lineage."""
    st.header("A token's lineage")
    state = st.session_state
    largest = max(model.tokens) if model.tokens else 0
    held = state.get(keys.VOCAB_MODEL_TOKEN)
    if first_id is not None and (not isinstance(held, int) or held > largest):
        state[keys.VOCAB_MODEL_TOKEN] = first_id
    token_id = st.number_input(
        "Token id",
        min_value=0,
        max_value=largest,
        step=1,
        key=keys.VOCAB_MODEL_TOKEN,
        help="Any id of the model: the first row of the table until you choose one.",
    )
    token_id = int(token_id)
    if token_id not in model.tokens:
        st.info(f"The model has no token with id {token_id:,}.")
        return
    st.markdown(markdown_text(token_card(model, token_id)))
    makers = model.makers(token_id)
    if makers:
        st.markdown(f"**Every pair that makes it** · {plural(len(makers), 'merge')}")
        st.dataframe(_makers_frame(model, makers[:CHECKUP_ROWS]), hide_index=True, width="stretch")
        st.markdown("**Down to the base symbols** (each part by its lowest-rank merge)")
        st.code("\n".join(tree_lines(model, token_id)), language=None)


def _makers_frame(model: LoadedModel, makers: list[ModelMerge]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "Merge rank": [m.rank for m in makers],
            "Left id": [m.left for m in makers],
            "Left": [shown_token(model, m.left) for m in makers],
            "Right id": [m.right for m in makers],
            "Right": [shown_token(model, m.right) for m in makers],
        }
    )


def tree_lines(model: LoadedModel, token_id: int) -> list[str]:
    """The token, then each part indented under it, by its lowest-rank merge, to the base
    symbols (LINEAGE_DEPTH levels and LINEAGE_NODES lines at most)."""
    lines: list[str] = []

    def walk(node: int, depth: int) -> None:
        if len(lines) >= LINEAGE_NODES:
            return
        makers = model.makers(node)
        kind = token_kind(model, node)
        how = f"merge rank {makers[0].rank:,}" if makers else KIND_WORDS[kind]
        lines.append(f"{'  ' * depth}id {node:,} {shown_token(model, node)!r} ({how})")
        if makers and depth < LINEAGE_DEPTH:
            walk(makers[0].left, depth + 1)
            walk(makers[0].right, depth + 1)

    walk(token_id, 0)
    return lines


def checkup(run: ModelRun) -> None:
    """The check-up of every id, when asked (an encode per token: tens of seconds for
    128k ids, in a child Python), then kept for the model."""
    st.header("Check-up")
    model = run.model
    if not st.toggle(
        f"Check all {model.vocab_size:,} tokens",
        key=keys.VOCAB_MODEL_CHECKUP,
        help="An encode per token, in a child Python: tens of seconds the first time for a "
        "large model, then kept for it.",
    ):
        return
    try:
        with st.spinner("Checking every token…"):
            report = _checkups.get_or_make(
                run.key, lambda: in_a_child(model_check_up, model), lambda _: 1
            )
    except ValueError as exc:
        st.warning(f"The check-up stopped: {markdown_text(str(exc))}")
        return
    show_report(model, report)


def show_report(model: LoadedModel, report: ModelCheckUp) -> None:
    counts = report.counts()
    row = st.container(horizontal=True, horizontal_alignment="distribute")
    for kind in CHECK_KINDS:
        value = counts[kind]
        row.metric(
            markdown_text(kind.replace("_", " ").capitalize()),
            "n/a" if value is None else f"{value:,}",
            help=markdown_text(NOT_APPLICABLE[kind]) if kind in NOT_APPLICABLE else None,
            width="content",
        )
    if report.not_checked:
        st.caption(
            f"{plural(len(report.not_checked), 'token')} not checked for reach: the model's "
            "normalizer changes their text, so a user types another text for them."
        )
    kind = st.selectbox(
        "Tokens of one kind",
        [k for k in CHECK_KINDS if report.kinds[k] is not None],
        format_func=lambda k: k.replace("_", " "),
        key=f"{keys.VOCAB_MODEL_CHECKUP}_kind",
    )
    ids = report.kinds[kind] or ()
    if not ids:
        st.success(f"No {markdown_text(kind.replace('_', ' '))} tokens.")
        return
    shown = ids[:CHECKUP_ROWS]
    frame = pd.DataFrame(
        {
            "Id": list(shown),
            "Token": [shown_token(model, i) for i in shown],
            "Why": [row_note(model, report, i) for i in shown],
        }
    )
    st.dataframe(cells.cut_columns(frame, ["Token", "Why"]), hide_index=True, width="stretch")
    if len(ids) > CHECKUP_ROWS:
        st.caption(f"The first {CHECKUP_ROWS:,} of {len(ids):,}, by id.")
