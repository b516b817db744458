"""Which of a Hub repo's files this app reads, and the server's Hub settings (no network here).

A repo on the Hugging Face Hub holds weights, configs and, for a tokenizer, one of three
kinds of file this app reads (`explorer.models.reading`): a `tokenizer.json` (with its
`tokenizer_config.json` when the repo has one), Mistral's `tekken.json`, or a tiktoken
rank file named `tokenizer.model` (Meta's Llama 3 repos keep it as `original/tokenizer.model`).
A `tokenizer.model` may also be SentencePiece's binary protobuf, which this app does not
read: only its content tells, once it is here.

    >>> choose_files(["config.json", "tokenizer.json", "tokenizer_config.json", "x.safetensors"])
    ('tokenizer.json', 'tokenizer_config.json')
    >>> choose_files(["params.json", "tekken.json"]), choose_files(["original/tokenizer.model"])
    (('tekken.json',), ('original/tokenizer.model',))
    >>> choose_files(["config.json", "model.safetensors"])
    ()
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from explorer.files.errors import FormatError

TOKENIZER_JSON = "tokenizer.json"
CONFIG_JSON = "tokenizer_config.json"
TEKKEN_JSON = "tekken.json"
RANK_FILES = ("tokenizer.model", "original/tokenizer.model")  # tiktoken's format, or not
READ_FILES = f"{TOKENIZER_JSON}, {TEKKEN_JSON} or a tiktoken-format tokenizer.model"

HUB_SETTING = "BPE_EXPLORER_HUB"  # "off": this server never fetches; its cache still opens
OFF = ("0", "off", "false", "no")
# the Hub's own rule for repo ids: ORG/NAME (or NAME alone, for the oldest), letters,
# digits, "-", "_", "."; no "--" or ".." and at most 96 characters
_REPO_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,96}(?:/[A-Za-z0-9_.\-]{1,96})?")
SHOWN_NAME_CHARS = 60


class HubError(FormatError):
    """A Hub model that cannot be opened, in one plain sentence (never a token, never a URL)."""


@dataclass(frozen=True)
class HubFiles:
    """The tokenizer files of one commit of a repo: the tokenizer file first, then its
    tokenizer_config.json; `sizes` in bytes, as the Hub lists them (None: not listed,
    as for a repo read from the cache alone)."""

    repo: str
    commit: str
    files: tuple[str, ...]
    sizes: tuple[int | None, ...]

    @property
    def total_bytes(self) -> int:
        """The bytes to fetch, as far as they are known.

        >>> HubFiles("a/b", "c" * 40, ("tokenizer.json",), (5,)).total_bytes
        5
        """
        return sum(size or 0 for size in self.sizes)


def check_repo_name(name: str) -> str:
    """A Hub model's name as typed, trimmed, or a HubError saying how to write one.

    >>> check_repo_name("  Qwen/Qwen3-0.6B "), check_repo_name("gpt2")
    ('Qwen/Qwen3-0.6B', 'gpt2')
    >>> check_repo_name("https://huggingface.co/Qwen/Qwen3-0.6B")  # doctest: +ELLIPSIS
    'Qwen/Qwen3-0.6B'
    >>> check_repo_name("a/b/c")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.models.hub_files.HubError: 'a/b/c' is not a Hub model's name: write it as ORG/NAME, ...
    """
    trimmed = name.strip()
    for prefix in ("https://huggingface.co/", "http://huggingface.co/", "huggingface.co/"):
        if trimmed.startswith(prefix):  # a model page's address, pasted
            trimmed = trimmed[len(prefix) :].strip("/")
    if not trimmed:
        raise HubError("Write a Hub model's name, as Qwen/Qwen3-0.6B.")
    valid = _REPO_NAME.fullmatch(trimmed) and "--" not in trimmed and ".." not in trimmed
    if not valid or trimmed.startswith(("-", ".")) or trimmed.endswith(("-", ".")):
        raise HubError(
            f"{shown_name(trimmed)} is not a Hub model's name: write it as ORG/NAME, as "
            "Qwen/Qwen3-0.6B (letters, digits, '-', '_' and '.')."
        )
    return trimmed


def shown_name(name: str) -> str:
    """A name as a message quotes it: its start only, in quotes.

    >>> shown_name("x" * 100)[-3:]
    "x…'"
    """
    cut = name if len(name) <= SHOWN_NAME_CHARS else f"{name[:SHOWN_NAME_CHARS]}…"
    return repr(cut)


def choose_files(names: Iterable[str]) -> tuple[str, ...]:
    """The files of a repo this app reads, in the order it reads them (() when none)."""
    present = set(names)
    if TOKENIZER_JSON in present:
        return (TOKENIZER_JSON, CONFIG_JSON) if CONFIG_JSON in present else (TOKENIZER_JSON,)
    if TEKKEN_JSON in present:
        return (TEKKEN_JSON,)
    return next(((name,) for name in RANK_FILES if name in present), ())


def fetching_allowed(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this server may fetch from the Hub: not when BPE_EXPLORER_HUB says "off"
    (a class server with no internet), nor when huggingface_hub's own HF_HUB_OFFLINE is set.

    >>> fetching_allowed({}), fetching_allowed({"BPE_EXPLORER_HUB": "off"})
    (True, False)
    >>> fetching_allowed({"HF_HUB_OFFLINE": "1"})
    False
    """
    if environ.get(HUB_SETTING, "on").strip().lower() in OFF:
        return False
    offline = environ.get("HF_HUB_OFFLINE") or environ.get("TRANSFORMERS_OFFLINE") or ""
    return offline.strip().upper() not in ("1", "ON", "YES", "TRUE")


def hub_cache_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """huggingface_hub's cache folder, read now (its own constant is read once, at import):
    HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache/huggingface/hub.

    >>> str(hub_cache_dir({"HF_HUB_CACHE": "/srv/hub"}))
    '/srv/hub'
    >>> str(hub_cache_dir({"HF_HOME": "/srv/hf"}))
    '/srv/hf/hub'
    """
    folder = environ.get("HF_HUB_CACHE") or environ.get("HUGGINGFACE_HUB_CACHE")
    if not folder:
        home = environ.get("HF_HOME") or os.path.join(
            environ.get("XDG_CACHE_HOME") or os.path.join("~", ".cache"), "huggingface"
        )
        folder = os.path.join(home, "hub")
    return Path(os.path.expandvars(os.path.expanduser(folder)))


def hub_endpoint(environ: Mapping[str, str] = os.environ) -> str | None:
    """The Hub's address when HF_ENDPOINT names another (a mirror); None: the Hub's own."""
    return environ.get("HF_ENDPOINT") or None


def token_is_set(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether HF_TOKEN (or its old name) is set: messages say so, and never show it."""
    return bool(environ.get("HF_TOKEN") or environ.get("HUGGING_FACE_HUB_TOKEN"))
