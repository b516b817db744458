"""The Vocabulary page's data: one table row per token, its columns, search and filters.

Results come from bounded caches keyed on a run's key and the viewed vocab size; the
helpers that filter and sort them are pure, so a rerun only re-slices a cached table.

    >>> query_id(" 258 "), query_id("the")
    (258, None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pandas as pd
import streamlit as st

from explorer import MergeHistory, Tokenizer, render_token
from explorer.analysis.vocabulary.lineage import (
    VocabEntry,
    descendant_counts,
    vocab_entries,
)
from explorer.base.numbers import whole_number_or_none
from explorer.html.render import VISIBLE_WHITESPACE

MAX_ID = 10**18  # an id typed in the search is read up to this
MAX_CHOICES = 1000  # tokens offered in the chooser; searching narrows the rest
MAX_TABLE_ROWS = 10_000  # rows sent to the browser; sorting and searching see them all
EAGER_DESCENDANTS = 60_000  # up to this many tokens, descendants are counted at once
MAX_BUILD_TOKENS = 16  # tokens of a typed text drawn as one graph
FILTERS: dict[str, Callable[[pd.DataFrame], pd.Series]] = {
    "All tokens": lambda t: pd.Series(True, index=t.index),
    "Merged tokens only": lambda t: t["kind"] == "merge",
    "Intermediate-only": lambda t: t["intermediate"].fillna(False).astype(bool),
    "Bytes": lambda t: t["kind"] == "byte",
    "Outside the merges": lambda t: t["kind"] == "outside",
    "Special tokens": lambda t: t["kind"] == "special",
}
# label -> (column, ascending); ties always fall back to the id, ascending
SORTS: dict[str, tuple[str, bool]] = {
    "Newest first": ("id", False),
    "Id": ("id", True),
    "Length (longest first)": ("length", False),
    "Count at merge (highest first)": ("count", False),
    "Uses in the corpus (most first)": ("uses", False),
    "Descendants (most first)": ("descendants", False),
}
INTERMEDIATE_HELP = (
    "Merged during training but never used in the final encoding of the training corpus: "
    "later merges absorbed every occurrence."
)
COLUMNS = {  # how the table shows each column
    "id": st.column_config.NumberColumn(
        "Id",
        format="%d",
        help="0–255 are bytes, merge k makes 255 + k; tokens outside the merges and specials "
        "come last",
    ),
    "token": st.column_config.TextColumn(
        "Token",
        help="The token's bytes as text: · a space, ↵ a newline, → a tab, <0xE2> a byte "
        "that is not UTF-8 on its own",
    ),
    "length": st.column_config.NumberColumn("Bytes", format="plain", help="Length in bytes"),
    "parents": st.column_config.TextColumn("Parents", help="The two tokens merged to make it"),
    "step": st.column_config.NumberColumn(
        "Step", format="%d", help="The merge that created it: step k is merge k (1 is the first)"
    ),
    "count": st.column_config.NumberColumn(
        "Count at merge",
        format="localized",
        help="How often the pair occurred in the training corpus when it was merged",
    ),
    "uses": st.column_config.NumberColumn(
        "Uses", format="localized", help="How often it appears in the final encoding of the corpus"
    ),
    "descendants": st.column_config.NumberColumn(
        "Descendants", format="localized", help="Tokens built from it, directly or not"
    ),
    "intermediate": st.column_config.CheckboxColumn("Intermediate-only", help=INTERMEDIATE_HELP),
    "kind": st.column_config.TextColumn(
        "Kind", help="byte, merge, special, or outside: listed by the file, made by no merge"
    ),
}


def shown_columns(*, known: bool, counts: bool, descendants: bool = True) -> list[str]:
    """The table's columns, without those whose values are unknown (or not counted yet)."""
    columns = ["id", "token", "length", "parents", "step", "count", "uses", "descendants"]
    columns += ["intermediate", "kind"]
    hidden = set() if known else {"uses", "intermediate"}
    if not counts:
        hidden.add("count")
    if not descendants:
        hidden.add("descendants")
    return [column for column in columns if column not in hidden]


def render(token: bytes) -> str:
    """The display text of a token, whitespace made visible: b" the" -> '·the'."""
    return render_token(token, visible_whitespace=True)


def usage_known(history: MergeHistory | None, vocab_size: int) -> bool:
    """Whether uses in the training corpus are known at this size (only for the full run)."""
    return (
        history is not None and vocab_size >= 256 + len(history.steps) and bool(history.token_usage)
    )


