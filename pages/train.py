"""Train: choose a text and the settings, train byte-level BPE, then read every merge."""

from __future__ import annotations

import streamlit as st

from ui.session import state as keys
from ui.session import train_inputs as form
from ui.session.run_spec import RunSpec
from ui.session.runs import MAX_RUNS, current_run_or_error, current_spec
from ui.shell import run_page
from ui.train import holdout as train_holdout
from ui.train import results as train_results
from ui.train import tokenizer_files as ts
from ui.train.form_state import init_form
from ui.train.form_view import settings, text_source, worked_examples
from ui.train.hub_box import hub_model_form
from ui.train.request import requested_run, train_and_add
from ui.views import formatting as fmt
from ui.views.section import guarded


def train_form() -> None:
    """Worked examples, the text and settings, the Train button and the .model loader."""
    worked_examples()
    left, right = st.columns([3, 2], gap="large")
    with left:
        text_source()
    with right:
        settings()
    request: tuple[RunSpec, form.Corpus] | None  # declared, so the else below knows it is set
    try:
        request = requested_run()
    except ValueError as exc:
        request = None
        if isinstance(exc, form.MissingInput):
            st.info(fmt.markdown_text(str(exc)))
        else:
            st.error(fmt.markdown_text(fmt.sentence(str(exc))))
    else:
        left.caption(form.describe_corpus(request[1]))
        held_out = train_holdout.check_holdout(request[1], request[0].holdout_percent)
        if held_out:
            left.caption(held_out)
    clicked = st.button(
        "Train",
        key=keys.TRAIN_GO,
        type="primary",
        icon=":material/model_training:",
        disabled=not request,
    )
    st.caption(
        f"The sidebar lists up to {MAX_RUNS} tokenizers; training another drops the oldest "
        "from the list. Each page's address opens its tokenizer again, even after a reload."
    )
    if clicked and request:
        train_and_add(request[0], request[1].texts)
    hub_model_form()
    ts.load_model_form()


MODEL_NOTE = (
    "{name} is loaded: a real model's tokenizer, with its own ids and merge ranks. Open "
    "Tokens to see how it splits a text."
)


def main() -> None:
    st.title("Train a tokenizer")
    st.caption(
        "Byte-level BPE starts from the 256 bytes and, again and again, merges the most frequent "
        "pair of neighbouring tokens into a new token. Pick a text and a vocab size, train, "
        "and read every merge below."
    )
    run = current_run_or_error(MODEL_NOTE)
    init_form(run.spec if run is not None else current_spec())
    with guarded("The training form"):
        train_form()  # shown even when the current run is broken, so another can be trained
    if run is not None:
        train_results.results(run)


run_page(main)  # main inside the app's shell, even as a fresh server's first request
