"""Tokens: the counts of a text too long to encode here, from a child Python, kept.

The page draws a long text's start (ui/tokens/whole_text.py); its counts cover the whole
text, counted by `count_whole` in a child (ui/server/heavy_work.py: the server's slots and
fair queue), behind a progress bar, and kept for every session by the text's digest (a
count is a few numbers: 256 of them take no memory worth a byte bound). When the child
cannot count it (the server is busy, the session left), the counts cover the drawn part,
and a sentence says so and why.
"""

from __future__ import annotations

import streamlit as st

from explorer.analysis.compression.stats import TextStats, counted_stats
from explorer.encoding.regex_budget import BudgetSpent
from explorer.encoding.tokenizer import Tokenizer
from ui.server.child_jobs import JobCancelled
from ui.server.heavy_work import WAITING, in_a_child
from ui.server.lru import SharedLru
from ui.tokens.whole_text import PHASE, DrawnPart, WholeCount, count_whole, text_digest
from ui.views.formatting import markdown_text, plural
from ui.views.token_view import EncodedText, fmt_int

WHOLE_COUNTS_KEPT = 256
_counts = SharedLru(WHOLE_COUNTS_KEPT)


def text_counts(
    tokenizer: Tokenizer,
    run_key: str,
    vocab_size: int,
    text: str,
    part: DrawnPart,
    encoded: EncodedText,
) -> tuple[TextStats, tuple[str, ...]]:
    """The counts and special tokens of the whole text: the drawn part's own when it is
    the whole text, else the child's (or the part's, with a sentence, when it fails)."""
    if not part.cut:
        return encoded.stats, encoded.specials
    try:
        whole = _whole_count(tokenizer, run_key, vocab_size, text)
    except JobCancelled:  # the session has gone: nobody is left to read a sentence
        return encoded.stats, encoded.specials
    except (ValueError, BudgetSpent) as exc:
        st.warning(
            f"The whole text could not be counted: {markdown_text(str(exc).rstrip('.'))}. "
            f"The counts below cover its first {fmt_int(len(part.text))} characters."
        )
        return encoded.stats, encoded.specials
    return counted_stats(text, whole.tokens), whole.specials


def _whole_count(tokenizer: Tokenizer, run_key: str, vocab_size: int, text: str) -> WholeCount:
    key = (run_key, vocab_size, text_digest(text))
    found = _counts.get(key)
    if isinstance(found, WholeCount):
        return found
    what = f"all {fmt_int(len(text))} characters"
    bar = st.progress(0.0, text=f"Counting the tokens of {what} in a helper process…")

    def report(phase: str, done: int, total: int) -> None:
        if phase == WAITING:
            bar.progress(0.0, text=f"Waiting for the server: {plural(done, 'job')} ahead…")
        elif phase == PHASE and total:
            bar.progress(done / total, text=f"Counting the tokens of {what}…")

    try:
        return _counts.get_or_make(
            key, lambda: in_a_child(count_whole, tokenizer, text, progress=report), lambda _: 1
        )
    finally:
        bar.empty()
