"""The command line, run as users run it: `python -m explorer ...` in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from explorer import cli
from explorer.cli import main
from explorer.files.exports import encoder_json, tokenizer_json, vocab_bpe
from explorer.files.formats import load_model

ROOT = Path(__file__).resolve().parents[2]
CORPUS = (
    "Byte pair encoding merges the most frequent pair of tokens, again and again.\r\n"
    "안녕하세요, 세계! 한국어 텍스트도 토큰으로 나눕니다. 🙂🙂 emoji 🎉 too.\r\n"
    "<|endoftext|>A second document: the end of one text, the start of the next.\n"
) * 4
SPECIAL = "<|endoftext|>"


def run(*args: str | Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "explorer", *map(str, args)],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=60,
    )


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model trained once for the module; returns the prefix."""
    folder = tmp_path_factory.mktemp("cli")
    corpus = folder / "corpus.txt"
    corpus.write_bytes(CORPUS.encode("utf-8"))
    prefix = folder / "tok"
    done = run("train", corpus, "--vocab-size", "320", "--special", SPECIAL, "--output", prefix)
    assert done.returncode == 0, done.stderr.decode()
    return prefix


def test_train_writes_three_files_and_reports(trained: Path) -> None:
    for suffix in (".model", ".vocab", ".history.json"):
        assert Path(f"{trained}{suffix}").is_file()
    assert Path(f"{trained}.model").read_text("utf-8").startswith("minbpe v1\n")


def test_train_shows_progress_then_a_summary(tmp_path: Path) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(CORPUS.encode("utf-8"))
    done = run("train", corpus, "--vocab-size", "300", "--output", tmp_path / "t")
    stderr = done.stderr.decode()
    assert done.returncode == 0
    assert "\rcounting" in stderr and "\rmerging" in stderr
    summary = stderr.splitlines()[-1]
    assert summary.startswith("learned 44 merges (vocab size 300) in ")
    assert "stopped because the target vocab size was reached" in summary


def test_info(trained: Path) -> None:
    done = run("info", f"{trained}.model")
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 0
    assert lines[:2] == ["vocab size: 320 (256 bytes + 64 merges)", "merges: 64"]
    assert lines[2].startswith("pattern (gpt4 preset): '(?i:[sdmt]")
    assert lines[3:5] == ["special tokens: 1", f"  '{SPECIAL}' 320"]
    assert lines[5] == "tie rule: first-occurrence (from tok.history.json)"
    assert lines[6:] == [
        "numbering: ids 0-255 are the bytes and merge k (from 1) makes id 255 + k, so a "
        "token's id tells its merge"
    ]


@pytest.mark.parametrize("from_stdin", [False, True])
def test_encode_then_decode_gives_identical_bytes(
    trained: Path, tmp_path: Path, from_stdin: bool
) -> None:
    text = "Bonjour\r\n안녕하세요 🙂\r\n\tsame pair again\n".encode()
    source = tmp_path / "in.txt"
    source.write_bytes(text)
    model = f"{trained}.model"
    encoded = run("encode", model, stdin=text) if from_stdin else run("encode", model, source)
    assert encoded.returncode == 0, encoded.stderr.decode()
    ids = encoded.stdout.decode().split()
    assert all(i.isdigit() for i in ids) and len(ids) < len(text)
    decoded = run("decode", model, stdin=encoded.stdout)
    assert decoded.returncode == 0
    assert decoded.stdout == text


def test_special_tokens_need_allowed_special(trained: Path) -> None:
    model = f"{trained}.model"
    text = f"one{SPECIAL}two\r\n".encode()
    refused = run("encode", model, stdin=text)
    assert refused.returncode == 1
    assert "--allowed-special" in refused.stderr.decode()
    for allowed in ("all", SPECIAL):
        encoded = run("encode", model, "--allowed-special", allowed, stdin=text)
        assert "320" in encoded.stdout.decode().split()
        assert run("decode", model, stdin=encoded.stdout).stdout == text


def test_train_on_word_counts(tmp_path: Path) -> None:
    table = tmp_path / "words.txt"
    table.write_text("hug 10\npug 5\npun 12\nbun 4\nhugs 5\n", encoding="utf-8")
    done = run("train", table, "--word-counts", "--vocab-size", "259", "--output", tmp_path / "w")
    assert done.returncode == 0, done.stderr.decode()
    assert (tmp_path / "w.model").read_text("utf-8").splitlines()[3:] == [
        "117 103",
        "117 110",
        "104 256",
    ]


