"""Open a real model by its Hugging Face Hub name: as a run of this session, with progress.

The one function the pages call is `open_hub_model(name)`: it finds the model's files
(explorer/models/hub.py), fetches them into the server's Hub cache when they are not there
(a child, one download at a time per server) while a bar shows the bytes, reads the model
once for every session (ui/session/hub_models.py), and adds it as this session's current
run. `hub_run(name)` is the same without the session: the run's spec and texts, for a page
that shows several models at once (Compare), and `hub_model(name)` the model alone. All
raise HubError (a ValueError) with one plain sentence when the model cannot be opened.

    >>> hub_names("Qwen/Qwen3-0.6B, meta-llama/Meta-Llama-3-8B,,Qwen/Qwen3-0.6B")
    ['Qwen/Qwen3-0.6B', 'meta-llama/Meta-Llama-3-8B']
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable

import streamlit as st

from explorer.models.hub import FETCHING
from explorer.models.hub_files import HubFiles, fetching_allowed
from explorer.models.model import LoadedModel
from ui.server.heavy_work import WAITING
from ui.session.hub_models import held_model, hub_texts, in_cache, is_held, located
from ui.session.markdown import markdown_text
from ui.session.run_spec import RunKind, RunSpec, size_label, text_key
from ui.session.runs import add_run

MAX_LINK_MODELS = 6  # a link's hub= names at most this many models (Compare's chart: 2-6)
PROGRESS_PER_SECOND = 10


def hub_names(value: str) -> list[str]:
    """The model names a link's `hub=` gives (comma-separated), each once, in order."""
    names = [name.strip() for name in value.split(",")]
    return list(dict.fromkeys(name for name in names if name))


def open_hub_model(name: str) -> RunSpec:
    """Open the Hub model `name` as this session's run (current from the next rerun)."""
    spec, texts = hub_run(name)
    return add_run(spec, texts)


def hub_run(name: str) -> tuple[RunSpec, tuple[str, ...]]:
    """The run of the Hub model `name` (fetched and read when needed, with a progress bar
    while it is), and the texts it keeps; not added to any session."""
    found = located(name)
    model = hub_model(name)
    texts = hub_texts(found)
    return hub_spec(found, model, texts), texts


def hub_model(name: str) -> LoadedModel:
    """The model itself, held once per server (fetched and read when needed, with a
    progress bar while it is), for a page that needs the model and not a run."""
    found = located(name)
    if is_held(found):
        return held_model(found)
    return _with_progress(found, lambda report: held_model(found, report))


def hub_spec(found: HubFiles, model: LoadedModel, texts: tuple[str, ...]) -> RunSpec:
    """A Hub model's run, named by its repo: "Qwen/Qwen3-0.6B · 151,669 ids · bytes · NFC"."""
    normalizer = f" · {model.normalizer}" if 0 < len(model.normalizer) <= 20 else ""
    return RunSpec(
        name=f"{found.repo} · {size_label(model.vocab_size)} ids · {model.base}{normalizer}",
        source=f"{found.repo} ({' + '.join(found.files)})",
        text_key=text_key(texts),
        vocab_size=model.vocab_size,
        pattern=model.pattern,
        kind=RunKind.HUB_MODEL,
    )


def fetching_sentence() -> str:
    """What the Train page's box says about fetching on this server."""
    if fetching_allowed():
        return (
            "The server fetches the model's tokenizer files (not its weights) once into its "
            "Hugging Face cache; every visitor then opens it from there. A gated model (Llama, "
            "Gemma) needs an access token in the server's HF_TOKEN."
        )
    return (
        "Fetching from the Hub is off on this server (BPE_EXPLORER_HUB=off, or HF_HUB_OFFLINE): "
        "only models already in its Hugging Face cache open."
    )


def _with_progress(
    found: HubFiles, work: Callable[[Callable[[str, int, int], None]], LoadedModel]
) -> LoadedModel:
    """work(report), with a bar that shows the fetch's bytes, the wait for the server, then
    the reading; the bar goes when it is done."""
    fetching = not in_cache(found)
    repo = markdown_text(found.repo)  # a bar's text is Markdown: "a_b_c" is not italics
    first = f"Fetching {repo}'s tokenizer files…" if fetching else f"Reading {repo}…"
    bar = st.progress(0.0, text=first)
    try:
        return work(_reporter(found, bar.progress))
    finally:
        bar.empty()


def _reporter(found: HubFiles, show: Callable[..., object]) -> Callable[[str, int, int], None]:
    """A throttled progress callback drawing in the caller's context (see ui/train/progress)."""
    last = [0.0]
    caller = contextvars.copy_context()
    repo = markdown_text(found.repo)

    def report(phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < 1 / PROGRESS_PER_SECOND and done < total:
            return
        last[0] = now
        if phase == WAITING:
            text = f"Waiting for the server: {done:,} fetch or read ahead of this one…"
            caller.run(show, 0.0, text=text)
        elif phase == FETCHING:
            fraction = min(1.0, done / total) if total else 0.0
            text = f"Fetching {repo}: {done / 1e6:,.1f} of {total / 1e6:,.1f} MB"
            if done >= total:
                text = f"Reading {repo}…"
            caller.run(show, fraction, text=text)

    return report
