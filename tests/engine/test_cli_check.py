"""`python -m explorer check`: the check-up's counts and lists from the command line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from explorer.analysis.vocabulary.checkup import KINDS, check_up
from explorer.cli import main
from explorer.files.formats import load_model
from explorer.files.history_file import load_history
from tests.engine.test_cli import run

CORPUS = "the cat sat on the mat; the cat ate 12 rats, 1234 of them.\n\n   \n" * 20


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("check")
    (folder / "corpus.txt").write_text(CORPUS, "utf-8")
    prefix = folder / "tok"
    args = ["train", str(folder / "corpus.txt"), "--vocab-size", "300", "--output", str(prefix)]
    assert main([*args, "--special", "<|end|>", "--workers", "1"]) == 0
    return prefix


def test_json_counts_of_a_bundled_vocabulary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "gpt2", "--format", "json"]) == 0
    counts = json.loads(capsys.readouterr().out)
    assert {kind: counts[kind] for kind in KINDS} == {
        "unreachable": 0,
        "partial_character": 344,
        "outside_merges": 0,
        "intermediate_only": None,  # no history: unknown
        "special": 1,
        "whitespace_only": 19,
        "digits_only": 994,
    }
    assert counts["vocab_size"] == 50256 and counts["partial_character_by_length"]["1"] == 128


def test_a_model_with_its_history_knows_intermediate_tokens(
    trained: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = f"{trained}.model"
    tokenizer = load_model(model)
    expected = check_up(tokenizer, load_history(f"{trained}.history.json"))
    assert main(["check", model, "--format", "csv"]) == 0
    rows = dict(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows.pop("kind") == "tokens"
    assert rows == {kind: str(count) for kind, count in expected.counts().items()}
    assert main(["check", model, "--list", "intermediate_only", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [row["id"] for row in listed] == list(expected.intermediate_only or ())
    assert main(["check", model, "--list", "special"]) == 0
    special = tokenizer.special_tokens["<|end|>"]
    assert capsys.readouterr().out == f'{special:>7}  "<|end|>"  (7)\n'


def test_lists_as_people_read_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "gpt2", "--list", "partial_character", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 344 and rows[0] == {
        "id": "94",  # byte 0xA1 has id 94 in GPT-2's byte order
        "token": "",
        "hex": "a1",
        "length": "1",
        "note": "",
    }
    single = {row["hex"] for row in rows if row["length"] == "1"}
    assert single == {f"{byte:02x}" for byte in range(0x80, 0x100)}
    assert main(["check", "gpt2", "--list", "unreachable"]) == 0
    assert capsys.readouterr().out == "no unreachable tokens\n"
    assert main(["check", "gpt2"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[1].split() == ["unreachable", "0", "Unreachable"]
    assert table[-1].startswith("digits_only by length in characters (length: tokens): 1: 10, ")


def test_mistakes_are_one_line_with_the_right_status(tmp_path: Path) -> None:
    cases = {
        ("check", "gpt2", "--list", "rare"): (2, "argument --list: invalid choice: 'rare'"),
        ("check", "gpt2", "--format", "xml"): (2, "argument --format: invalid choice: 'xml'"),
        ("check",): (2, "the following arguments are required: TOKENIZER"),
        ("check", str(tmp_path / "none.model")): (1, "no such file"),
        ("check", "gpt2", "--list", "intermediate_only"): (1, "known only for a tokenizer"),
    }
    (tmp_path / "bad.model").write_text("not a model\n", "utf-8")
    cases[("check", str(tmp_path / "bad.model"))] = (1, "bad.model")
    for args, (status, words) in cases.items():
        done = run(*args)
        stderr = done.stderr.decode()
        assert done.returncode == status, (args, stderr)
        assert stderr.startswith("error: ") and words in stderr and stderr.count("\n") == 1
        assert done.stdout == b""
