"""Animate's pair table: the pairs with the highest counts at the step on screen.

At step k every chunk of the corpus is in its state after k merges; the table is what
the seeds' `get_stats` counts there, so its winner is merge k + 1 (token 256 + k) of the
merge log, with the same count. Beside the passage (under it on a phone); in the
presenter view, above it and folded, so a step still fits on one projector screen.

    >>> rows = table_rows(pair_table_of_text("aaabdaaabac"), _plain_names, 0, True)
    >>> [(row["Rank"], row["Pair"], row["Count"], row["Next"]) for row in rows[:2]]
    [(1, '(97, 97)', 4, 'next → id 256'), (2, '(97, 98)', 2, '')]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from explorer import MergeHistory
from explorer.analysis.pairs.pair_table import PairRow, PairTable, describe_tie, pair_table
from explorer.training.corpus import count_chunks
from ui.animate.pair_table import tables as pair_tables
from ui.animate.pair_table.table_html import pair_table_html
from ui.session import state as keys
from ui.session.runs import Run, origin, texts_of
from ui.views.formatting import RawHtml, markdown_text, plural
from ui.views.present import presenting
from ui.views.token_text import pair_text

DEFAULT_TOP = 10
MAX_TOP = 500
NO_CORPUS = (
    "No pair table: the pair counts at a step are recounted from the training text, and "
    "this tokenizer was {origin}, so the app does not have the text it was trained on."
)
COUNTING_NOTE = (
    "Counts overlap, as minbpe's get_stats counts them: 'aaa' holds ('a', 'a') twice. "
    "First at: the token where the pair first occurs, chunks in text order."
)


# Side by side while the stage keeps room for its two passages (16rem each) and the table
# for its five columns; narrower, the panel wraps under the stage (a phone stacks both).
_BESIDE = (
    '.st-key-animate_step_row [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"])'
    "{flex-wrap:wrap}"
    '.st-key-animate_step_row [data-testid="stColumn"]:has(.st-key-animate_stage)'
    "{flex:3 1 34rem;min-width:min(100%,34rem);width:auto}"
    '.st-key-animate_step_row [data-testid="stColumn"]:has(.st-key-animate_pairs)'
    "{flex:2 1 22rem;min-width:min(100%,22rem);width:auto}"
    ".st-key-animate_step_row .am-panes"
    "{grid-template-columns:repeat(auto-fit,minmax(min(100%,16rem),1fr))}"
)


def beside_style() -> None:
    """step_areas' stylesheet, drawn once by the page, not by every step of its fragment
    (style only: it takes no room)."""
    if not presenting():
        st.html(f"<style>{_BESIDE}</style>")


def step_areas() -> tuple[DeltaGenerator, DeltaGenerator]:
    """Where the stage and the pair panel go: side by side (under it when the screen is
    too narrow for both), or the panel above the stage in the presenter view, whose
    passage needs the whole width."""
    if presenting():
        panel = st.container()
        return st.container(), panel
    stage, panel = st.container(key=keys.ANIMATE_STEP_ROW).columns([3, 2], gap="medium")
    return stage, panel


def pair_table_of_text(text: str) -> PairTable:
    """The table of one text before any merge (for examples and tests)."""
    return pair_table(count_chunks([text], "none"), [], 0)


def _plain_names(pair: tuple[int, int]) -> str:
    return str(pair)


def table_rows(
    table: PairTable, name: Callable[[tuple[int, int]], str], step: int, next_known: bool
) -> list[dict[str, Any]]:
    """The table as rows for `pair_table_html`: ranks from 1, the winner and ties marked."""
    return [
        {
            "Rank": rank,
            "Pair": name(row.pair),
            "Count": row.count,
            "First at token": row.first_position + 1,
            "Next": _mark(row, step, next_known),
        }
        for rank, row in enumerate(table.rows, start=1)
    ]


def _mark(row: PairRow, step: int, next_known: bool) -> str:
    if row.winner:
        return f"next → id {256 + step}" if next_known else "would be next"
    return "tied" if row.tied else ""


def table_heading(table: PairTable, step: int, shown: int) -> tuple[str, str]:
    """What the table shows, in a line's two parts: `Pairs after step 2` (in bold), `all
    5 pairs`."""
    where = f"Pairs after step {step:,}" if step else "Pairs before the first merge"
    if shown >= table.distinct_pairs:
        return where, f"all {plural(table.distinct_pairs, 'pair')}"
    return where, f"the {shown:,} most frequent of {table.distinct_pairs:,} pairs"


def agreement_problem(table: PairTable, history: MergeHistory, step: int) -> str:
    """'' when the recount's winner is the merge log's next merge with its count."""
    if step >= len(history.steps) or table.winner is None:
        return ""
    merge = history.steps[step]
    if (table.winner.pair, table.winner.count) == (merge.pair, merge.count):
        return ""
    return (
        f"The recount does not match the merge log here (it finds {table.winner.pair} "
        f"{table.winner.count:,} times, the log {merge.pair} {merge.count:,} times)."
    )


def stop_note(history: MergeHistory, step: int) -> str:
    """After the run's last merge: the table shows what training would have merged next."""
    if step < len(history.steps):
        return ""
    return (
        f"Training stopped here because {history.stop_reason.describe()}; the winner is "
        "the merge it would have made next."
    )


def current_table(run: Run, history: MergeHistory, step: int, top: int) -> PairTable:
    """The run's table at `step` (its chunk counts and the step's chunks come from caches)."""
    corpus = pair_tables.corpus_cached(run.key, run.spec, texts_of(run.spec), history)
    return pair_tables.table_at(run.key, corpus, history, step, top)


def show_table(run: Run, history: MergeHistory, step: int) -> None:
    """The table with its heading, its top-N box, the tie sentence and notes."""
    if not pair_tables.has_corpus(run.spec):
        st.caption(NO_CORPUS.format(origin=markdown_text(origin(run.spec))))
        return
    top = int(st.session_state.get(keys.ANIMATE_PAIRS_TOP, DEFAULT_TOP))
    table = current_table(run, history, step, top)
    if table.winner is None:
        st.info("No pair of neighbouring tokens is left: every chunk is one token.")
        return
    names = lambda pair: pair_text(run.tokenizer, pair)  # noqa: E731
    rows = table_rows(table, names, step, step < len(history.steps))
    tie = " ".join(filter(None, [describe_tie(table), stop_note(history, step)]))
    heading = table_heading(table, step, len(rows))
    st.html(RawHtml(pair_table_html(rows, heading, [tie, COUNTING_NOTE])))
    problem = agreement_problem(table, history, step)
    if problem:
        st.warning(problem)
    st.number_input(
        "Pairs shown",
        min_value=1,
        max_value=MAX_TOP,
        value=DEFAULT_TOP,
        key=keys.ANIMATE_PAIRS_TOP,
        persist_state="session",
        help="How many pairs the table lists; pairs tied with the winner are always shown.",
    )
