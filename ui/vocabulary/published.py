"""Vocabulary: the buttons that open GPT-2's, GPT-4's or GPT-4o's published vocabulary."""

from __future__ import annotations

import streamlit as st

from ui.session.run_spec import OPENAI, RunKind
from ui.session.runs import Run, add_run, bundled_spec
from ui.views.formatting import markdown_text


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
                st.error(f"{title}'s vocabulary could not be loaded: {markdown_text(str(exc))}")
                return
            add_run(spec, ())
            st.rerun()
