"""A run's held-out split, cut once per corpus and share (explorer/training/holdout.py does the
cutting).

Training (ui/runs.train_spec), the Train form's check and the Compare page all ask for
the same split, so it is cached on the corpus's hash and the share. A run without a
held-out share trains on its whole corpus, as it always has.
"""

from __future__ import annotations

import streamlit as st

from explorer.training.holdout import HoldoutSplit, split_holdout
from ui.session.run_spec import RunSpec


@st.cache_resource(max_entries=16, ttl="6h", show_spinner=False)
def split_cached(text_key: str, percent: int, _texts: tuple[str, ...]) -> HoldoutSplit:
    """The split of the documents whose hash is `text_key` (HoldoutError is not cached)."""
    return split_holdout(_texts, percent)


def split_of(spec: RunSpec, texts: tuple[str, ...]) -> HoldoutSplit | None:
    """The run's split of its corpus `texts`, or None when it holds nothing out."""
    if not spec.holdout_percent:
        return None
    return split_cached(spec.text_key, spec.holdout_percent, texts)


def training_part(spec: RunSpec, texts: tuple[str, ...]) -> tuple[str, ...]:
    """What the run trains on: its corpus without the held-out share."""
    split = split_of(spec, texts)
    return texts if split is None else split.training_texts()
