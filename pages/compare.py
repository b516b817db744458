"""Compare: compression as the vocabulary grows, one passage at several sizes or tokenizers,
two tokenizers merge by merge, 26 languages, and how much of the vocabulary OpenAI's have.

Each section is a function of ui/compare/; the page lists them in SECTIONS, one row each,
and ui/compare/sections.py draws them as tabs of which only the open one runs.
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
from ui.compare.sections import Section, run_only, show_sections
from ui.session.runs import current_run_or_error, trained_vocab_size, view_vocab_size
from ui.shell import run_page
from ui.views.formatting import markdown_text
from ui.views.token_view import fmt_int

# (tab, what a failure calls it, the function): rows with one tab title share that tab.
# subtle: built at each run, so the functions are looked up then (tests patch them)
SECTIONS = [
    Section("Compression", "The compression curve", curve_section),
    Section("Compression", "The held-out comparison", heldout_section),
    Section("Every run", "Every run on one text", run_only(overlay_section)),
    Section("One passage", "The passage at several sizes", run_only(passage_section)),
    Section("Two tokenizers", "The merge-by-merge comparison", run_only(pair_section)),
    Section("Languages", "The languages comparison", run_only(languages_section)),
    Section("Languages", "The languages' growth", run_only(language_growth_section)),
    Section("Languages", "The languages' fairness", run_only(fairness_section)),
    Section("GPT overlap", "The overlap with OpenAI's vocabularies", run_only(overlap_section)),
]


MODEL_NOTE = (
    "Compare measures our own runs at every vocab size, merge by merge; {name} keeps its own "
    "ids and merge ranks, so it has one size. Open Tokens to see how it splits a text."
)


def main() -> None:
    st.title("Compare")
    run = current_run_or_error(MODEL_NOTE)
    if run is None:
        return
    size = view_vocab_size(run)
    st.caption(
        f"Comparing with **{markdown_text(run.spec.name)}** (vocab size "
        f"{fmt_int(trained_vocab_size(run))}); the sidebar's view size, {fmt_int(size)}, is "
        "marked on the chart."
    )
    show_sections(SECTIONS, run, size)


run_page(main)  # main inside the app's shell, even as a fresh server's first request
