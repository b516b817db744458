"""BPE Merge Explorer: routes to the pages and keeps the shared sidebar.

streamlit run streamlit_app.py
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from explorer import StopReason
from explorer.pretokenize import preset_name
from ui.runs import (
    CURRENT_KEY,
    VIEW_KEY,
    VIEW_OWNER_KEY,
    Run,
    current_run_or_error,
    init_session,
    run_specs,
    trained_vocab_size,
)

# subtle: not "pages/": beside the entry file that name switches on Streamlit's old
# auto-discovered multipage mode, which runs a deep-linked page without this file.
PAGES = Path(__file__).resolve().parent / "app_pages"


def sidebar() -> None:
    """Which tokenizer the pages show, and at which vocab size."""
    names = [spec.name for spec in run_specs()]
    with st.sidebar:
        st.selectbox("Tokenizer", names, key=CURRENT_KEY, help="Tokenizers trained in this session")
        run = current_run_or_error()
        if run is None:
            return
        full = trained_vocab_size(run)
        if st.session_state.get(VIEW_OWNER_KEY) != run.spec.name:
            st.session_state[VIEW_OWNER_KEY] = run.spec.name
            st.session_state[VIEW_KEY] = full
        if full > 256:
            st.slider(
                "View at vocab size",
                min_value=256,
                max_value=full,
                key=VIEW_KEY,
                help="The first k merges are a tokenizer of size 256 + k: every page follows "
                "this without retraining.",
            )
        st.caption(run_summary(run))


def run_summary(run: Run) -> str:
    """One line naming what the pages show: corpus, pattern, merges, vocab size."""
    spec = run.spec
    pattern = preset_name(spec.pattern) or spec.pattern
    pattern = pattern if len(pattern) <= 20 else "custom regex"
    merges = trained_vocab_size(run) - 256
    summary = f"**{spec.source}** · pattern `{pattern}` · {merges:,} merges"
    stopped = run.history.stop_reason.value if run.history is not None else None
    if stopped not in (None, StopReason.VOCAB_SIZE_REACHED.value):
        summary += f" · stopped early: {StopReason(stopped).describe()}"
    return summary


def main() -> None:
    st.set_page_config(
        page_title="BPE Merge Explorer", page_icon=":material/join_inner:", layout="wide"
    )
    init_session()
    page = st.navigation(
        [
            st.Page(
                PAGES / "train.py", title="Train", icon=":material/model_training:", default=True
            ),
            st.Page(PAGES / "animate.py", title="Animate merges", icon=":material/animation:"),
            st.Page(PAGES / "tokens.py", title="Tokens", icon=":material/palette:"),
            st.Page(PAGES / "vocabulary.py", title="Vocabulary", icon=":material/menu_book:"),
            st.Page(PAGES / "compare.py", title="Compare", icon=":material/query_stats:"),
        ]
    )
    sidebar()
    page.run()


main()
