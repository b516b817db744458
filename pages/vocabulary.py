"""Vocabulary: every token of the current tokenizer, how it was built and how it is used."""

from __future__ import annotations

import streamlit as st

from ui.session.runs import (
    current_run,
    current_spec,
    load_model_run,
    view_tokenizer,
    view_vocab_size,
)
from ui.shell import run_page
from ui.views.formatting import markdown_text
from ui.views.section import guarded
from ui.vocabulary.checkup import show_checkup
from ui.vocabulary.model_vocabulary import show_model_vocabulary
from ui.vocabulary.overview import explain_missing, show_lengths, show_metrics
from ui.vocabulary.published import browse_published
from ui.vocabulary.table_view import descendants_column, search_controls, show_table
from ui.vocabulary.token_detail import show_token
from ui.vocabulary.typed_search import show_typed_text
from ui.vocabulary.view import usage_known, vocab_table


def main() -> None:
    st.title("Vocabulary")
    if current_spec().kind.is_model:  # its own ids and ranks: indexed and paged on the server
        try:
            model_run = load_model_run(current_spec())
        except ValueError as exc:
            st.error(f"This tokenizer could not be read: {markdown_text(str(exc))}")
            return
        show_model_vocabulary(model_run)
        return
    try:
        run = current_run()
        tokenizer = view_tokenizer(run)
        size = view_vocab_size(run)
        table = vocab_table(tokenizer, run.history, run.key, size)
    except ValueError as exc:
        st.error(
            f"This vocabulary could not be built: {markdown_text(str(exc))}. Choose another "
            "tokenizer in the sidebar, or train one on the Train page."
        )
        return
    st.caption(
        f"Every token of **{markdown_text(run.spec.name)}** at vocab size {size:,}: what it is, "
        "which two tokens it was merged from, and how much it is used."
    )
    with guarded("The published vocabularies"):
        browse_published(run)
    known = usage_known(run.history, size)
    with guarded("The vocabulary's figures"):
        explain_missing(run, size, known)
        show_metrics(table, known)
    rows, query, typed = table, "", []  # what the sections below use if the table fails
    with guarded("The token table"):
        table = descendants_column(tokenizer, run, size, table)
        rows, query = search_controls(table, known)
        show_table(rows, len(table), run, known)
    with guarded("The typed text's tokens"):
        typed = show_typed_text(tokenizer, run, size, query, table)
    st.divider()
    with guarded("The token's lineage"):
        show_token(tokenizer, run, size, table, rows, query, typed)
    st.divider()
    with guarded("The token lengths"):
        show_lengths(table, (run.key, size))
    st.divider()
    with guarded("The check-up"):  # last: a custom pattern's regex time is the page's
        show_checkup(tokenizer, run, size)


run_page(main)  # main inside the app's shell, even as a fresh server's first request
