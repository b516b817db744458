"""Loading tokenizer files of any format: telling them apart, pairing them, reading them.

The engine's side of the Train page's loader and of `python -m explorer info FILE`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer import FormatError, Tokenizer, train
from explorer.encoding.pretokenize import GPT2_PATTERN, GPT4_PATTERN, PRESETS
from explorer.files.exports import encoder_json, tiktoken_text, tokenizer_json, vocab_bpe
from explorer.files.file_kinds import FileKind, detect_file_kind, pair_histories
from explorer.files.formats import merges_json, model_text
from explorer.files.history_file import HistoryFileError, history_json
from explorer.files.loading import LoadedTokenizer, load_tokenizer_file, load_uploads

TEXT = "The quick brown fox jumps over the lazy dog; the dog sleeps. " * 40


@pytest.fixture(scope="module")
def small() -> Tokenizer:
    return train(TEXT, 300, pattern="gpt4").tokenizer


def files_of(tokenizer: Tokenizer) -> dict[str, bytes]:
    """The tokenizer in every format the loader reads."""
    texts = {
        "small.model": model_text(tokenizer),
        "small.json": merges_json(tokenizer),
        "tokenizer.json": tokenizer_json(tokenizer),
        "small.tiktoken": tiktoken_text(tokenizer),
        "encoder.json": encoder_json(tokenizer),
        "vocab.bpe": vocab_bpe(tokenizer),
    }
    return {name: text.encode() for name, text in texts.items()}


# --- telling files apart ---------------------------------------------------------------------


def test_each_format_is_told_apart_by_name_and_by_content(small: Tokenizer) -> None:
    expected = {
        "small.model": FileKind.MODEL,
        "small.json": FileKind.MERGES_JSON,
        "tokenizer.json": FileKind.TOKENIZER_JSON,
        "small.tiktoken": FileKind.TIKTOKEN,
        "encoder.json": FileKind.ENCODER_JSON,
        "vocab.bpe": FileKind.VOCAB_BPE,
    }
    for name, data in files_of(small).items():
        assert detect_file_kind(name, data.decode()) is expected[name], name
    anonymous = {
        name: detect_file_kind("upload", data.decode()) for name, data in files_of(small).items()
    }
    assert anonymous["small.model"] is FileKind.MODEL
    assert anonymous["small.tiktoken"] is FileKind.TIKTOKEN
    assert anonymous["vocab.bpe"] is FileKind.VOCAB_BPE
    assert anonymous["tokenizer.json"] is FileKind.TOKENIZER_JSON


def test_a_history_is_told_by_name_or_by_its_format_line() -> None:
    history = history_json(train("aaabdaaabac", 258, pattern="none").history)
    assert detect_file_kind("run.history.json", "") is FileKind.HISTORY_JSON
    assert detect_file_kind("renamed.json", history) is FileKind.HISTORY_JSON


# --- reading uploads ---------------------------------------------------------------------------


def test_every_format_loads_as_the_same_tokenizer(small: Tokenizer) -> None:
    loaded = load_uploads(list(files_of(small).items()), tiktoken_pattern=GPT4_PATTERN)
    sources = [(item.kind, item.source) for item in loaded]
    assert sources == [
        (FileKind.MODEL, "small.model"),
        (FileKind.MERGES_JSON, "small.json"),
        (FileKind.TOKENIZER_JSON, "tokenizer.json"),
        (FileKind.TIKTOKEN, "small.tiktoken"),
        (FileKind.ENCODER_JSON, "encoder.json + vocab.bpe"),
    ]
    for item in loaded:
        assert item.tokenizer.merges == small.merges, item.source
    patterns = [item.tokenizer.pattern for item in loaded]
    assert patterns == [GPT4_PATTERN, "", GPT4_PATTERN, GPT4_PATTERN, GPT2_PATTERN]
    assert loaded[1].texts == (model_text(loaded[1].tokenizer),)  # merges JSON kept as .model


def test_a_tiktoken_pattern_comes_from_the_name_or_the_choice(small: Tokenizer) -> None:
    data = tiktoken_text(small).encode()
    (by_name,) = load_uploads([("my_o200k_copy.tiktoken", data)])
    assert by_name.tokenizer.pattern == PRESETS["o200k"]
    (chosen,) = load_uploads([("ranks.tiktoken", data)], tiktoken_pattern="none")
    assert chosen.tokenizer.pattern == ""


BAD_FILES = [
    ("bad.tiktoken", b"YQ== 0\nnot a line\n", "bad.tiktoken, line 2: expected 'BASE64TOKEN RANK'"),
    ("gap.tiktoken", b"YQ== 0\n", "gap.tiktoken: no line has rank 1; ranks must be 0, 1, 2"),
    ("tokenizer.json", b'{"model": ', "tokenizer.json, line 1, column 11: not valid JSON"),
    (
        "tokenizer.json",
        b'{"model": {"type": "WordPiece"}}',
        "tokenizer.json, model.type: not a byte-level BPE model",
    ),
    ("encoder.json", b'{"a": 0}', "GPT-2's format is two files, encoder.json"),
    ("notes.bin", b"\x00\x01", "notes.bin: this is not a tokenizer file the explorer can tell"),
    ("empty.model", b"", "empty.model is empty: choose a file with some text in it."),
    ("latin.model", "café".encode("latin-1"), "latin.model is not UTF-8 text: byte 3 (0xe9)"),
]


@pytest.mark.parametrize(("name", "data", "message"), BAD_FILES, ids=lambda v: str(v)[:12])
def test_a_malformed_file_says_what_is_wrong(name: str, data: bytes, message: str) -> None:
    with pytest.raises(FormatError, match=re.escape(message)):
        load_uploads([(name, data)])


# --- a .model and its history --------------------------------------------------------------


def test_a_model_and_its_history_load_as_one() -> None:
    result = train(TEXT, 280, pattern="gpt4")
    model, history = model_text(result.tokenizer), history_json(result.history)
    files = [("run.history.json", history.encode()), ("run.model", model.encode())]
    (loaded,) = load_uploads(files)
    assert loaded == LoadedTokenizer(
        loaded.tokenizer,
        FileKind.MODEL,
        ("run.model", "run.history.json"),
        (model, history),
        result.history,
    )
    (later,) = load_uploads(files[:1], earlier=files[1:])  # the .model was loaded before
    assert later.history == result.history


def test_another_tokenizers_history_is_refused() -> None:
    other = history_json(train("aaabdaaabac", 259, pattern="none").history)
    model = model_text(train(TEXT, 280, pattern="gpt4").tokenizer)
    with pytest.raises(HistoryFileError, match=r"run\.history\.json belongs to another tokenizer"):
        load_uploads([("run.model", model.encode()), ("run.history.json", other.encode())])


def test_pairing_refuses_what_it_cannot_tell_apart() -> None:
    assert pair_histories(["a.model", "b.model"], ["b-history.json", "a.history.json"]) == {
        "b-history.json": "b.model",
        "a.history.json": "a.model",
    }
    with pytest.raises(HistoryFileError, match=r"x\.json: which \.model is it the history of"):
        pair_histories(["a.model", "b.model"], ["x.json"])
    with pytest.raises(HistoryFileError, match=r"are both histories of a\.model"):
        pair_histories(["a.model"], ["a.history.json", "a-history.json"])
    with pytest.raises(HistoryFileError, match=r"b\.history\.json is a merge history, which"):
        pair_histories([], ["b.history.json"])


# --- reading a file by its path (the command line) ------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["small.model", "small.json", "tokenizer.json", "small.tiktoken", "encoder.json", "vocab.bpe"],
)
def test_a_file_of_any_format_loads_by_path(small: Tokenizer, tmp_path: Path, name: str) -> None:
    for file_name, data in files_of(small).items():
        (tmp_path / file_name).write_bytes(data)
    assert load_tokenizer_file(tmp_path / name).merges == small.merges


def test_half_of_gpt2s_pair_or_a_history_alone_is_refused(small: Tokenizer, tmp_path: Path) -> None:
    (tmp_path / "encoder.json").write_text(encoder_json(small), encoding="utf-8")
    with pytest.raises(
        FormatError, match=r"encoder\.json: GPT-2's format is two files.*vocab\.bpe"
    ):
        load_tokenizer_file(tmp_path / "encoder.json")
    (tmp_path / "x.history.json").write_text("{}", encoding="utf-8")
    with pytest.raises(HistoryFileError, match=r"is a merge history, not a tokenizer"):
        load_tokenizer_file(tmp_path / "x.history.json")
