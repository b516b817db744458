"""`python -m explorer report`: every metric per file and size, streamed, and its mistakes."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from explorer import cli_report
from explorer.analysis.compression.fairness import fairness_curve
from explorer.analysis.compression.language_cost import language_curves
from explorer.analysis.compression.metrics import size_metrics
from explorer.cli import main
from explorer.files.bundled import load_bundled
from explorer.files.formats import load_model, model_text
from explorer.training.train import train

ROOT = Path(__file__).resolve().parents[2]
# CRLF and CR kept as they are, wide spaces, three scripts: what a careless read would change
TEXT = (
    "Byte pair encoding merges the most frequent pair, again and again.\r\n"
    "안녕하세요,\u00a0세계! 한국어 텍스트도\u3000토큰으로 나눕니다.\r"
    "Tokens per word, words per line:\tthe usual measures.\n"
) * 30
KEYS = ["file", "size", "bytes_per_token", "fertility", "continued_words", "renyi_efficiency"]
KEYS += ["vocab_used"]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A 350-size model trained on TEXT, the text, a second text and a file that is not UTF-8."""
    folder = tmp_path_factory.mktemp("report")
    model = folder / "tok.model"
    model.write_text(model_text(train(TEXT, 350, pattern="gpt4").tokenizer), "utf-8")
    text = folder / "text.txt"
    text.write_bytes(TEXT.encode("utf-8"))
    other = folder / "other.txt"
    other.write_bytes(b"Another text, shorter.\n")
    latin1 = folder / "latin1.txt"
    latin1.write_bytes("café au lait".encode("latin-1"))
    return {"model": model, "text": text, "other": other, "latin1": latin1}


