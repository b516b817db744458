"""A model named on the Hub (`Qwen/Qwen3-0.6B`), read from huggingface_hub's own cache.

Compare takes Hub names beside the session's tokenizers. Fetching a repo's files (sizes
checked first, one download at a time, in a child) is the hub-open branch's work (its
`ui.session.hub_opening.hub_model(name) -> LoadedModel`, the same face as `hub_model`
here, replaces this module when both land: ui/compare/models/choices.py imports it);
until then a name opens when its tokenizer files are in the server's Hub cache
(`huggingface_hub.try_to_load_from_cache`, which reads the cache and never the network;
`HF_HUB_CACHE` names it), and otherwise gets one sentence saying so. The files are read
by explorer/models/opening.py as any upload is, a large one in a child Python, and the
model is kept once per process for every session.

    >>> hub_name_problem("Qwen/Qwen3-0.6B") is None, hub_name_problem("../etc")[:30]
    (True, '“../etc” is not a Hub model na')
"""

from __future__ import annotations

import os
from pathlib import Path

import regex

from explorer.models.model import LoadedModel
from explorer.models.opening import RankSettings
from ui.server.heavy_work import in_a_child, reads_here
from ui.server.lru import SharedLru
from ui.session.model_texts import read_model_texts, settings_json

# what a repo names its tokenizer, in the order it is looked for (a tokenizer.json with
# its tokenizer_config.json; Mistral's tekken; a tiktoken-format rank file)
TOKENIZER_FILES = ("tokenizer.json", "tekken.json", "tokenizer.model")
CONFIG_FILE = "tokenizer_config.json"
# huggingface_hub's rule for a repo id: owner/name, letters, digits, - _ . (96 at most)
_HUB_NAME = regex.compile(r"[A-Za-z0-9][\w.\-]{0,95}/[A-Za-z0-9][\w.\-]{0,95}")
_models = SharedLru(4)  # name -> LoadedModel: one read per process, shared read only


class HubModelError(ValueError):
    """A Hub name that cannot be opened here, in one sentence."""


def hub_name_problem(name: str) -> str | None:
    """Why `name` is not a Hub model name (None when it is one)."""
    if _HUB_NAME.fullmatch(name) and ".." not in name:
        return None
    shown = name if len(name) <= 60 else f"{name[:60]}…"
    return (
        f"“{shown}” is not a Hub model name: write it as owner/name, for example Qwen/Qwen3-0.6B."
    )


def cached_files(name: str) -> tuple[Path, Path | None] | None:
    """The repo's tokenizer file and its tokenizer_config.json in the Hub cache (None:
    none of TOKENIZER_FILES is there)."""
    from huggingface_hub import try_to_load_from_cache  # the Hub client: when a name comes

    cache_dir = os.environ.get("HF_HUB_CACHE") or None
    for file_name in TOKENIZER_FILES:
        found = try_to_load_from_cache(name, file_name, cache_dir=cache_dir)
        if isinstance(found, str):
            config = try_to_load_from_cache(name, CONFIG_FILE, cache_dir=cache_dir)
            partner = (
                Path(config) if isinstance(config, str) and file_name.endswith("json") else None
            )
            return Path(found), partner
    return None


def hub_texts(name: str) -> tuple[str, str, str]:
    """A Hub model's run texts (ui/session/model_texts.py): its files as the cache has them."""
    problem = hub_name_problem(name)
    if problem:
        raise HubModelError(problem)
    found = cached_files(name)
    if found is None:
        raise HubModelError(
            f"{name} is not in this server's Hub cache yet: open it once by its name on "
            "the Train page, which fetches its tokenizer files."
        )
    path, config = found
    files = (f"{name}/{path.name}",) + (() if config is None else (f"{name}/{config.name}",))
    texts = (
        path.read_text(encoding="utf-8"),
        "" if config is None else config.read_text(encoding="utf-8"),
        settings_json(files, RankSettings()),
    )
    return texts


def hub_model(name: str) -> LoadedModel:
    """The model a Hub name opens, read once per process (a large file by a child Python).

    Raises HubModelError (a sentence) for a name that is not one or is not in the cache,
    and the reader's FormatError for a file it cannot read.
    """

    def read() -> LoadedModel:
        texts = hub_texts(name)
        if reads_here(*texts):
            return read_model_texts(texts)
        return in_a_child(read_model_texts, texts)

    return _models.get_or_make(name, read, lambda model: 1)
