"""A real model's run as texts the session and the server's disk keep (no Streamlit here).

A loaded model's run keeps three texts, so a link after a restart reads it again: the
tokenizer file's text, its tokenizer_config.json's ("" when none came with it), and the
reading's settings as JSON (the file names, and the pattern and special tokens the user
gave for a rank file nobody knows).

    >>> texts = ("IQ== 0", "", settings_json(("ranks.model",), RankSettings("gpt2", {"<s>": 1})))
    >>> read_settings(texts)
    (('ranks.model',), RankSettings(pattern='gpt2', special_tokens={'<s>': 1}))
"""

from __future__ import annotations

import json

from explorer.models.model import LoadedModel
from explorer.models.opening import OpenedModel, RankSettings, open_model
from ui.session.run_spec import size_label


def settings_json(files: tuple[str, ...], settings: RankSettings) -> str:
    """The reading's settings as the run's third text."""
    values = {
        "files": list(files),
        "pattern": settings.pattern,
        "special_tokens": dict(settings.special_tokens),
    }
    return json.dumps(values, ensure_ascii=False, sort_keys=True)


def model_texts(opened: OpenedModel) -> tuple[str, str, str]:
    """What a run keeps of a model read from files (see the module docstring)."""
    config = opened.texts[1] if len(opened.texts) > 1 else ""
    return opened.texts[0], config, settings_json(opened.files, opened.settings)


def read_settings(texts: tuple[str, ...]) -> tuple[tuple[str, ...], RankSettings]:
    """The file names and the settings kept in a model run's third text; ValueError if
    it is not one."""
    try:
        values = json.loads(texts[2])
        files = tuple(str(name) for name in values["files"])
        specials = {str(k): int(v) for k, v in dict(values["special_tokens"]).items()}
        return files, RankSettings(str(values["pattern"]), specials)
    except (IndexError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"this run's settings cannot be read ({exc})") from None


def model_run_name(file_name: str, kind: str, vocab_size: int, base: str, normalizer: str) -> str:
    """A real model's run as the sidebar names it: its file (and the file's kind when the
    name does not say it), its ids, its base symbols and a short normalizer.

    >>> model_run_name("tokenizer.json", "tokenizer.json", 151_669, "bytes", "NFC")
    'tokenizer.json · 151,669 ids · bytes · NFC'
    >>> model_run_name("tokenizer.model", "tiktoken ranks", 128_256, "bytes", "")
    'tokenizer.model · tiktoken ranks · 128,256 ids · bytes'
    """
    name = file_name.rsplit("/", 1)[-1]
    shown_kind = "" if kind in name else f" · {kind}"
    shown_normalizer = f" · {normalizer}" if 0 < len(normalizer) <= 20 else ""
    return f"{name}{shown_kind} · {size_label(vocab_size)} ids · {base}{shown_normalizer}"


def read_model_texts(texts: tuple[str, ...]) -> LoadedModel:
    """The model a run's texts describe, read again (in a child for a large file)."""
    files, settings = read_settings(texts)
    config = (files[1], texts[1]) if len(files) > 1 else None
    return open_model(files[0], texts[0], config, settings).model
