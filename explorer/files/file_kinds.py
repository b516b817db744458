"""Tell what a tokenizer file holds, and which files belong together.

A file's kind comes from its content first: a first line "minbpe v1" is minbpe's
`.model`, a first line `BASE64TOKEN RANK` a tiktoken rank file whatever its name (Meta's
Llama 3 ships one as `tokenizer.model`), a JSON object with `config` and a `vocab` list
Mistral's tekken file. Then from its name, then from its JSON. Two kinds
need a partner: GPT-2's `encoder.json` goes with its `vocab.bpe`, and a merge history
(`X.history.json`, as `python -m explorer train` writes it) with the `.model` it was
trained with, paired by file name.

    >>> detect_file_kind("cl100k_base.tiktoken", ""), detect_file_kind("x", "#version: 0.2")
    (<FileKind.TIKTOKEN: 'tiktoken'>, <FileKind.VOCAB_BPE: 'vocab_bpe'>)
    >>> pair_histories(["big.model", "small.model"], ["small.history.json"])
    {'small.history.json': 'small.model'}
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

import regex

from explorer.files.errors import FormatError
from explorer.files.history_file import FORMAT_NAME as HISTORY_FORMAT
from explorer.files.history_file import HistoryFileError
from explorer.files.json_text import load_json


class FileKind(str, Enum):
    """What a tokenizer file holds; the value is a plain name, as "tokenizer_json"."""

    MODEL = "model"  # minbpe's .model
    MERGES_JSON = "merges_json"  # {"(97, 97)": 256, ...}, as explorer.files.formats writes it
    HISTORY_JSON = "history_json"  # a merge history (explorer.files.history_file)
    TOKENIZER_JSON = "tokenizer_json"  # Hugging Face's tokenizer.json
    TIKTOKEN = "tiktoken"  # tiktoken's ranks: base64 token and rank, one a line
    TEKKEN = "tekken"  # Mistral's tekken JSON: config (pattern, sizes) and ranked token bytes
    ENCODER_JSON = "encoder_json"  # GPT-2's token -> id
    VOCAB_BPE = "vocab_bpe"  # GPT-2's merges, one 'LEFT RIGHT' a line


MODEL_KINDS = (FileKind.MODEL, FileKind.MERGES_JSON)  # the kinds a history can go with
GPT2_KINDS = (FileKind.ENCODER_JSON, FileKind.VOCAB_BPE)  # GPT-2's pair
FILE_SUFFIXES = ("model", "json", "tiktoken", "bpe", "txt")  # what the files are named
HISTORY_SUFFIXES = (".history.json", "-history.json", "_history.json")  # CLI, app download
MODEL_SUFFIXES = (".model", ".json")
_MERGE_KEY = regex.compile(r"\(\s*[0-9]+\s*,\s*[0-9]+\s*\)")
_TIKTOKEN_LINE = regex.compile(r"[A-Za-z0-9+/]+=*[ \t]+[0-9]+")
_FIRST_KEY = regex.compile(r'\A\ufeff?\s*\{\s*"([a-z_]{1,20})"\s*:')
# the key that opens each writer's file: tokenizers (serde) writes "version" first, and
# mistral-common "config": known without parsing 9-33 MB of JSON a second time
_OPENING_KEYS = {"version": ("tokenizer_json", '"model"'), "config": ("tekken", '"vocab"')}


def detect_file_kind(name: str, text: str) -> FileKind:
    """What a tokenizer file holds, from its first line, its name, then its JSON.

    >>> detect_file_kind("a.model", "").value, detect_file_kind("x.json", '{"model": {}}').value
    ('model', 'tokenizer_json')
    >>> detect_file_kind("tokenizer.model", "IQ== 0\\nIg== 1").value  # Llama 3's rank file
    'tiktoken'
    >>> detect_file_kind("x.json", '{"config": {}, "vocab": []}').value
    'tekken'
    >>> detect_file_kind("x.json", '{"(97, 97)": 256}').value
    'merges_json'
    >>> detect_file_kind("a.history.json", "{").value
    'history_json'
    """
    lower = name.casefold()
    if is_history_name(name):
        return FileKind.HISTORY_JSON
    first = text.removeprefix("\ufeff").lstrip().split("\n", 1)[0].strip()
    if first in ("minbpe v1", "bpe v1"):
        return FileKind.MODEL
    if _TIKTOKEN_LINE.fullmatch(first) or lower.endswith(".tiktoken"):
        return FileKind.TIKTOKEN
    if lower.endswith(".model"):
        return FileKind.MODEL
    if lower.endswith((".bpe", "merges.txt")) or first.startswith("#version"):
        return FileKind.VOCAB_BPE
    if lower.endswith(".json") or first.startswith(("{", "[")):
        opening = _FIRST_KEY.match(text)
        kind, other_key = _OPENING_KEYS.get(opening.group(1) if opening else "", ("", ""))
        if kind and other_key in text:  # and the key that holds the tokens, somewhere
            return FileKind(kind)
        return _json_kind(lower, text)
    raise FormatError(
        f"{name}: this is not a tokenizer file the explorer can tell: load a minbpe .model, "
        "a merges JSON, a Hugging Face tokenizer.json, a tiktoken rank file (.tiktoken, or "
        "Llama 3's tokenizer.model), Mistral's tekken JSON, or GPT-2's encoder.json and "
        "vocab.bpe together."
    )


def _json_kind(name: str, text: str) -> FileKind:
    """Which JSON tokenizer file this is; unreadable JSON goes by the name."""
    named_vocab = "encoder" in name or "vocab" in name
    try:
        value = load_json(text, name)
    except FormatError:  # unreadable, too deep, a number too long: the parser will say so
        if "tokenizer" in name:
            return FileKind.TOKENIZER_JSON
        return FileKind.ENCODER_JSON if named_vocab else FileKind.MERGES_JSON
    if not isinstance(value, dict):
        return FileKind.MERGES_JSON
    if value.get("format") == HISTORY_FORMAT:
        return FileKind.HISTORY_JSON
    if isinstance(value.get("model"), dict):  # GPT-2's encoder.json has a token "model"
        return FileKind.TOKENIZER_JSON
    if isinstance(value.get("config"), dict) and isinstance(value.get("vocab"), list):
        return FileKind.TEKKEN  # an encoder.json's values are ids, never objects or lists
    first = next(iter(value), "")
    if not _MERGE_KEY.fullmatch(first) and (named_vocab or len(value) >= 256):
        return FileKind.ENCODER_JSON
    return FileKind.MERGES_JSON


# --- a .model and its merge history ---------------------------------------------------------


def is_history_name(name: str) -> bool:
    """Whether a file name says it holds a merge history.

    >>> is_history_name("big.history.json"), is_history_name("Big-History.JSON")
    (True, True)
    >>> is_history_name("history.json"), is_history_name("merges.json")
    (False, False)
    """
    lower = name.casefold()
    return any(lower.endswith(suffix) and len(lower) > len(suffix) for suffix in HISTORY_SUFFIXES)


def history_stem(name: str) -> str:
    """The file name a history shares with its .model: `history_stem("big.history.json")`
    is "big", as is `history_stem("big-history.json")` (the app's download)."""
    lower = name.casefold()
    suffix = next((s for s in HISTORY_SUFFIXES if lower.endswith(s)), ".json")
    return name[: -len(suffix)] if lower.endswith(suffix) else name


def model_stem(name: str) -> str:
    """The stem of a .model or merges JSON: `model_stem("big.model") == "big"`."""
    lower = name.casefold()
    suffix = next((s for s in MODEL_SUFFIXES if lower.endswith(s)), "")
    return name[: -len(suffix)] if suffix else name


def pair_histories(
    models: Sequence[str], histories: Sequence[str], earlier: Sequence[str] = ()
) -> dict[str, str]:
    """The .model (by file name) each history belongs to, as {history: model}.

    A history goes with the model of the same stem (big.history.json with big.model),
    looked for first among `models` (given with it), then among `earlier` (loaded
    before). Failing that, one history goes with the one model given with it, or else
    with the one model loaded before. Raises HistoryFileError saying what to load when
    a history has no model or several.

    >>> pair_histories(["a.model"], ["a.history.json"], earlier=["b.model"])
    {'a.history.json': 'a.model'}
    >>> pair_histories([], ["b-history.json"], earlier=["b.model", "c.model"])
    {'b-history.json': 'b.model'}
    >>> pair_histories(["tok.model"], ["renamed.json"])  # a lone pair goes together
    {'renamed.json': 'tok.model'}
    """
    by_stem = {model_stem(name).casefold(): name for name in [*earlier, *models]}
    owners: dict[str, str] = {}
    for history in histories:
        model = by_stem.get(history_stem(history).casefold())
        if model is not None:
            owners[history] = model
    alone = [history for history in histories if history not in owners]
    if len(alone) == 1:
        free_models = [name for name in models if name not in owners.values()]
        free_earlier = [name for name in earlier if name not in owners.values()]
        candidates = free_models or free_earlier
        if len(candidates) == 1:
            owners[alone[0]] = candidates[0]
    for history in histories:
        if history not in owners:
            raise HistoryFileError(_no_model_message(history, [*models, *earlier]))
    _check_one_history_each(owners)
    return {history: owners[history] for history in histories}


def _no_model_message(history: str, models: Sequence[str]) -> str:
    stem = history_stem(history)
    if not models:
        return (
            f"{history} is a merge history, which needs the tokenizer it was trained with: "
            f"upload {stem}.model (written beside it by `python -m explorer train`) together "
            "with it."
        )
    return (
        f"{history}: which .model is it the history of? Name the two files alike, as "
        f"{stem}.model and {stem}.history.json, or load one .model with its history at a time."
    )


def _check_one_history_each(owners: dict[str, str]) -> None:
    """Refuse two histories for one .model: only one of them can be its own."""
    seen: dict[str, str] = {}
    for history, model in owners.items():
        if model in seen:
            raise HistoryFileError(
                f"{seen[model]} and {history} are both histories of {model}; "
                "upload only the one written with it."
            )
        seen[model] = history
