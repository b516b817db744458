"""Vocabulary: a searched text that is no token, as the tokens that write it and their graph."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import Tokenizer
from explorer.analysis.vocabulary.lineage import text_lineage_dot
from ui.session import state as keys
from ui.session.runs import Run
from ui.views.cells import cut_cell
from ui.views.formatting import markdown_text
from ui.vocabulary.lineage import code, repr_quoted
from ui.vocabulary.view import MAX_BUILD_TOKENS, encode_typed, query_id, render, typed_text


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
        st.warning(f"The search could not be encoded: {markdown_text(str(exc))}")
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
    st.graphviz_chart(text_lineage_dot(tokenizer, text, ids, label=lambda b: cut_cell(render(b))))
    st.caption("Its tokens side by side under it, each built from its bytes at the bottom.")
    return ids
