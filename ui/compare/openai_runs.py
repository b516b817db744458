"""GPT-2's, GPT-4's and GPT-4o's vocabularies as runs, for Compare's passage and languages
sections: loaded once per process (the run cache's), behind a spinner the first time."""

from __future__ import annotations

import streamlit as st

from ui.session.run_spec import OPENAI
from ui.session.runs import Run, bundled_spec, load_run


def openai_runs() -> list[Run]:
    """GPT-2's, GPT-4's and GPT-4o's vocabularies (loaded once per process, then shared)."""
    with st.spinner("Loading GPT-2, GPT-4 and GPT-4o's vocabularies (a few seconds, once)…"):
        return [load_run(bundled_spec(name)) for name in OPENAI]
