"""The open-weight models' tokenizer.json files in ../shared, each read once per test session.

Shared by the tests of explorer/models: our model and the `tokenizers` library's own
`Tokenizer.from_file`, the reference every id and decode is held to. Without ../shared the
tests that ask for them skip.
"""

from __future__ import annotations

from functools import cache

from tokenizers import Tokenizer

from explorer.models.hf_model import HfModel, read_tokenizer_json
from tests.conftest import shared_path

HF_MODELS = ("llama3", "qwen3", "deepseek_v3", "gemma3", "llama2")
UDHR_LANGUAGES = [
    "am",
    "ar",
    "bn",
    "de",
    "el",
    "en",
    "es",
    "fa",
    "fr",
    "he",
    "hi",
    "hy",
    "ja",
    "ka",
    "km",
    "ko",
    "my",
    "ru",
    "si",
    "sw",
    "ta",
    "te",
    "th",
    "tr",
    "vi",
    "zh",
]


def hf_model(name: str) -> HfModel:
    """Ours, with its tokenizer_config.json, as AutoTokenizer would read the pair."""
    folder = shared_path("reference", "open-weight", name)
    return _ours(str(folder))


def reference(name: str) -> Tokenizer:
    """The tokenizers library's own reading of the same file."""
    folder = shared_path("reference", "open-weight", name)
    return _theirs(str(folder))


def udhr(language: str) -> str:
    return shared_path("udhr", f"{language}.txt").read_text("utf-8")


@cache
def _ours(folder: str) -> HfModel:
    with open(f"{folder}/tokenizer.json", encoding="utf-8") as handle:
        text = handle.read()
    with open(f"{folder}/tokenizer_config.json", encoding="utf-8") as handle:
        config = handle.read()
    return read_tokenizer_json(text, config_text=config)


@cache
def _theirs(folder: str) -> Tokenizer:
    return Tokenizer.from_file(f"{folder}/tokenizer.json")
