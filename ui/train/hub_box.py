"""The Train page's box that opens a real model by its Hugging Face Hub name.

The name goes to ui/session/hub_opening.open_hub_model, which fetches the model's tokenizer
files into the server's Hub cache (when they are not there yet) with a progress bar, reads
the model once for every session, and makes it this session's run. What goes wrong is one
sentence under the box; the name stays in it.
"""

from __future__ import annotations

import streamlit as st

from explorer.models.hub_files import fetching_allowed
from ui.server.child_jobs import JobCancelled
from ui.session import state as keys
from ui.session.hub_opening import fetching_sentence, open_hub_model
from ui.views.formatting import markdown_text

EXAMPLES = "Qwen/Qwen3-0.6B, deepseek-ai/DeepSeek-V3, meta-llama/Meta-Llama-3-8B"


def hub_model_form() -> None:
    """A box for a Hub name, its Open button, what this server fetches, and the last error."""
    with st.container(border=True):
        st.markdown("**Open a real model by its name on the Hugging Face Hub**")
        name_column, button_column = st.columns([4, 1], vertical_alignment="bottom")
        name_column.text_input(
            "Hub model name",
            key=keys.TRAIN_HUB_NAME,
            placeholder="Qwen/Qwen3-0.6B",
            help=f"ORG/NAME, as on the model's Hub page: {EXAMPLES}.",
            max_chars=200,
        )
        clicked = button_column.button(
            "Open", key=keys.TRAIN_HUB_OPEN, icon=":material/download:", width="stretch"
        )
        caption = fetching_sentence()
        st.caption(caption if fetching_allowed() else f"**{caption}**")
        if clicked:
            open_named_model(str(st.session_state.get(keys.TRAIN_HUB_NAME) or ""))
        failed = st.session_state.get(keys.TRAIN_HUB_ERROR)
        if failed is not None and failed[0] == st.session_state.get(keys.TRAIN_HUB_NAME):
            st.error(markdown_text(failed[1]), icon=":material/error:")


def open_named_model(name: str) -> None:
    """Open the model (a progress bar while it is fetched and read), then show it; or keep
    why it could not be opened, for the box to say."""
    st.session_state.pop(keys.TRAIN_HUB_ERROR, None)
    try:
        open_hub_model(name)
    except JobCancelled:  # the session has gone while a child worked
        return
    except ValueError as exc:  # HubError's one sentence, or the server's queue
        st.session_state[keys.TRAIN_HUB_ERROR] = (name, sentence_of(exc))
        return
    st.rerun()


def sentence_of(exc: ValueError) -> str:
    """An error as the box says it: a sentence with its full stop.

    >>> sentence_of(ValueError("the server is busy"))
    'The server is busy.'
    """
    text = str(exc).strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else f"{text}."
