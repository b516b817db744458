"""Tokenizer files the Train page loads: which format a file is, and the runs it makes.

.model files and merges JSON (with or without the history JSON the command line
writes), Hugging Face tokenizer.json, .tiktoken files, and GPT-2's encoder.json and
vocab.bpe; the byte-symbol preview of the training text. No Streamlit calls here.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

import regex

from explorer import FormatError, MergeHistory, Tokenizer, parse_model
from explorer.bundled import BUNDLED
from explorer.exports import tokenizer_json
from explorer.formats import model_text, parse_merges_json
from explorer.history_file import FORMAT_NAME as HISTORY_FORMAT
from explorer.imports import parse_gpt2, parse_tiktoken
from explorer.imports_hf import parse_tokenizer_json
from explorer.pretokenize import PRESETS, preset_name, resolve_pattern
from explorer.render import render_token, token_colors
from ui.history_runs import (
    HISTORY_KIND,
    is_history_name,
    loaded_source,
    pair_histories,
    parse_history_for,
)
from ui.runs import RunSpec, run_name, text_key
from ui.train_form import InputError, decode_upload

# --- inputs --------------------------------------------------------------------------------


# --- runs --------------------------------------------------------------------------------


def model_upload(name: str, data: bytes) -> tuple[RunSpec, str]:
    """A run for an uploaded .model file or merges JSON, and the run's one "document".

    The document is .model text either way. A merges JSON (`{"(97,97)": 256, ...}`, as
    explorer.formats.merges_json writes it) holds no pattern, so it loads with none. A
    malformed file raises FormatError naming the line or key at fault; an empty or
    non-UTF-8 one, InputError.
    """
    loaded = _model_file(
        name, decode_upload(name, data), json_file=name.casefold().endswith(".json")
    )
    return loaded.spec, loaded.texts[0]


def _model_file(name: str, text: str, *, json_file: bool) -> Loaded:
    if json_file:
        tokenizer = merges_upload(name, text)
        text = model_text(tokenizer)  # the run keeps .model text, as for a .model file
    else:
        tokenizer = parse_model(text, source=name)
    return _loaded(name, name, text, tokenizer, "model")


def _loaded(stem_of: str, source: str, text: str, tokenizer: Tokenizer, kind: str) -> Loaded:
    """A loaded tokenizer as a run of `kind` that keeps `text` as its one document."""
    pattern = preset_name(tokenizer.pattern) or tokenizer.pattern
    stem = stem_of.rsplit(".", 1)[0].removesuffix(".tokenizer") or stem_of  # x.tokenizer.json
    spec = RunSpec(
        name=run_name(stem, pattern, tokenizer.vocab_size),
        source=source,
        text_key=text_key((text,)),
        vocab_size=tokenizer.vocab_size,
        pattern=pattern,
        special_tokens=tuple(tokenizer.special_tokens),
        kind=kind,
    )
    return Loaded(spec, (text,), tokenizer)


def merges_upload(name: str, text: str) -> Tokenizer:
    """A merges JSON's tokenizer; its errors name the file."""
    try:
        return parse_merges_json(text)
    except FormatError as exc:
        raise FormatError(f"{name}: {exc}") from None


# --- tokenizers made elsewhere: tokenizer.json, .tiktoken, GPT-2's two files ----------------

LOADER_TYPES = ["model", "json", "tiktoken", "bpe", "txt"]
AUTO = "auto"
TIKTOKEN_PATTERNS = (AUTO, "gpt4", "o200k", "gpt2", "none")
TIKTOKEN_LABELS = {
    AUTO: "From the file name (cl100k → gpt4, o200k → o200k, r50k / p50k → gpt2; else gpt4)",
    "gpt4": "gpt4: GPT-4's regex (cl100k)",
    "o200k": "o200k: GPT-4o's regex",
    "gpt2": "gpt2: GPT-2's regex",
    "none": "none: the text is one chunk",
}
_NAME_HINTS = (("o200k", "o200k"), ("cl100k", "gpt4"), ("r50k", "gpt2"), ("p50k", "gpt2"))
_NAME_HINTS += (("gpt2", "gpt2"),)
_MERGE_KEY = regex.compile(r"\(\s*[0-9]+\s*,\s*[0-9]+\s*\)")
_TIKTOKEN_LINE = regex.compile(r"[A-Za-z0-9+/]+=*[ \t]+[0-9]+")
GPT2_FILES = ("encoder_json", "vocab_bpe")


