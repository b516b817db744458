"""Compare: compression as the vocabulary grows, one passage at several sizes or tokenizers,
two tokenizers merge by merge, 26 languages, and how much of the vocabulary OpenAI's have.

Each section is a function of ui/compare/; the page lays them out in order.
"""

from __future__ import annotations

import streamlit as st

from ui.compare.curve import curve_section
from ui.compare.fairness import fairness_section
from ui.compare.heldout import heldout_section
from ui.compare.languages import language_growth_section, languages_section
from ui.compare.overlap import overlap_section
from ui.compare.overlay.section import overlay_section
from ui.compare.pair.section import pair_section
from ui.compare.passage import passage_section
from ui.session.runs import current_run_or_error, trained_vocab_size, view_vocab_size
from ui.shell import run_page
from ui.views.formatting import markdown_text
from ui.views.section import guarded
from ui.views.token_view import fmt_int


def main() -> None:
    st.title("Compare")
    run = current_run_or_error()
    if run is None:
        return
    size = view_vocab_size(run)
    st.caption(
        f"Comparing with **{markdown_text(run.spec.name)}** (vocab size "
        f"{fmt_int(trained_vocab_size(run))}); the sidebar's view size, {fmt_int(size)}, is "
        "marked on the chart."
    )
    with guarded("The compression curve"):
        curve_section(run, size)
    with guarded("The held-out comparison"):
        heldout_section(run, size)
    st.divider()
    with guarded("Every run on one text"):
        overlay_section(run)
    st.divider()
    with guarded("The passage at several sizes"):
        passage_section(run)
    st.divider()
    with guarded("The merge-by-merge comparison"):
        pair_section(run)
    st.divider()
    with guarded("The languages comparison"):
        languages_section(run)
    with guarded("The languages' growth"):
        language_growth_section(run)
    with guarded("The languages' fairness"):
        fairness_section(run)
    st.divider()
    with guarded("The overlap with OpenAI's vocabularies"):
        overlap_section(run)


run_page(main)  # main inside the app's shell, even as a fresh server's first request
