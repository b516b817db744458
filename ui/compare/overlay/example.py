"""The overlay's one-click example: the Shakespeare sample trained with four pre-tokenizer
patterns (`none`, `gpt2`, `gpt4`, `o200k`), 10 % held out, and compared on that held-out
text, the fair test of which pattern compresses new text of the same kind best.

The choices it makes are set at the start of the next run (PENDING), before the
widgets that hold them are drawn: Streamlit refuses a change to a widget already drawn.

    >>> [spec.name for spec in example_specs()]  # doctest: +NORMALIZE_WHITESPACE
    ['Shakespeare, 10 % held out · none · 4k', 'Shakespeare, 10 % held out · gpt2 · 4k',
     'Shakespeare, 10 % held out · gpt4 · 4k', 'Shakespeare, 10 % held out · o200k · 4k']
"""

from __future__ import annotations

import streamlit as st

from ui.compare.overlay.texts import HELD_OUT
from ui.server.child_jobs import JobCancelled
from ui.session import state as keys
from ui.session.run_spec import RunSpec
from ui.session.runs import add_run, train_spec
from ui.session.samples import DEFAULT_SAMPLE, SAMPLES, sample_text
from ui.session.train_inputs import sample_corpus, training_spec
from ui.views.formatting import markdown_text

PATTERNS = ("none", "gpt2", "gpt4", "o200k")
VOCAB_SIZE = 4000  # the sample reaches it with each pattern, and still trains in this process
HELD_OUT_PERCENT = 10
EXAMPLE = (
    "**Example**: train the Shakespeare sample with four pre-tokenizer patterns — `none`, "
    "`gpt2`, `gpt4` and `o200k` — to 4,000, holding 10 % out, and compare them on the "
    "held-out text."
)


def example_specs() -> list[RunSpec]:
    """The four runs, as the Train page would name them."""
    corpus = sample_corpus(SAMPLES[DEFAULT_SAMPLE], sample_text(DEFAULT_SAMPLE))
    return [
        training_spec(corpus, VOCAB_SIZE, pattern, (), 1, holdout_percent=HELD_OUT_PERCENT)
        for pattern in PATTERNS
    ]


def example_row() -> None:
    """The example's sentence and its button; a click trains (cached) and compares."""
    text, button = st.columns([3, 1], vertical_alignment="center")
    text.markdown(EXAMPLE)
    if button.button(
        "Train four and compare",
        key=keys.COMPARE_OVERLAY_EXAMPLE,
        icon=":material/play_arrow:",
        width="stretch",
    ):
        train_example()


def train_example() -> None:
    """Train the four runs with a progress bar, keep them, and choose them for the chart."""
    texts = (sample_text(DEFAULT_SAMPLE),)
    bar = st.progress(0.0, text="Training…")
    names: list[str] = []
    specs = example_specs()
    for done, spec in enumerate(specs):
        bar.progress(done / len(specs), text=f"Training {markdown_text(spec.name)}…")
        try:
            train_spec(spec, texts)
        except JobCancelled:
            return
        except ValueError as exc:
            bar.empty()
            st.error(f"The example stopped: {markdown_text(str(exc))}")
            return
        names.append(add_run(spec, texts).name)
    st.session_state[keys.COMPARE_OVERLAY_PENDING] = {
        keys.COMPARE_OVERLAY_RUNS: names,
        keys.COMPARE_OVERLAY_SOURCE: HELD_OUT,
        keys.COMPARE_OVERLAY_HELDOUT: names[0],
    }
    st.rerun()


def apply_pending() -> None:
    """Set the choices the example asked for, before their widgets are drawn."""
    pending = st.session_state.pop(keys.COMPARE_OVERLAY_PENDING, None)
    if pending:
        st.session_state.update(pending)