# subtle: a resource, not data: a 200,000-row table would be copied on every rerun. It is
# shared by all sessions, so callers never change it (filters and assign make copies).
@st.cache_resource(max_entries=4, ttl="6h", show_spinner="Building the vocabulary table…")
def vocab_table(
    _tokenizer: Tokenizer, _history: MergeHistory | None, run_key: str, vocab_size: int
) -> pd.DataFrame:
    """Every token of the tokenizer as a row; counts and uses are empty when unknown.

    run_key and vocab_size name the tokenizer (the view of the run at that size). The
    descendants column is added by `with_descendants`, as counting them takes seconds
    for a 200,000-token vocabulary.
    """
    entries = vocab_entries(_tokenizer, _history, descendants=False)
    shown = [render(entry.token) for entry in entries]
    known = usage_known(_history, vocab_size)
    table = pd.DataFrame(
        {
            "id": [entry.id for entry in entries],
            "token": shown,
            "plain": [entry.token.decode("utf-8", errors="replace") for entry in entries],
            "length": [entry.length for entry in entries],
            "parents": [_parents_cell(entry, shown) for entry in entries],
            "left": [entry.left for entry in entries],
            "right": [entry.right for entry in entries],
            # people count merges from 1: merge k (step k) makes id 255 + k
            "step": [None if entry.step is None else entry.step + 1 for entry in entries],
            "count": [entry.count for entry in entries],
            "merged": [entry.merged for entry in entries],
            "uses": [entry.uses for entry in entries] if known else None,
            "intermediate": [entry.intermediate_only for entry in entries] if known else None,
            "kind": [entry.kind for entry in entries],
        }
    )
    for column in ("left", "right", "step", "count", "merged", "uses"):
        table[column] = table[column].astype("Int64")
    table["intermediate"] = table["intermediate"].astype("boolean")
    return table


def _parents_cell(entry: VocabEntry, shown: Sequence[str]) -> str:
    """'a' + 'b' for a merge, a plain word for a token no merge makes, else empty."""
    if entry.left is not None and entry.right is not None:
        return f"'{shown[entry.left]}' + '{shown[entry.right]}'"
    return "none: no merge makes it" if entry.kind == "outside" else ""


@st.cache_resource(max_entries=4, ttl="6h", show_spinner="Counting every token's descendants…")
def descendant_counts_cached(
    _tokenizer: Tokenizer, run_key: str, vocab_size: int
) -> dict[int, int]:
    """How many tokens were built from each token (seconds for 200,000 tokens; once)."""
    return descendant_counts(_tokenizer)


def with_descendants(table: pd.DataFrame, counts: Mapping[int, int]) -> pd.DataFrame:
    """A copy of the table with its descendants column (the cached table stays as it is).

    >>> with_descendants(pd.DataFrame({"id": [97, 256]}), {97: 1, 256: 0})["descendants"].tolist()
    [1, 0]
    """
    return table.assign(descendants=table["id"].map(counts).astype("Int64"))


def typed_text(query: str, *, leading_space: bool) -> str:
    """The text a search stands for: the table's symbols (· ↵ →) read back as whitespace,
    and a space in front when asked (as a word has in running text) and none is there.

    >>> typed_text("indivisible", leading_space=True), typed_text("·the", leading_space=True)
    (' indivisible', ' the')
    """
    for char, symbol in VISIBLE_WHITESPACE.items():
        query = query.replace(symbol, char)
    if leading_space and not query[:1].isspace():
        query = " " + query
    return query


@st.cache_data(max_entries=64, ttl="6h", show_spinner=False)
def encode_typed(_tokenizer: Tokenizer, run_key: str, vocab_size: int, text: str) -> list[int]:
    """How the tokenizer writes a typed text, special tokens read as plain text."""
    return _tokenizer.encode_ordinary(text)


def query_id(query: str) -> int | None:
    """The id a query names when it is a whole number, else None."""
    text = query.strip()
    return whole_number_or_none(text, 0, MAX_ID)  # not "²", nor 5,000 digits


def select_rows(table: pd.DataFrame, query: str, filter_name: str, sort_name: str) -> pd.DataFrame:
    """The rows a user asked for: filtered, matched and sorted, exact matches first.

    A whole number matches that id; any query also matches token text, case-insensitively,
    in its rendered form ('·the') or its plain decoding (' the').
    """
    rows = table[FILTERS[filter_name](table)]
    exact = pd.Series(False, index=rows.index)
    if query.strip():
        wanted = query_id(query)
        text = rows["token"].str.contains(query, case=False, regex=False) | rows[
            "plain"
        ].str.contains(query, case=False, regex=False)
        exact = (rows["token"] == query) | (rows["plain"] == query) | (rows["id"] == wanted)
        rows, exact = rows[text | exact], exact[text | exact]
    column, ascending = SORTS[sort_name]
    order = rows.assign(_miss=~exact).sort_values(
        ["_miss", column, "id"], ascending=[True, ascending, True], na_position="last"
    )
    return order.drop(columns="_miss")


def default_token(rows: pd.DataFrame, query: str, typed: Sequence[int] = ()) -> int | None:
    """The token to show first: the typed text when it is one token, the top search hit,
    the first token of the typed text when nothing matches, else the longest merged token.

    Ties go to the latest token; rows without a merged token give their longest.
    """
    if len(typed) == 1 or (rows.empty and typed):
        return int(typed[0])
    if rows.empty:
        return None
    if query.strip():
        return int(rows["id"].iloc[0])
    merged = rows[rows["kind"] == "merge"]
    longest = (rows if merged.empty else merged).sort_values(
        ["length", "id"], ascending=[False, False]
    )
    return int(longest["id"].iloc[0])
