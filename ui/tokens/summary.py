"""Tokens: what an encoded text adds up to: its counts, its special tokens, its ids to copy."""

from __future__ import annotations

import streamlit as st

from explorer.analysis.compression.stats import TextStats
from ui.session import state as keys
from ui.session.runs import Run
from ui.views.formatting import markdown_text
from ui.views.token_view import (
    MAX_RENDERED_TOKENS,
    SPECIAL_HINT,
    fmt_int,
    fmt_ratio,
    id_list,
)

SEPARATORS = {"space": " ", "comma": ", "}


def show_counts(stats: TextStats) -> None:
    """Five metrics: characters, bytes, tokens and the two ratios, in a row that wraps
    (columns would stack one a row on a phone)."""
    row = st.container(horizontal=True, horizontal_alignment="distribute")
    row.metric("Characters", fmt_int(stats.chars), width="content")
    row.metric("Bytes (UTF-8)", fmt_int(stats.bytes), width="content")
    row.metric("Tokens", fmt_int(stats.tokens), width="content")
    row.metric(
        "Bytes per token",
        fmt_ratio(stats.bytes_per_token),
        help="Higher is better compression",
        width="content",
    )
    row.metric("Characters per token", fmt_ratio(stats.chars_per_token), width="content")


def show_specials(run: Run, specials: tuple[str, ...]) -> None:
    """Say which special tokens the text holds, or that the tokenizer has some to try."""
    if specials:
        names = ", ".join(markdown_text(s) for s in specials)
        st.info(
            f"The text contains the special token(s) {names}: each is encoded as one special "
            f"token ({SPECIAL_HINT}), as `allowed_special='all'` does."
        )
    elif run.tokenizer.special_tokens:
        names = ", ".join(markdown_text(s) for s in run.tokenizer.special_tokens)
        st.caption(f"This tokenizer has special tokens {names}: type one to see it as one token.")


def show_ids(ids: tuple[int, ...], total: int) -> None:
    """The ids to copy, in an expander: the first MAX_RENDERED_TOKENS of the `total`."""
    with st.expander(f"Token ids ({fmt_int(total)}) to copy"):
        separator = st.radio(
            "Separated by",
            list(SEPARATORS),
            horizontal=True,
            key=keys.TOKENS_ID_SEPARATOR,
            persist_state="session",
        )
        st.code(id_list(ids, SEPARATORS[separator], MAX_RENDERED_TOKENS), language=None)
        if total > min(len(ids), MAX_RENDERED_TOKENS):
            st.caption(f"The first {fmt_int(min(len(ids), MAX_RENDERED_TOKENS))} ids.")
