"""Vocabulary: the check-up: tokens no text yields, half characters, and the other oddities.

The counts come from explorer.analysis.vocabulary.checkup, once per run and vocab size (a bounded
cache: ~2 s for GPT-4o's 200,000 tokens); each kind has its table, cut for the browser,
and a whole CSV.

    >>> tok = Tokenizer([(32, 32)])
    >>> kind_frame(tok, check_up(tok), "whitespace_only")["Token"].tolist()[-2:]
    ['·', '··']
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import MergeHistory, Tokenizer, render_token
from explorer.analysis.vocabulary.checkup import KINDS, CheckUp, check_up
from explorer.analysis.vocabulary.checkup_rows import KIND_HELP, KIND_TITLES, kind_rows
from ui.server.heavy_work import in_a_child
from ui.session import state as keys
from ui.session.runs import Run
from ui.views import cells
from ui.views.formatting import markdown_text
from ui.vocabulary.view import MAX_TABLE_ROWS

CHECKUP_HELP = (
    "What a practitioner checks before choosing a vocabulary: tokens that no text can "
    "produce (so their embeddings are never trained), pieces of characters, special tokens, "
    "and the whitespace and number tokens that matter for code and arithmetic."
)
# GPT-2's 50,256 tokens take ~0.35 s of CPU (BENCHMARKS.md, "Check-up"): larger
# vocabularies are checked in a child Python, so other visitors' pages do not wait
CHECK_HERE_MAX_TOKENS = 60_000
LENGTH_UNITS = {
    "partial_character": "bytes",
    "whitespace_only": "characters",
    "digits_only": "characters",
}
COLUMNS = {
    "Id": st.column_config.NumberColumn("Id", format="%d"),
    "Token": st.column_config.TextColumn(
        "Token", help="· a space, ↵ a newline, → a tab, <0xE2> a byte that is not UTF-8 alone"
    ),
    "Hex": st.column_config.TextColumn("Hex", help="The token's bytes in hexadecimal"),
    "Length": st.column_config.NumberColumn(
        "Length", format="plain", help="In bytes for a partial character, else in characters"
    ),
    "Why": st.column_config.TextColumn(
        "Why", help="For an unreachable token: what encoding its own text gives instead"
    ),
}


@st.cache_resource(max_entries=4, ttl="6h", show_spinner="Checking every token…")
def checkup_cached(
    _tokenizer: Tokenizer, _history: MergeHistory | None, run_key: str, vocab_size: int
) -> CheckUp:
    """The check-up of the run at this vocab size (shared by sessions, never changed)."""
    if _tokenizer.vocab_size <= CHECK_HERE_MAX_TOKENS:
        return check_up(_tokenizer, _history)
    return in_a_child(check_up, _tokenizer, _history)


def show_checkup(tokenizer: Tokenizer, run: Run, size: int) -> None:
    """Counts of each kind, then a table and a CSV per kind: at once for a vocabulary of
    up to CHECK_HERE_MAX_TOKENS, else when asked (seconds the first time, then kept)."""
    with st.container(key=keys.VOCAB_CHECKUP):
        st.header("Check-up", help=CHECKUP_HELP)
        if size > CHECK_HERE_MAX_TOKENS and not st.toggle(
            f"Check all {size:,} tokens",
            key=keys.VOCAB_CHECKUP_LARGE,
            help="A few seconds the first time, in a child Python; then kept for this "
            "vocabulary and size.",
        ):
            return
        try:
            report = checkup_cached(tokenizer, run.history, run.key, size)
        except ValueError as exc:  # a custom pattern out of regex time; the server too busy
            st.warning(f"The check-up stopped: {markdown_text(str(exc))}")
            return
        _show_report(tokenizer, report, size)


def _show_report(tokenizer: Tokenizer, report: CheckUp, size: int) -> None:
    outside = len(report.outside_merges)
    also = f" and the {outside:,} outside the merges" if outside else ""
    st.caption(
        f"Each of the {size:,} tokens (bytes and merges){also} encoded on its own by this "
        "tokenizer, special tokens' texts as plain text, as a user's text would be."
    )
    counts = report.counts()
    for row in (KINDS[:4], KINDS[4:]):
        for column, kind in zip(st.columns(4), row, strict=False):
            count = counts[kind]
            column.metric(
                markdown_text(KIND_TITLES[kind]),
                "unknown" if count is None else f"{count:,}",
                help=markdown_text(KIND_HELP[kind]),
            )
    tabs = st.tabs([markdown_text(KIND_TITLES[kind]) for kind in KINDS])
    for tab, kind in zip(tabs, KINDS, strict=True):
        with tab:
            _show_kind(tokenizer, report, kind)


def _show_kind(tokenizer: Tokenizer, report: CheckUp, kind: str) -> None:
    if report.ids(kind) is None:
        st.info(
            "Intermediate-only tokens are known only for a tokenizer trained here, at its full "
            "size: view all its tokens in the sidebar."
        )
        return
    frame = kind_frame(tokenizer, report, kind)
    if frame.empty:
        st.success(f"No {markdown_text(KIND_TITLES[kind].lower())} tokens.")
        return
    if kind in LENGTH_UNITS:
        lengths = ", ".join(f"{n:,}: {c:,}" for n, c in report.by_length(kind).items())
        st.caption(f"Tokens by length in {LENGTH_UNITS[kind]} (length: tokens): {lengths}")
    shown = cells.cut_columns(frame.head(MAX_TABLE_ROWS), ["Token", "Hex", "Why"])
    st.dataframe(shown, hide_index=True, width="stretch", height=320, column_config=COLUMNS)
    if len(frame) > MAX_TABLE_ROWS or cells.any_cut(frame, ["Token", "Hex", "Why"]):
        st.caption(f"{cells.CUT_NOTE}; the first {MAX_TABLE_ROWS:,} rows at most: the CSV has all.")
    st.download_button(
        f"Download the {len(frame):,} tokens (CSV)",
        csv_bytes(tokenizer, report, kind),
        file_name=f"checkup_{kind}.csv",
        mime="text/csv",
        key=f"{keys.VOCAB_CHECKUP_CSV}_{kind}",
        help="Every token of this kind, whole: id, text, bytes in hex, length and why",
    )


def kind_frame(tokenizer: Tokenizer, report: CheckUp, kind: str) -> pd.DataFrame:
    """One row per token of the kind, as the table shows it (tokens drawn visibly)."""
    rows = kind_rows(tokenizer, report, kind)
    return pd.DataFrame(
        {
            "Id": [row.id for row in rows],
            "Token": [
                render_token(tokenizer.token_bytes(row.id), visible_whitespace=True) for row in rows
            ],
            "Hex": [row.hex for row in rows],
            "Length": [row.length for row in rows],
            "Why": [row.note for row in rows],
        }
    )


def csv_bytes(tokenizer: Tokenizer, report: CheckUp, kind: str) -> bytes:
    """The tokens of one kind, whole and as they are (not drawn), as UTF-8 CSV."""
    rows = kind_rows(tokenizer, report, kind)
    frame = pd.DataFrame(
        {
            "id": [row.id for row in rows],
            "token": [row.text if row.text is not None else "" for row in rows],
            "hex": [row.hex for row in rows],
            "length": [row.length for row in rows],
            "why": [row.note for row in rows],
        }
    )
    return frame.to_csv(index=False).encode("utf-8")
