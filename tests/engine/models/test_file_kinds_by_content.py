"""File kinds by content, not by name (issue 34 §2): a rank file whatever its suffix, minbpe's
`.model` by its first line, Mistral's tekken JSON apart from a merges JSON and a tokenizer.json."""

from __future__ import annotations

import base64
import json

import pytest

from explorer import train
from explorer.files.exports import tiktoken_text, tokenizer_json
from explorer.files.file_kinds import FileKind, detect_file_kind
from explorer.files.formats import merges_json, model_text
from explorer.models.reading import read_model
from tests.conftest import shared_path

TRAINED = train("the cat sat on the mat; the rat sat on the cat. " * 20, 300).tokenizer
RANKS = "\n".join(f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256))
TEKKEN = json.dumps({"config": {"pattern": r"\S+"}, "vocab": [{"rank": 0, "token_bytes": "AA=="}]})


@pytest.mark.parametrize("name", ["tokenizer.model", "ranks", "x.txt", "x.tiktoken", "R.MODEL"])
def test_a_rank_file_is_one_whatever_its_name(name: str) -> None:
    assert detect_file_kind(name, RANKS) is FileKind.TIKTOKEN
    assert detect_file_kind(name, tiktoken_text(TRAINED)) is FileKind.TIKTOKEN


@pytest.mark.parametrize("name", ["t.model", "tokenizer.model", "upload", "t.tiktoken"])
def test_minbpe_model_is_known_by_its_first_line(name: str) -> None:
    assert detect_file_kind(name, model_text(TRAINED)) is FileKind.MODEL


@pytest.mark.parametrize("name", ["tekken.json", "x.json", "upload"])
def test_tekken_is_its_own_kind(name: str) -> None:
    assert detect_file_kind(name, TEKKEN) is FileKind.TEKKEN
    reordered = json.dumps({"vocab": [], "config": {}})  # not opened by "config"
    assert detect_file_kind(name, reordered) is FileKind.TEKKEN
    assert detect_file_kind(name, merges_json(TRAINED)) is FileKind.MERGES_JSON
    assert detect_file_kind(name, tokenizer_json(TRAINED)) is FileKind.TOKENIZER_JSON


def test_an_empty_model_file_still_goes_by_its_name() -> None:
    assert detect_file_kind("a.model", "") is FileKind.MODEL


@pytest.mark.parametrize(
    ("folder", "name", "kind"),
    [
        ("llama3", "tokenizer.model", FileKind.TIKTOKEN),
        ("llama3", "tokenizer.json", FileKind.TOKENIZER_JSON),
        ("mistral", "tekken_240911.json", FileKind.TEKKEN),
        ("gemma3", "tokenizer.json", FileKind.TOKENIZER_JSON),
    ],
)
def test_the_open_weight_files(folder: str, name: str, kind: FileKind) -> None:
    path = shared_path("reference", "open-weight", folder, name)
    text = path.read_bytes().decode("utf-8")
    assert detect_file_kind(name, text) is kind
    assert detect_file_kind("renamed", text) is kind


def test_read_model_sends_a_tokenizer_json_to_the_hf_backend() -> None:
    tokenizers = pytest.importorskip("tokenizers")
    folder = shared_path("reference", "open-weight", "llama3")
    data = (folder / "tokenizer.json").read_bytes()
    config = (folder / "tokenizer_config.json").read_text("utf-8")
    model = read_model("renamed", data, config_text=config)
    reference = tokenizers.Tokenizer.from_str(data.decode("utf-8"))
    text = "Hello world <|eot_id|> 12345  naïve 🙂"
    assert model.file_kind == "tokenizer.json"
    assert model.encode(text) == reference.encode(text, add_special_tokens=False).ids
