"""Real models' files through the Train page's uploader: a run, its tokens, a link after restart.

Each file of ../shared/reference/open-weight/ (skipped without it) is uploaded as a person
drops it on the loader (a tokenizer.json with its tokenizer_config.json, both at once);
the page's own callback reads it (large files in a child Python). The run is listed in
the sidebar as a real model's tokenizer, Tokens shows the reference library's ids, the
pages that cannot show a model yet say so in a sentence, and a new session opened with
the run's link reads it again from the server's disk.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from uuid import uuid4

import pytest
import tiktoken
from streamlit.testing.v1 import AppTest
from tokenizers import Tokenizer as HfTokenizer

from tests.app_support import open_app, texts_of
from tests.conftest import shared_path
from ui.session import state as keys
from ui.session.run_cache import loaded_model_cached
from ui.session.run_spec import RunKind

UPLOADER = "train_model_upload"
TEXT = "Hello, world! Ça va? café cafe\u0301 한국어 🙂 12345  spaces\n"
FILES = {  # folder -> the files a person uploads together
    "llama3": ("tokenizer.json", "tokenizer_config.json"),
    "llama3-model": ("tokenizer.model",),
    "qwen3": ("tokenizer.json", "tokenizer_config.json"),
    "deepseek_v3": ("tokenizer.json", "tokenizer_config.json"),
    "gemma3": ("tokenizer.json", "tokenizer_config.json"),
    "llama2": ("tokenizer.json", "tokenizer_config.json"),
    "mistral": ("tekken_240911.json",),
}
LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+"
    r"[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
PAGES = ("front", "train", "tokens", "vocabulary", "animate", "compare")


def folder_of(case: str) -> Path:
    return shared_path("reference", "open-weight", case.removesuffix("-model"))


def reference_ids(case: str, text: str) -> list[int]:
    """The reference library's ids, as SOURCES.md names it for each file."""
    folder = folder_of(case)
    if case == "llama3-model":
        lines = (folder / "tokenizer.model").read_text().splitlines()
        ranks = {base64.b64decode(t): int(r) for t, r in (line.split() for line in lines if line)}
        encoding = tiktoken.Encoding(
            "l3", pat_str=LLAMA3_PATTERN, mergeable_ranks=ranks, special_tokens={}
        )
        return encoding.encode(text)
    if case == "mistral":
        data = json.loads((folder / "tekken_240911.json").read_text("utf-8"))
        config = data["config"]
        special = config["default_num_special_tokens"]
        used = data["vocab"][: config["default_vocab_size"] - special]
        ranks = {base64.b64decode(item["token_bytes"]): item["rank"] for item in used}
        encoding = tiktoken.Encoding(
            "tk", pat_str=config["pattern"], mergeable_ranks=ranks, special_tokens={}
        )
        return [i + special for i in encoding.encode(text)]
    library = HfTokenizer.from_file(str(folder / "tokenizer.json"))
    return list(library.encode(text, add_special_tokens=False).ids)


def upload(app: AppTest, *files: tuple[str, bytes]) -> AppTest:
    """Drop files on the Train page's tokenizer loader together (see test_app_history_run)."""
    uploader = app.file_uploader(key=UPLOADER)
    uploader._files = [
        (str(uuid4()), name, data, "application/octet-stream") for name, data in files
    ]
    app.run(timeout=900)  # Gemma 3's 33 MB, read by a child, on a busy 2-core machine
    assert not app.exception, app.exception
    return app


def current_kind(app: AppTest) -> RunKind:
    runs = app.session_state[keys.RUNS]
    return runs[app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value].kind


def shown_ids(app: AppTest) -> list[int]:
    """The ids in the Tokens page's "ids to copy" block."""
    (block,) = [code.value for code in app.code if re.fullmatch(r"[\d ]+", str(code.value))]
    return [int(word) for word in block.split()]


def tokens_of(app: AppTest, text: str) -> list[int]:
    app.switch_page("pages/tokens.py").run()
    app.text_area(key=keys.TOKENS_TEXT).input(text).run(timeout=300)
    assert not app.exception, app.exception
    assert not texts_of(app.error), texts_of(app.error)
    return shown_ids(app)


