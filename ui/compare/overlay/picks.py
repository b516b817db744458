"""Which tokenizers the overlay draws: any of the session's runs and OpenAI's three.

The choice starts as the sidebar's run and GPT-4's vocabulary, and when the sidebar's run
changes the new one joins it, so the run being looked at is always there to compare.

    >>> bundled_names()["GPT-4 · cl100k_base"]
    'cl100k_base'
"""

from __future__ import annotations

import streamlit as st

from ui.session import state as keys
from ui.session.run_spec import BUNDLED_RUNS, RunSpec
from ui.session.runs import Run, bundled_spec, load_run, tokenizer_specs
from ui.views.formatting import markdown_text

DEFAULT_BUNDLED = "GPT-4 · cl100k_base"
MAX_CHOSEN = 8  # lines on one chart a reader can still tell apart (and encodes per text)


def bundled_names() -> dict[str, str]:
    """OpenAI's vocabularies by the name their run has, as the sidebar lists them."""
    return {f"{title} · {name}": name for name, (title, _) in BUNDLED_RUNS.items()}


def choices() -> dict[str, RunSpec | str]:
    """Every run to choose from: the session's (newest first), then OpenAI's by bundled name."""
    session: dict[str, RunSpec | str] = {spec.name: spec for spec in reversed(tokenizer_specs())}
    for name, bundled in bundled_names().items():
        session.setdefault(name, bundled)
    return session


def chosen_names(current: Run) -> list[str]:
    """The multiselect of runs; its state is kept to names that still exist."""
    options = choices()
    state = st.session_state
    kept = [name for name in state.get(keys.COMPARE_OVERLAY_RUNS, []) if name in options]
    if keys.follow_run(state, keys.COMPARE_OVERLAY_RUNS_OF, current.spec.name):
        if not kept:
            kept = [n for n in (current.spec.name, DEFAULT_BUNDLED) if n in options]
        elif current.spec.name not in kept:
            kept = [current.spec.name, *kept]
    state[keys.COMPARE_OVERLAY_RUNS] = list(dict.fromkeys(kept))[:MAX_CHOSEN]
    return st.multiselect(
        "Tokenizers",
        list(options),
        key=keys.COMPARE_OVERLAY_RUNS,
        persist_state="session",
        max_selections=MAX_CHOSEN,
        help="Any of this session's tokenizers and OpenAI's three vocabularies: each is one "
        "line, at every vocab size it has.",
    )


def load_chosen(names: list[str]) -> list[Run]:
    """The runs by name, loaded (OpenAI's once per process); one that cannot be rebuilt is
    left out with a message saying which and why."""
    options = choices()
    runs: list[Run] = []
    for name in names:
        option = options[name]
        try:
            if isinstance(option, str):
                with st.spinner(f"Loading {markdown_text(name)} (a few seconds, once)…"):
                    runs.append(load_run(bundled_spec(option)))
            else:
                runs.append(load_run(option))
        except ValueError as exc:
            st.warning(
                f"{markdown_text(name)} is left out: {markdown_text(str(exc).rstrip('.'))}. "
                "Choose it again after training or loading it on the Train page."
            )
    return runs
