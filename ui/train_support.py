"""Tokenizer files the Train page loads, as runs; the byte-symbol preview of a text.

Reading the files is the engine's (`explorer.loading`: .model with or without its
history JSON, merges JSON, tokenizer.json, .tiktoken, GPT-2's encoder.json and
vocab.bpe); here each loaded tokenizer becomes a RunSpec. No Streamlit calls here.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from explorer import MergeHistory, Tokenizer
from explorer.file_kinds import FILE_SUFFIXES, MODEL_KINDS
from explorer.loading import AUTO, LoadedTokenizer, load_uploads
from explorer.pretokenize import preset_name
from explorer.render import render_token, token_colors
from ui.run_spec import RunKind, RunSpec, run_name, text_key

# --- tokenizers made elsewhere: read by explorer.loading, kept here as runs ------------------

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
    """The runs of the tokenizers in uploaded files (see explorer.loading.load_uploads).

    A .model or merges JSON becomes a "model" run, or a "model_history" run when its
    history JSON comes with it; the rest become "imported" runs that keep tokenizer.json
    text. Raises the first file's FormatError, which names the file.
    """
    loaded = load_uploads(files, tiktoken_pattern=tiktoken_pattern, earlier=earlier)
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


def byte_symbol_html(tokenizer: Tokenizer, ids: list[int]) -> str:
    """Tokens as GPT-2 byte-symbol chips (Ġ for a space), coloured like the Tokens page."""
    colors = token_colors(tokenizer, ids)
    chips = [
        f'<span style="background:{color}">'
        f"{html.escape(render_token(tokenizer.token_bytes(token), byte_symbols=True))}</span>"
        for token, color in zip(ids, colors)
    ]
    style = (
        "<style>.bpe-sym{font-family:ui-monospace,Menlo,Consolas,monospace;line-height:2.1;"
        "color:#1A1A1A;overflow-wrap:anywhere}.bpe-sym span{border-radius:3px;padding:1px 3px;"
        "margin-right:3px}</style>"
    )
    return f'{style}<div class="bpe-sym">{"".join(chips)}</div>'


def loaded_source(model_name: str, history_name: str) -> str:
    """What the sidebar calls a .model loaded with its history.

    >>> loaded_source("big.model", "big.history.json")
    'big.model with its merge history (big.history.json), trained outside the app'
    """
    return f"{model_name} with its merge history ({history_name}), trained outside the app"
