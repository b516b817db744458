"""Train: the run the form asks for, checked, and training it with a progress bar."""

from __future__ import annotations

import streamlit as st

from ui.server.child_jobs import JobCancelled
from ui.session import state as keys
from ui.session import train_inputs as form
from ui.session.run_spec import RunSpec
from ui.session.runs import add_run, train_spec
from ui.session.samples import SAMPLES, sample_text
from ui.train import holdout as train_holdout
from ui.train import progress
from ui.views.formatting import markdown_text


def read_corpus() -> form.Corpus:
    """The text the form points at; raises InputError when there is none or it is unusable."""
    state = st.session_state
    source = state[keys.TRAIN_SOURCE]
    if source == "sample":
        sample = SAMPLES[state[keys.TRAIN_SAMPLE]]
        return form.sample_corpus(sample, sample_text(sample.key))
    if source == "upload":
        files = state.get(keys.TRAIN_UPLOAD) or []
        return form.upload_corpus((file.name, file.getvalue()) for file in files)
    if source == "paste":
        return form.pasted_corpus(state[keys.TRAIN_PASTE])
    return form.word_count_corpus(state[keys.TRAIN_WORD_COUNTS])


def requested_run() -> tuple[RunSpec, form.Corpus]:
    """The run the form describes, checked; raises ValueError saying what to fix."""
    state = st.session_state
    problem = form.vocab_size_problem(state[keys.TRAIN_VOCAB])
    if problem:
        raise form.InputError(problem)
    pattern = form.chosen_pattern(state[keys.TRAIN_PATTERN], state[keys.TRAIN_REGEX])
    corpus = read_corpus()
    specials = form.parse_special_tokens(state[keys.TRAIN_SPECIALS])
    held_out = train_holdout.chosen_percent(corpus)
    train_holdout.check_holdout(corpus, held_out)
    spec = form.training_spec(
        corpus,
        int(state[keys.TRAIN_VOCAB]),
        pattern,
        specials,
        int(state[keys.TRAIN_MIN_COUNT]),
        state[keys.TRAIN_TIE_RULE],
        holdout_percent=held_out,
    )
    return spec, corpus


CANCEL = "train_cancel"  # the Cancel button under a training's progress bar
CANCELLED = "Training cancelled: its worker process has been stopped."


def train_and_add(spec: RunSpec, texts: tuple[str, ...]) -> None:
    """Train (cached) with a progress bar and a Cancel button, keep the run, and show it.

    A large training runs in a child Python (ui.server.heavy_work); clicking Cancel
    reruns this script, which stops the wait and ends the child before the rerun starts.
    """
    bar = st.progress(0.0, text="Counting chunks…")
    cancel = st.empty()
    # subtle: drawn before the blocking wait: a click during it is a rerun, which Streamlit
    # raises in the wait's next poll; the callback then tells the visitor in the next run
    cancel.button("Cancel", key=CANCEL, icon=":material/cancel:", on_click=_cancelled)
    report = progress.progress_reporter(lambda fraction, text: bar.progress(fraction, text=text))
    try:
        train_spec(spec, texts, report)
    except JobCancelled:  # the session has gone: no one is left to tell
        return
    except ValueError as exc:  # the engine's errors say what to change
        bar.empty()
        cancel.empty()
        st.error(f"Training stopped: {markdown_text(str(exc))}")
        return
    add_run(spec, texts)
    st.rerun()


def _cancelled() -> None:
    st.toast(CANCELLED, icon=":material/cancel:")