def _error_cases(tmp: Path, prefix: Path) -> dict[str, tuple[list[str | Path], bytes]]:
    (tmp / "latin1.txt").write_bytes("café".encode("latin-1"))
    (tmp / "bad.model").write_text("minbpe v1\n\n0\n97 97\nabc\n", encoding="utf-8")
    (tmp / "text.txt").write_text("just some text\n", encoding="utf-8")
    model = f"{prefix}.model"
    train = ["train", tmp / "latin1.txt", "--output", tmp / "out"]
    return {
        "missing file": (["train", tmp / "nope.txt", "--vocab-size", "300", "--output", tmp], b""),
        "small vocab": ([*train, "--vocab-size", "100"], b""),
        "invalid regex": ([*train, "--vocab-size", "300", "--pattern", "(["], b""),
        "not utf-8 corpus": ([*train, "--vocab-size", "300"], b""),
        "missing folder": ([*train[:2], "--vocab-size", "300", "--output", tmp / "x" / "y"], b""),
        "malformed model": (["info", tmp / "bad.model"], b""),
        "missing model": (["encode", tmp / "none.model"], b"hi"),
        "not utf-8 input": (["encode", model], b"caf\xe9"),
        "unknown special": (["encode", model, "--allowed-special", "<|x|>"], b"hi"),
        "unknown id": (["decode", model], b"1 2 99999"),
        "non-numeric id": (["decode", model], b"1 two 3"),
        "text as model": (["info", tmp / "text.txt"], b""),
        "huge id": (["decode", "gpt2"], b"9" * 5000),
        "empty pattern": ([*train, "--vocab-size", "300", "--pattern", ""], b""),
    }


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("missing file", "nope.txt"),
        ("small vocab", "vocab_size must be at least 256"),
        ("invalid regex", "invalid pre-tokenizer regex"),
        ("not utf-8 corpus", "not UTF-8"),
        ("missing folder", "does not exist"),
        ("malformed model", "line 5: expected two token ids 'LEFT RIGHT', got 'abc'"),
        ("missing model", "none.model"),
        ("not utf-8 input", "stdin is not UTF-8 text: byte 3"),
        ("unknown special", "is not a special token"),
        ("unknown id", "token id 99999"),
        ("non-numeric id", "item 2 of stdin, 'two', is not a token id"),
        ("text as model", "text.txt: this is not a tokenizer file the explorer can tell"),
        ("huge id", "item 1 of stdin, '99999999999999999999...(5,000 characters)', is not"),
        ("empty pattern", "--pattern is empty; give --pattern none"),
    ],
)
def test_bad_input_is_one_error_line(
    trained: Path, tmp_path: Path, case: str, expected: str
) -> None:
    args, stdin = _error_cases(tmp_path, trained)[case]
    done = run(*args, stdin=stdin)
    stderr = done.stderr.decode()
    assert done.returncode == 1
    assert "Traceback" not in stderr
    assert len(stderr.splitlines()) == 1 and stderr.startswith("error: ")
    assert expected in stderr


def test_usage_errors_are_one_line_too(tmp_path: Path) -> None:
    done = run("train", tmp_path, "--vocab-size", "lots", "--output", tmp_path / "t")
    stderr = done.stderr.decode()
    assert done.returncode == 2
    assert stderr.startswith("error: argument --vocab-size: invalid int value: 'lots'")
    assert len(stderr.splitlines()) == 1


def test_main_returns_the_exit_status(trained: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", f"{trained}.model"]) == 0
    assert capsys.readouterr().out.startswith("vocab size: 320")
    assert main(["frobnicate"]) == 2
    assert capsys.readouterr().err.startswith("error: argument COMMAND: invalid choice")
    assert main(["info", str(trained)]) == 1  # the prefix, not the .model file
    assert capsys.readouterr().err.startswith("error: cannot open ")


def test_any_tokenizer_file_the_app_loads_encodes_as_the_model_does(
    trained: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tokenizer = load_model(f"{trained}.model")
    (tmp_path / "tok.tokenizer.json").write_text(tokenizer_json(tokenizer), encoding="utf-8")
    (tmp_path / "encoder.json").write_text(encoder_json(tokenizer), encoding="utf-8")
    (tmp_path / "vocab.bpe").write_text(vocab_bpe(tokenizer), encoding="utf-8")
    text = tmp_path / "in.txt"
    text.write_text("Bonjour 안녕하세요 🙂 same pair again", encoding="utf-8")
    assert main(["encode", f"{trained}.model", str(text)]) == 0
    expected = capsys.readouterr().out
    for model in ("tok.tokenizer.json", "encoder.json", "vocab.bpe"):  # GPT-2's: either file
        assert main(["encode", str(tmp_path / model), str(text)]) == 0, model
        assert capsys.readouterr().out == expected, model
    assert main(["info", str(tmp_path / "tok.tokenizer.json")]) == 0
    assert capsys.readouterr().out.startswith("vocab size: 320 (256 bytes + 64 merges)")


@pytest.mark.parametrize("workers", ["0", "-3", "two"])
def test_workers_must_be_positive(tmp_path: Path, workers: str) -> None:
    done = run("train", tmp_path, "--vocab-size", "300", "--workers", workers, "--output", "t")
    stderr = done.stderr.decode()
    assert done.returncode == 2 and len(stderr.splitlines()) == 1
    assert f"argument --workers: {workers!r} is not a number of processes" in stderr


def test_a_failed_write_leaves_no_output(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_bytes(CORPUS.encode("utf-8"))
    (tmp_path / "out.vocab").mkdir()  # out.vocab cannot be written
    args = ["train", str(corpus), "--vocab-size", "300", "--output", str(tmp_path / "out")]
    assert main(args) == 1
    assert "out.vocab is a folder" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.txt", "out.vocab"]


def test_a_write_failing_midway_removes_what_was_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_bytes(CORPUS.encode("utf-8"))
    real_replace = cli.os.replace

    def replace(source: Path, target: Path) -> None:
        if str(target).endswith(".history.json"):
            raise OSError(28, "No space left on device", str(target))
        real_replace(source, target)

    monkeypatch.setattr(cli.os, "replace", replace)
    args = ["train", str(corpus), "--vocab-size", "300", "--output", str(tmp_path / "out")]
    assert main(args) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["corpus.txt"]


def test_a_pattern_matched_whole_is_announced(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_bytes(CORPUS.encode("utf-8"))
    for pattern, noted in [(r"\w+|\W", True), (r"(?s)..?", False), ("gpt2", False)]:
        done = run(
            "train", corpus, "--vocab-size", "300", "--pattern", pattern, "--output", tmp_path / "t"
        )
        assert done.returncode == 0
        assert ("each file is matched whole" in done.stderr.decode()) == noted