@pytest.mark.parametrize("case", list(FILES))
def test_a_real_model_s_files_load_as_a_run_with_the_reference_s_ids(case: str) -> None:
    folder = folder_of(case)
    app = open_app("train")
    upload(app, *((name, (folder / name).read_bytes()) for name in FILES[case]))
    assert not texts_of(app.error), texts_of(app.error)
    assert current_kind(app) is RunKind.LOADED_MODEL
    sidebar = " ".join(texts_of(app.sidebar.caption))
    assert "a real model's tokenizer" in sidebar and " + ".join(FILES[case]) in sidebar
    assert tokens_of(app, TEXT) == reference_ids(case, TEXT)
    hovers = app.get("html")[0].proto.body  # the coloured tokens: each card names its id
    assert f'title="id {reference_ids(case, "Hello")[0]:,} · ' in hovers


def test_back_from_a_model_to_the_run_before_it_the_view_size_starts_whole() -> None:
    """A model's run draws no view-size slider, so Streamlit drops the slider's key; the
    run before it, chosen again, once raised KeyError in the sidebar."""
    folder = folder_of("llama2")
    app = open_app("train")
    before = app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value
    upload(app, *((name, (folder / name).read_bytes()) for name in FILES["llama2"]))
    assert current_kind(app) is RunKind.LOADED_MODEL
    app.sidebar.selectbox(key=keys.SIDEBAR_RUN).select(before).run()
    assert not app.exception, app.exception
    assert app.session_state[keys.SIDEBAR_VIEW_SIZE] == 2000  # the sample's whole run


def test_every_page_shows_a_model_and_none_turns_it_away() -> None:
    folder = folder_of("llama2")
    app = open_app("train")
    upload(app, *((name, (folder / name).read_bytes()) for name in FILES["llama2"]))
    for page in PAGES:
        app.switch_page(f"pages/{page}.py").run()
        assert not app.exception, (page, app.exception)
        assert not texts_of(app.error), (page, texts_of(app.error))
        infos = " ".join(texts_of(app.info))
        assert "Open Tokens" not in infos, (page, infos)  # no page sends the model elsewhere


def test_a_rank_file_nobody_knows_takes_the_pattern_and_special_fields(tmp_path: Path) -> None:
    original = (folder_of("llama3-model") / "tokenizer.model").read_bytes()
    unknown = original.rsplit(b"\n", 2)[0] + b"\n"  # one rank fewer: not the known file
    app = open_app("train")
    upload(app, ("ranks.model", unknown))
    (error,) = texts_of(app.error)
    assert "does not carry its pre-tokenizer pattern" in error
    app.text_input(key=keys.TRAIN_RANK_REGEX).input(LLAMA3_PATTERN)
    app.text_area(key=keys.TRAIN_RANK_SPECIALS).input("<|begin_of_text|>=128000")
    upload(app, ("ranks.model", unknown))
    assert not texts_of(app.error), texts_of(app.error)
    assert current_kind(app) is RunKind.LOADED_MODEL
    assert tokens_of(app, "<|begin_of_text|>Hello") == [
        128000,
        *reference_ids("llama3-model", "Hello"),
    ]


def test_a_link_to_a_model_s_run_reopens_it_in_a_new_session() -> None:
    folder = folder_of("qwen3")
    app = open_app("train")
    upload(app, *((name, (folder / name).read_bytes()) for name in FILES["qwen3"]))
    tokens_of(app, "x")
    key = (
        app.query_params["run"][0]
        if isinstance(app.query_params["run"], list)
        else app.query_params["run"]
    )
    loaded_model_cached.clear()  # as after a restart: the model is read again from the disk
    fresh = open_app("tokens", {"run": str(key)})
    assert current_kind(fresh) is RunKind.LOADED_MODEL
    assert tokens_of(fresh, TEXT) == reference_ids("qwen3", TEXT)
    # named by what it is (never by the uploader's file name), not as one of our runs
    assert fresh.sidebar.selectbox(key=keys.SIDEBAR_RUN).value == "Real model · 151,669 ids"
    (summary,) = texts_of(fresh.sidebar.caption)
    assert summary.startswith("**a real model's tokenizer file** (tokenizer.json) · 151,669 ids")