def report(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    status = main(["report", *map(str, args)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_json_has_every_metric_of_the_text_as_it_is(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = report(
        capsys, files["model"], files["text"], "--sizes", "300,256,350", "--format", "json"
    )
    assert (status, err) == (0, "")
    rows = json.loads(out)
    assert [list(row) for row in rows] == [KEYS] * 3
    assert [row["size"] for row in rows] == [300, 256, 350]
    tok = load_model(files["model"])
    expected = size_metrics(tok, TEXT, [300, 256, 350])  # \r\n and \r kept
    for row, metrics in zip(rows, expected):
        assert row["file"] == str(files["text"])
        assert all(row[key] == getattr(metrics, key) for key in KEYS[1:])
    assert rows[1]["bytes_per_token"] == 1.0 and rows[2]["fertility"] >= 1.0


def test_table_and_csv_per_file_and_default_sizes(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = report(capsys, files["model"], files["text"], files["other"])
    lines = out.splitlines()
    assert status == 0 and lines[0].split() == KEYS
    # no default size (1,000 ...) is below 350: each file at the tokenizer's own size
    assert [line.split()[:2] for line in lines[1:]] == [
        [str(files["text"]), "350"],
        [str(files["other"]), "350"],
    ]
    status, out, _ = report(
        capsys, files["model"], files["other"], "--sizes", "all", "--format", "csv"
    )
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and list(rows[0]) == KEYS
    assert [int(row["size"]) for row in rows] == list(range(256, 351))


def test_a_long_file_is_read_a_block_at_a_time(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = report(capsys, files["model"], files["text"], "--sizes", "all", "--format", "csv")
    read: list[int] = []
    real_decoded = cli_report._decoded

    def small_blocks(handle: io.BufferedReader, name: str):  # type: ignore[no-untyped-def]
        for block in real_decoded(handle, name):
            read.append(len(block))
            yield block

    monkeypatch.setattr(cli_report, "BLOCK_BYTES", 97)  # cuts characters in two, too
    monkeypatch.setattr(cli_report, "_decoded", small_blocks)
    assert (
        report(capsys, files["model"], files["text"], "--sizes", "all", "--format", "csv") == whole
    )
    assert len(read) > 50 and max(read) <= 97


def test_stdin_and_a_bundled_vocabulary(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TEXT.encode("utf-8"))))
    status, out, _ = report(capsys, "gpt2", "-", "--sizes", "1000,50256", "--format", "json")
    rows = json.loads(out)
    expected = size_metrics(load_bundled("gpt2"), TEXT, [1000, 50256])
    assert status == 0 and [r["file"] for r in rows] == ["-", "-"]
    assert [r["fertility"] for r in rows] == [m.fertility for m in expected]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{model}", "missing.txt"], "cannot open missing.txt: no such file"),
        (["{model}", "{folder}"], "is a folder; give the text files in it"),
        (["{model}", "{latin1}"], "is not UTF-8 text: byte 3 cannot be decoded"),
        (["{model}", "{text}", "--sizes", "300,x"], "a vocab size in --sizes is 'x', not"),
        (["{model}", "{text}", "--sizes", "100"], "is 100; it must be 256 to"),
        (
            ["{model}", "{text}", "--sizes", "351"],
            "larger than {model}, which has vocab sizes 256 to 350",
        ),
        (["nothing-here", "{text}"], "cannot open nothing-here: no such file, and not a bundled"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    names = {**{k: str(v) for k, v in files.items()}, "folder": str(files["text"].parent)}
    status, out, err = report(capsys, *(a.format(**names) for a in args))
    assert (status, out) == (2, "")
    assert err.startswith("error: ") and err.count("\n") == 1
    assert message.format(**names) in err


def test_as_users_run_it(files: dict[str, Path]) -> None:
    command = [sys.executable, "-m", "explorer", "report", "gpt2", str(files["other"])]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=60)
    assert done.returncode == 0 and done.stderr == b""  # no progress bar when not a terminal
    assert done.stdout.decode().splitlines()[-1].split()[1] == "50,256"
    done = subprocess.run([*command, "--sizes", "60000"], cwd=ROOT, capture_output=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.decode() == (
        "error: --sizes 60,000 is larger than gpt2, which has vocab sizes 256 to 50,256 "
        "(256 bytes and 50,000 merges)\n"
    )


def test_parallel_texts_get_premiums_and_a_gini(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    udhr = ROOT / "sample_texts" / "udhr"
    names = {"English": "en", "French": "fr", "Japanese": "ja", "Burmese": "my"}
    paths = [udhr / f"{code}.txt" for code in names.values()]
    status, out, _ = report(
        capsys, files["model"], *paths, "--parallel", "--sizes", "256,350", "--format", "json"
    )
    rows = json.loads(out)
    assert status == 0 and list(rows[0]) == [*KEYS, "premium", "gini"]
    texts = {
        name: (udhr / f"{code}.txt").read_bytes().decode("utf-8") for name, code in names.items()
    }
    curves = language_curves(load_model(files["model"]), texts)
    expected = fairness_curve(curves, [256, 350])
    for index, row in enumerate(rows):
        language, at = list(names)[index // 2], expected[index % 2]
        assert row["size"] == at.size
        assert row["premium"] == pytest.approx(at.premiums[language])
        assert row["gini"] == pytest.approx(at.gini)
    status, _, err = report(capsys, files["model"], files["text"], "--parallel")
    assert status == 2 and "give two or more" in err


@pytest.mark.parametrize(("data", "block", "where"), [(b"caf\xc3", 3, 3), (b"ab\xe2\x82x", 2, 2)])
def test_where_a_file_stops_being_utf8(
    tmp_path: Path,
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    data: bytes,
    block: int,
    where: int,
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(data)
    monkeypatch.setattr(cli_report, "BLOCK_BYTES", block)  # the bad character across reads
    status, _, err = report(capsys, files["model"], bad)
    assert status == 2 and f"is not UTF-8 text: byte {where} cannot be decoded" in err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_only(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["report", str(files["model"]), str(files["text"]), str(files["other"])]) == 0
    size = files["text"].stat().st_size + files["other"].stat().st_size
    assert terminal.getvalue().startswith("\rencoding  [")
    assert terminal.getvalue().endswith(f"100%  {size:,}/{size:,}\n")
    assert "bytes_per_token" in capsys.readouterr().out
