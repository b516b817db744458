"""The merge log as a table: one row per merge, searchable, and as CSV; a word table's words."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import MergeHistory, Tokenizer
from explorer.base.numbers import whole_number_or_none
from explorer.html.render import render_token
from explorer.training.corpus import parse_word_counts

LOG_COLUMNS = ["merge", "id", "left", "right", "token", "count", "merged", "length_after", "ties"]


def show_token(data: bytes, byte_symbols: bool) -> str:
    """A token for a table cell: visible whitespace, or GPT-2's byte symbols (Ġ)."""
    if byte_symbols:
        return render_token(data, byte_symbols=True)
    return render_token(data, visible_whitespace=True)


def merge_log(
    tokenizer: Tokenizer, history: MergeHistory | None, *, byte_symbols: bool = False
) -> pd.DataFrame:
    """One row per merge, in order; without a history, only what the merges say.

    Merges are numbered from 1, as minbpe's log prints them: merge k makes id 255 + k.
    Hidden helper columns: left_id, right_id, text (the decoded token, for search), hex.
    """
    shown: dict[int, str] = {}

    def cell(token_id: int) -> str:
        if token_id not in shown:
            shown[token_id] = show_token(tokenizer.vocab[token_id], byte_symbols)
        return shown[token_id]

    columns: dict[str, list[object]] = {
        name: [] for name in ("merge", "id", "left", "right", "token")
    }
    for number, (left, right) in enumerate(tokenizer.merges, start=1):
        columns["merge"].append(number)
        columns["id"].append(255 + number)
        columns["left"].append(cell(left))
        columns["right"].append(cell(right))
        columns["token"].append(cell(255 + number))
    if history is not None:
        steps = history.steps
        columns["count"] = [s.count for s in steps]
        columns["merged"] = [s.merged for s in steps]
        columns["length_after"] = [s.length_after for s in steps]
        columns["ties"] = [tie_mark([(cell(a), cell(b)) for a, b in s.ties]) for s in steps]
    frame = pd.DataFrame(columns)
    frame["left_id"] = [left for left, _ in tokenizer.merges]
    frame["right_id"] = [right for _, right in tokenizer.merges]
    tokens = [tokenizer.vocab[256 + rank] for rank in range(len(tokenizer.merges))]
    frame["text"] = [t.decode("utf-8", errors="replace") for t in tokens]
    frame["hex"] = [t.hex(" ") for t in tokens]
    return frame


def tie_mark(pairs: list[tuple[str, str]]) -> str:
    """The log's tie cell: `tie_mark([("t", "h")]) == "⚖ t + h"`; "" when nothing tied."""
    return "⚖ " + ", ".join(f"{a} + {b}" for a, b in pairs) if pairs else ""


def filter_log(frame: pd.DataFrame, query: str) -> pd.DataFrame:
    """Rows whose token contains the query (any case), or whose ids equal it if it is a number.

    >>> log = pd.DataFrame({"id": [256, 257], "left_id": [97, 256], "right_id": [97, 98],
    ...                     "token": ["aa", "aab"], "text": ["aa", "aab"]})
    >>> list(filter_log(log, "256")["id"]), list(filter_log(log, "AB")["id"])
    ([256, 257], [257])
    >>> list(filter_log(log, "²")["id"]), list(filter_log(log, "9" * 5000)["id"])
    ([], [])
    """
    if not query:
        return frame
    needle = query.casefold()
    found = frame["text"].str.casefold().str.contains(needle, regex=False)
    found |= frame["token"].str.casefold().str.contains(needle, regex=False)
    number = whole_number_or_none(query.strip(), 0, 10**18)  # not "²", nor 5,000 digits
    if number is not None:
        found |= (frame["id"] == number) | (frame["left_id"] == number)
        found |= frame["right_id"] == number
    return frame[found]


def log_csv(frame: pd.DataFrame) -> str:
    """The merge log as CSV, ids and bytes included, for a spreadsheet or a script.

    `merge` counts from 1 as on screen; a 0-based rank (a minbpe .model's line order, a
    .tiktoken file's rank) is the id, or merge - 1, so it has no column of its own.
    """
    order = ["merge", "id", "left_id", "right_id", "left", "right", "token", "hex"]
    order += [c for c in ("count", "merged", "length_after", "ties") if c in frame]
    return frame[order].to_csv(index=False)


def word_rows(
    tokenizer: Tokenizer, table: str, limit: int, *, byte_symbols: bool = False
) -> pd.DataFrame:
    """The first words of a word-count table with their counts and tokens."""
    words = list(parse_word_counts(table).items())[:limit]
    rows = []
    for word, count in words:
        ids = tokenizer.encode(word, disallowed_special=())
        shown = [show_token(tokenizer.token_bytes(i), byte_symbols) for i in ids]
        rows.append({"word": word, "count": count, "tokens": shown, "ids": str(ids)})
    return pd.DataFrame(rows, columns=["word", "count", "tokens", "ids"])


@st.cache_resource(max_entries=8, show_spinner=False)  # shared read-only: never mutated
def merge_log_cached(
    run_key: str, byte_symbols: bool, _tokenizer: Tokenizer, _history: MergeHistory | None
) -> pd.DataFrame:
    """`merge_log` once per run and display choice."""
    return merge_log(_tokenizer, _history, byte_symbols=byte_symbols)


@st.cache_data(max_entries=16, show_spinner=False)
def words_cached(
    run_key: str, vocab_size: int, table: str, byte_symbols: bool, _tokenizer: Tokenizer, limit: int
) -> pd.DataFrame:
    """`word_rows` once per run, view size, table and display choice."""
    return word_rows(_tokenizer, table, limit, byte_symbols=byte_symbols)
