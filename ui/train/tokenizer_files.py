"""Tokenizer files the Train page loads, as runs, and the uploader that loads them.

Reading the files is the engine's (`explorer.files.loading`: .model with or without its
history JSON, merges JSON, tokenizer.json, .tiktoken, GPT-2's encoder.json and
vocab.bpe); here each loaded tokenizer becomes a RunSpec, and `load_model_form` is the
Train page's uploader for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from explorer import MergeHistory, Tokenizer
from explorer.encoding.pretokenize import preset_name
from explorer.files.file_kinds import FILE_SUFFIXES, MODEL_KINDS
from explorer.files.loading import AUTO, LoadedTokenizer, load_uploads
from ui.server.child_jobs import JobCancelled
from ui.server.heavy_work import in_a_child, reads_here
from ui.session import state as keys
from ui.session.run_cache import history_run_cached, imported_cached
from ui.session.run_spec import RunKind, RunSpec, run_name, text_key
from ui.session.runs import add_run
from ui.views.formatting import markdown_text

# --- tokenizers made elsewhere: read by explorer.files.loading, kept here as runs -----------

LOADER_TYPES = list(FILE_SUFFIXES)
TIKTOKEN_PATTERNS = (AUTO, "gpt4", "o200k", "gpt2", "none")
TIKTOKEN_LABELS = {
    AUTO: "From the file name (cl100k → gpt4, o200k → o200k, r50k / p50k → gpt2; else gpt4)",
    "gpt4": "gpt4: GPT-4's regex (cl100k)",
    "o200k": "o200k: GPT-4o's regex",
    "gpt2": "gpt2: GPT-2's regex",
    "none": "none: the text is one chunk",
}


@dataclass(frozen=True)
class Loaded:
    """A tokenizer read from files: its run, the run's documents, the tokenizer, and the
    merge history when a .model came with one."""

    spec: RunSpec
    texts: tuple[str, ...]
    tokenizer: Tokenizer
    history: MergeHistory | None = None


def tokenizer_uploads(
    files: Sequence[tuple[str, bytes]],
    *,
    tiktoken_pattern: str = AUTO,
    earlier: Sequence[tuple[str, bytes]] = (),
) -> list[Loaded]:
    """The runs of the tokenizers in uploaded files (see explorer.files.loading.load_uploads).

    A .model or merges JSON becomes a "model" run, or a "model_history" run when its
    history JSON comes with it; the rest become "imported" runs that keep tokenizer.json
    text. Raises the first file's FormatError, which names the file; large files are
    read by a child Python (ui.server.heavy_work), which may raise ServerBusy.
    """
    if reads_here(*(data for _, data in [*files, *earlier])):
        loaded = load_uploads(files, tiktoken_pattern=tiktoken_pattern, earlier=earlier)
    else:  # megabytes of ranks: read by a child Python, not the interpreter of every page
        loaded = in_a_child(
            load_uploads, list(files), tiktoken_pattern=tiktoken_pattern, earlier=list(earlier)
        )
    return [_as_run(item) for item in loaded]


def _as_run(item: LoadedTokenizer) -> Loaded:
    """A loaded tokenizer as a run that keeps its texts."""
    if item.history is not None:
        kind, source = RunKind.MODEL_HISTORY, loaded_source(*item.files)
    else:
        kind = RunKind.MODEL if item.kind in MODEL_KINDS else RunKind.IMPORTED
        source = item.source
    tokenizer, named_by = item.tokenizer, item.files[0]
    pattern = preset_name(tokenizer.pattern) or tokenizer.pattern
    stem = named_by.rsplit(".", 1)[0].removesuffix(".tokenizer") or named_by  # x.tokenizer.json
    spec = RunSpec(
        name=run_name(stem, pattern, tokenizer.vocab_size),
        source=source,
        text_key=text_key(item.texts),
        vocab_size=tokenizer.vocab_size,
        pattern=pattern,
        special_tokens=tuple(tokenizer.special_tokens),
        kind=kind,
    )
    return Loaded(spec, item.texts, tokenizer, item.history)


# --- downloads -----------------------------------------------------------------------------


# --- text for people ---------------------------------------------------------------------


# --- progress ------------------------------------------------------------------------------


# --- the merge log -------------------------------------------------------------------------


# --- the tokenized preview -----------------------------------------------------------------


def loaded_source(model_name: str, history_name: str) -> str:
    """What the sidebar calls a .model loaded with its history.

    Neither file says where it was trained (here, then downloaded, or on the command
    line), so the name says only what was loaded.

    >>> loaded_source("big.model", "big.history.json")
    'big.model with its merge history (big.history.json)'
    """
    return f"{model_name} with its merge history ({history_name})"


# --- the Train page's uploader -------------------------------------------------------


def load_model() -> None:
    """The loader's callback: add the newly uploaded files as runs, or keep why they failed.

    Files already loaded stay in the uploader; only new ones are read, so a failed
    half of GPT-2's pair (or a history without its .model) is read again with the other
    half. A history uploaded after its .model finds it among the files already loaded.
    """
    state = st.session_state
    state.pop(keys.TRAIN_MODEL_ERROR, None)
    uploads = state.get(keys.TRAIN_MODEL_UPLOAD) or []
    done: frozenset[str] = state.get(keys.TRAIN_MODEL_LOADED, frozenset())
    new = [upload for upload in uploads if upload.file_id not in done]
    if not new:
        return
    try:
        loaded = tokenizer_uploads(
            [(upload.name, upload.getvalue()) for upload in new],
            tiktoken_pattern=state.get(keys.TRAIN_TIKTOKEN_PATTERN, AUTO),
            earlier=[(file.name, file.getvalue()) for file in uploads if file.file_id in done],
        )
    except ValueError as exc:  # the loaders' errors name the file and what is wrong
        state[keys.TRAIN_MODEL_ERROR] = str(exc)
        return
    except JobCancelled:  # the session has gone while a child read the files
        return
    for item in loaded:  # read once: keep what was parsed
        if item.spec.kind is RunKind.IMPORTED:
            imported_cached(item.spec.text_key, item.texts[0], item.tokenizer)
        if item.history is not None:  # then its texts are the .model's and the history's
            model_text, history_text = item.texts
            parsed = (item.tokenizer, item.history)
            history_run_cached(item.spec.text_key, model_text, history_text, parsed)
        add_run(item.spec, item.texts)
    state[keys.TRAIN_MODEL_LOADED] = done | {upload.file_id for upload in new}


def load_model_form() -> None:
    with st.expander(
        "Load a saved tokenizer (.model with or without its history, tokenizer.json, "
        ".tiktoken, GPT-2's files)",
        expanded=keys.TRAIN_MODEL_ERROR in st.session_state,
    ):
        st.file_uploader(
            "A minbpe .model (such as one downloaded below) or merges JSON, with its "
            "history JSON to explore every step (`python -m explorer train` writes X.model "
            "and X.history.json: upload both); a Hugging Face tokenizer.json (byte-level "
            "BPE); a tiktoken .tiktoken file; or GPT-2's encoder.json and vocab.bpe, both "
            "at once",
            type=LOADER_TYPES,
            accept_multiple_files=True,
            key=keys.TRAIN_MODEL_UPLOAD,
            on_change=load_model,
        )
        st.selectbox(
            "Pre-tokenizer for a .tiktoken file",
            TIKTOKEN_PATTERNS,
            format_func=TIKTOKEN_LABELS.__getitem__,
            key=keys.TRAIN_TIKTOKEN_PATTERN,
            help="A .tiktoken file lists only tokens and ranks, so choose the regex it was "
            "made with. OpenAI's own files are recognised, with their special tokens.",
            persist_state="session",
        )
        if keys.TRAIN_MODEL_ERROR in st.session_state:
            st.error(
                f"This file cannot be loaded: "
                f"{markdown_text(str(st.session_state[keys.TRAIN_MODEL_ERROR]))}"
            )
