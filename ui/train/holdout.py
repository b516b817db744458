"""Train: the option to hold out a share of the corpus, and what is wrong with a share.

Off by default, with 10 % preset: a run trained without it keeps its merges identical to
minbpe's on the whole text (and its key, link and stored file as they always were); a
user who wants to test on unseen text turns it on. The split itself is explorer/training/holdout.py.
"""

from __future__ import annotations

import streamlit as st

from explorer.training.holdout import MAX_PERCENT, MIN_PERCENT, HoldoutError
from ui.session import state as keys
from ui.session.holdout_split import split_cached
from ui.session.run_spec import RunKind, text_key
from ui.session.train_inputs import Corpus, InputError

DEFAULT_PERCENT = 10
WORDS_NOTE = (
    "A word-count list has no running text to hold out: it trains on all its words. "
    "Paste or upload text to hold out a share of it."
)


def holdout_controls(words: bool) -> None:
    """The checkbox, and the share once it is on (a word-count list cannot hold text out)."""
    st.session_state.setdefault(keys.TRAIN_HOLDOUT, False)
    st.session_state.setdefault(keys.TRAIN_HOLDOUT_PERCENT, DEFAULT_PERCENT)
    st.checkbox(
        "Hold out text the tokenizer does not see",
        key=keys.TRAIN_HOLDOUT,
        disabled=words,
        help="Leaves a share of the corpus out of training (every k-th document, paragraph "
        "or line), so Compare can draw how the tokenizer does on text it has not seen.",
        persist_state="session",
    )
    if words and st.session_state[keys.TRAIN_HOLDOUT]:
        st.caption(WORDS_NOTE)
    elif st.session_state[keys.TRAIN_HOLDOUT]:
        st.number_input(
            "Held-out share (%)",
            min_value=MIN_PERCENT,
            max_value=MAX_PERCENT,
            step=5,
            key=keys.TRAIN_HOLDOUT_PERCENT,
            help="Every k-th unit is held out: with 10 %, the 10th, 20th, 30th… document "
            "(or paragraph, or line, when there are too few documents).",
            persist_state="session",
        )


def chosen_percent(corpus: Corpus) -> int:
    """The share the form asks for: 0 when the option is off or the corpus is word counts."""
    state = st.session_state
    if not state.get(keys.TRAIN_HOLDOUT) or corpus.kind is RunKind.WORD_COUNTS:
        return 0
    return int(state.get(keys.TRAIN_HOLDOUT_PERCENT, DEFAULT_PERCENT))


def check_holdout(corpus: Corpus, percent: int) -> str:
    """A caption of what is held out; InputError when the share leaves nothing on a side."""
    if not percent:
        return ""
    try:
        split = split_cached(text_key(corpus.texts), percent, corpus.texts)
    except HoldoutError as exc:
        raise InputError(f"Nothing can be held out: {exc}.") from None
    held = sum(len(t.encode("utf-8", "surrogatepass")) for t in split.heldout_texts())
    total = sum(len(t.encode("utf-8", "surrogatepass")) for t in corpus.texts)
    units = split.held_out_units()
    return (
        f"Held out: {units:,} {split.unit}{'s' if units != 1 else ''} of {len(split.pieces):,}, "
        f"{held:,} bytes ({held / total:.0%} of the text), never trained on."
    )
