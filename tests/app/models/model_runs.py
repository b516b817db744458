"""The open-weight models of ../shared/reference/open-weight/ as the session's run, and the
reference libraries' ids every page's counts are held to.

A model's run is made as the Train page's loader makes it (`open_model`, then
`opened_model_run`: the run keeps the file's texts, and the app reads them again through
`loaded_model_cached`, in a child for a large file). Without ../shared the tests skip.
"""

from __future__ import annotations

from functools import cache

import tiktoken
from streamlit.testing.v1 import AppTest
from tiktoken.load import load_tiktoken_bpe
from tokenizers import Tokenizer as HfTokenizer

from explorer.models.opening import RankSettings, open_model
from tests.app_support import open_app, use_run
from tests.conftest import shared_path
from ui.session.run_spec import RunSpec
from ui.train.tokenizer_files import opened_model_run

# folder, the tokenizer file, its tokenizer_config.json ("" when none)
MODELS = {
    "llama3": ("llama3", "tokenizer.json", "tokenizer_config.json"),
    "llama3_ranks": ("llama3", "tokenizer.model", ""),
    "qwen3": ("qwen3", "tokenizer.json", "tokenizer_config.json"),
    "deepseek_v3": ("deepseek_v3", "tokenizer.json", "tokenizer_config.json"),
    "gemma3": ("gemma3", "tokenizer.json", "tokenizer_config.json"),
    "llama2": ("llama2", "tokenizer.json", "tokenizer_config.json"),
    "mistral": ("mistral", "tekken_240911.json", ""),
}
LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)


@cache
def model_run(key: str) -> tuple[RunSpec, tuple[str, ...]]:
    """The run the loader makes of a model's files, and the texts it keeps."""
    folder, file_name, config_name = MODELS[key]
    path = shared_path("reference", "open-weight", folder)
    text = (path / file_name).read_text("utf-8")
    config = (config_name, (path / config_name).read_text("utf-8")) if config_name else None
    loaded = opened_model_run(open_model(file_name, text, config, RankSettings()))
    return loaded.spec, loaded.texts


def open_with_model(key: str, page: str, timeout: float = 600) -> AppTest:
    """The app on `page` with the model's run chosen in the sidebar."""
    spec, texts = model_run(key)
    app = open_app(page)
    app.default_timeout = timeout
    use_run(app, spec, texts)
    return app


def reference_ids(key: str, text: str) -> list[int]:
    """The reference library's ids for a text: `tokenizers` for a tokenizer.json, tiktoken
    for a rank file (Llama 3's pattern, from its package's code), and mistral-common's
    numbering for tekken (tiktoken's ranks + 1000, no special tokens read from text)."""
    folder, file_name, _ = MODELS[key]
    path = shared_path("reference", "open-weight", folder, file_name)
    if file_name == "tokenizer.json":
        return list(_hf(str(path)).encode(text, add_special_tokens=False).ids)
    if file_name == "tokenizer.model":
        return _llama3_ranks(str(path)).encode(text, disallowed_special=())
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    return list(Tekkenizer.from_file(str(path)).encode(text, bos=False, eos=False))


@cache
def _hf(path: str) -> HfTokenizer:
    return HfTokenizer.from_file(path)


@cache
def _llama3_ranks(path: str) -> tiktoken.Encoding:
    return tiktoken.Encoding(
        "llama3", pat_str=LLAMA3_PATTERN, mergeable_ranks=load_tiktoken_bpe(path), special_tokens={}
    )