MODEL_FILES = ("model", "merges_json")  # file kinds a history can go with


@dataclass(frozen=True)
class Loaded:
    """A tokenizer read from files: its run, the run's documents, the tokenizer, and the
    merge history when a .model came with one."""

    spec: RunSpec
    texts: tuple[str, ...]
    tokenizer: Tokenizer
    history: MergeHistory | None = None


def file_kind(name: str, text: str) -> str:
    """What a tokenizer file holds, from its name and then its first line or its JSON.

    One of "model", "merges_json", "history_json", "tokenizer_json", "tiktoken",
    "encoder_json", "vocab_bpe".

    >>> file_kind("a.model", ""), file_kind("cl100k_base.tiktoken", ""), file_kind("x", "#version")
    ('model', 'tiktoken', 'vocab_bpe')
    >>> file_kind("x.json", '{"model": {}}'), file_kind("x.json", '{"(97, 97)": 256}')
    ('tokenizer_json', 'merges_json')
    >>> file_kind("a.history.json", "{"), file_kind("x.json", '{"format": "%s"}' % HISTORY_FORMAT)
    ('history_json', 'history_json')
    """
    lower = name.casefold()
    if is_history_name(name):
        return "history_json"
    first = text.removeprefix("\ufeff").lstrip().split("\n", 1)[0].strip()
    if lower.endswith(".model") or first in ("minbpe v1", "bpe v1"):
        return "model"
    if lower.endswith(".tiktoken"):
        return "tiktoken"
    if lower.endswith((".bpe", "merges.txt")) or first.startswith("#version"):
        return "vocab_bpe"
    if lower.endswith(".json") or first.startswith(("{", "[")):
        return _json_kind(lower, text)
    if _TIKTOKEN_LINE.fullmatch(first):
        return "tiktoken"
    raise InputError(
        f"{name}: this is not a tokenizer file the explorer can tell: load a minbpe .model, "
        "a merges JSON, a Hugging Face tokenizer.json, a tiktoken .tiktoken file, or GPT-2's "
        "encoder.json and vocab.bpe together."
    )


def _json_kind(name: str, text: str) -> str:
    """Which JSON tokenizer file this is; unreadable JSON goes by the name."""
    named_vocab = "encoder" in name or "vocab" in name
    try:
        value = json.loads(text.removeprefix("\ufeff"))
    except ValueError:
        value = None
        if "tokenizer" in name:
            return "tokenizer_json"
        return "encoder_json" if named_vocab else "merges_json"
    if not isinstance(value, dict):
        return "merges_json"
    if value.get("format") == HISTORY_FORMAT:
        return "history_json"
    if isinstance(value.get("model"), dict):  # GPT-2's encoder.json has a token "model"
        return "tokenizer_json"
    first = next(iter(value), "")
    if not _MERGE_KEY.fullmatch(first) and (named_vocab or len(value) >= 256):
        return "encoder_json"
    return "merges_json"


def tokenizer_uploads(
    files: Sequence[tuple[str, bytes]],
    *,
    tiktoken_pattern: str = AUTO,
    earlier: Sequence[tuple[str, bytes]] = (),
) -> list[Loaded]:
    """The tokenizers in uploaded files, one per file (GPT-2's two files make one, and so
    do a .model and its history).

    .model files and merges JSON become "model" runs, or "model_history" runs when their
    history JSON comes with them (see ui.history_runs.pair_histories; `earlier` are files
    loaded before and still in the uploader, where a history may find its .model); the
    rest become "imported" runs that keep tokenizer.json text. A .tiktoken file holds no
    pattern: `tiktoken_pattern` names one, or AUTO guesses it from the file. Raises the
    first file's error: FormatError (from the engine, naming the file and line),
    HistoryUploadError or InputError.
    """
    kinds = [(name, text, file_kind(name, text)) for name, text in _decoded(files)]
    with_history, paired = _models_with_histories(kinds, earlier)
    loaded = [
        _load_file(name, text, kind, tiktoken_pattern)
        for name, text, kind in kinds
        if name not in paired
    ]
    gpt2 = [(name, text, kind) for name, text, kind in kinds if kind in GPT2_FILES]
    found = [item for item in loaded if item is not None] + with_history
    return found + ([gpt2_upload(gpt2)] if gpt2 else [])


