"""Train: the form's starting values, and the callbacks that set it (a sample, a worked example).

Only session state is written here; the widgets that show these keys are ui/train/form_view.py.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui.session import state as keys
from ui.session import train_inputs as form
from ui.session.links import urls
from ui.session.run_spec import RunSpec
from ui.session.runs import add_run
from ui.session.samples import DEFAULT_SAMPLE, SAMPLES, sample_text
from ui.train import holdout as train_holdout
from ui.train import tie_rule_form as ties


def init_form(spec: RunSpec) -> None:
    """Start the form from the current run when it is a sample (as the URL may have chosen)."""
    sample = urls.sample_of(spec)
    pattern = spec.pattern if sample else SAMPLES[DEFAULT_SAMPLE].pattern
    choice, regex = form.pattern_choice(pattern)
    defaults: dict[str, Any] = {
        keys.TRAIN_SOURCE: "sample",
        keys.TRAIN_SAMPLE: sample.key if sample else DEFAULT_SAMPLE,
        keys.TRAIN_VOCAB: spec.vocab_size if sample else SAMPLES[DEFAULT_SAMPLE].vocab_size,
        keys.TRAIN_PATTERN: choice,
        keys.TRAIN_REGEX: regex,
        keys.TRAIN_PASTE: "",
        keys.TRAIN_WORD_COUNTS: "",
        keys.TRAIN_SPECIALS: "",
        keys.TRAIN_MIN_COUNT: 1,
        keys.TRAIN_TIE_RULE: spec.tie_rule.value if sample else ties.DEFAULT_TIE_RULE_NAME,
        keys.TRAIN_HOLDOUT: bool(sample and spec.holdout_percent),
        keys.TRAIN_HOLDOUT_PERCENT: spec.holdout_percent or train_holdout.DEFAULT_PERCENT,
        keys.TRAIN_BYTE_SYMBOLS: sample is not None and sample.key == "this_is",
        keys.TRAIN_LOG_QUERY: "",
    }
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)


def use_sample_settings() -> None:
    """Choosing a sample brings the vocab size and pattern that show it off."""
    sample = SAMPLES[st.session_state[keys.TRAIN_SAMPLE]]
    st.session_state[keys.TRAIN_VOCAB] = sample.vocab_size
    choice, regex = form.pattern_choice(sample.pattern)
    st.session_state[keys.TRAIN_PATTERN] = choice
    if regex:
        st.session_state[keys.TRAIN_REGEX] = regex


def train_example(key: str, tie_rule: str = ties.DEFAULT_TIE_RULE_NAME) -> None:
    """A worked example: set the form to it and add its run (tiny, so it trains at once)."""
    state = st.session_state
    state[keys.TRAIN_SOURCE], state[keys.TRAIN_SAMPLE] = "sample", key
    use_sample_settings()
    state[keys.TRAIN_SPECIALS], state[keys.TRAIN_MIN_COUNT] = "", 1
    state[keys.TRAIN_TIE_RULE] = tie_rule
    state[keys.TRAIN_HOLDOUT] = False  # the example trains on all of its few bytes
    state[keys.TRAIN_BYTE_SYMBOLS] = key == "this_is"
    state[keys.TRAIN_LOG_QUERY] = ""
    sample = SAMPLES[key]
    corpus = form.sample_corpus(sample, sample_text(key))
    spec = form.training_spec(corpus, sample.vocab_size, sample.pattern, (), 1, tie_rule)
    add_run(spec, corpus.texts)
