"""Compare: compression as the vocabulary grows, one passage at several sizes or tokenizers,
two tokenizers merge by merge, 26 languages, how much of the vocabulary OpenAI's have, and
real models — the session's, the bundled ones and Hub names — side by side.

Each section is a function of ui/compare/; the page lists them in SECTIONS, one row each,
and ui/compare/sections.py draws them as tabs of which only the open one runs.
"""

from __future__ import annotations

import streamlit as st

from ui.compare.curve import curve_section
from ui.compare.fairness import fairness_section
from ui.compare.heldout import heldout_section
from ui.compare.languages import language_growth_section, languages_section
from ui.compare.models.section import TAB as MODELS_TAB
from ui.compare.models.section import models_section
from ui.compare.overlap import overlap_section
from ui.compare.overlay.section import overlay_section
from ui.compare.pair.section import pair_section
from ui.compare.passage import passage_section
from ui.compare.sections import Section, run_only, show_sections, without_run
from ui.session import state as keys
from ui.session.links.compare_link import read_compare_link
from ui.session.runs import current_run_or_error, current_spec, trained_vocab_size, view_vocab_size
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
    Section(MODELS_TAB, "The comparison of real models", without_run(models_section), False),
]


MODEL_NOTE = (
    "Compare measures our own runs at every vocab size, merge by merge; {name} keeps its own "
    "ids and merge ranks, so it has one size: compare it with other models below."
)


def main() -> None:
    st.title("Compare")
    if read_compare_link(st.query_params.to_dict()) is not None or current_spec().kind.is_model:
        # a link that names a comparison (hub=, with=) opens it, unless it names a tab
        st.session_state.setdefault(keys.COMPARE_SECTION, MODELS_TAB)
    run = current_run_or_error(MODEL_NOTE)
    if run is None:
        if current_spec().kind.is_model:
            show_sections(SECTIONS, None, 0)
        return
    size = view_vocab_size(run)
    st.caption(
        f"Comparing with **{markdown_text(run.spec.name)}** (vocab size "
        f"{fmt_int(trained_vocab_size(run))}); the sidebar's view size, {fmt_int(size)}, is "
        "marked on the chart."
    )
    show_sections(SECTIONS, run, size)


run_page(main)  # main inside the app's shell, even as a fresh server's first request