def _models_with_histories(
    kinds: Sequence[tuple[str, str, str]], earlier: Sequence[tuple[str, bytes]]
) -> tuple[list[Loaded], set[str]]:
    """A run for each uploaded history with the .model it goes with (see pair_histories),
    and the names of those models, which are then not loaded alone as well."""
    histories = {name: text for name, text, kind in kinds if kind == "history_json"}
    if not histories:
        return [], set()
    models = {name: (text, kind) for name, text, kind in kinds if kind in MODEL_FILES}
    older: dict[str, tuple[str, str]] = {}
    for name, text in _decoded(earlier):  # loaded before: read only to find a history's model
        kind = file_kind(name, text)
        if kind in MODEL_FILES and name not in models:
            older[name] = (text, kind)
    owners = pair_histories(list(models), list(histories), list(older))
    files = older | models
    runs = [
        model_with_history(model, *files[model], history, histories[history])
        for history, model in owners.items()
    ]
    return runs, set(owners.values())


def model_with_history(
    model_name: str, model_text: str, kind: str, history_name: str, history_text: str
) -> Loaded:
    """A .model (or merges JSON) and its history JSON as one "model_history" run.

    The run keeps both texts, the .model's first. Raises FormatError for a malformed
    file and HistoryUploadError for a history whose merges are not the model's.
    """
    model = _model_file(model_name, model_text, json_file=kind == "merges_json")
    history = parse_history_for(
        model.tokenizer, history_text, model_name=model_name, history_name=history_name
    )
    texts = (model.texts[0], history_text)
    spec = replace(
        model.spec,
        source=loaded_source(model_name, history_name),
        text_key=text_key(texts),
        kind=HISTORY_KIND,
    )
    return Loaded(spec, texts, model.tokenizer, history)


def _decoded(files: Sequence[tuple[str, bytes]]) -> list[tuple[str, str]]:
    return [(name, decode_upload(name, data)) for name, data in files]


def _load_file(name: str, text: str, kind: str, tiktoken_pattern: str) -> Loaded | None:
    """One file's tokenizer; None for half of GPT-2's pair (gpt2_upload reads those) and
    for a history (model_with_history reads it with its .model)."""
    if kind in ("model", "merges_json"):
        return _model_file(name, text, json_file=kind == "merges_json")
    if kind == "tokenizer_json":
        return _loaded(name, name, text, parse_tokenizer_json(text, source=name), "imported")
    if kind == "tiktoken":
        pattern, specials = tiktoken_settings(name, text, tiktoken_pattern)
        tokenizer = parse_tiktoken(text, pattern=pattern, special_tokens=specials, source=name)
        return _loaded(name, name, tokenizer_json(tokenizer), tokenizer, "imported")
    return None


def gpt2_upload(files: Sequence[tuple[str, str, str]]) -> Loaded:
    """GPT-2's encoder.json and vocab.bpe, uploaded together, as one imported tokenizer."""
    encoders = [(name, text) for name, text, kind in files if kind == "encoder_json"]
    merges = [(name, text) for name, text, kind in files if kind == "vocab_bpe"]
    if len(encoders) != 1 or len(merges) != 1:
        names = ", ".join(name for name, _, _ in files)
        raise InputError(
            f"GPT-2's format is two files, encoder.json (token → id) and vocab.bpe (the "
            f"merges); upload one of each together (got {names})."
        )
    (encoder_name, encoder), (bpe_name, bpe) = encoders[0], merges[0]
    tokenizer = parse_gpt2(encoder, bpe, sources=(encoder_name, bpe_name))
    source = f"{encoder_name} + {bpe_name}"
    return _loaded(encoder_name, source, tokenizer_json(tokenizer), tokenizer, "imported")


def tiktoken_settings(name: str, text: str, choice: str = AUTO) -> tuple[str, dict[str, int]]:
    """The pattern and special tokens for a .tiktoken file, which holds neither.

    OpenAI's own files (by sha256) get their published special tokens, and with AUTO
    their pattern; otherwise AUTO goes by the name: `cl100k` → gpt4, `o200k` → o200k.
    """
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    official = next((b for b in BUNDLED.values() if b.files[0][1] == digest), None)
    specials = dict(official.special_tokens) if official else {}
    if choice != AUTO:
        return resolve_pattern(choice), specials
    if official is not None:
        return official.pattern, specials
    lower = name.casefold()
    preset = next((preset for hint, preset in _NAME_HINTS if hint in lower), "gpt4")
    return PRESETS[preset], specials


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
