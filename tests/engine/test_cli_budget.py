"""The command line on the quadratic text, under a memory cap: `train` stops at the
token-bytes budget with the sentence, and `info` reads what it wrote with its history (issue 35).

Run as users run it, in a subprocess, with `ulimit -v` set by `bash -c`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.training.test_token_budget import quadratic_text

ROOT = Path(__file__).resolve().parents[2]
CAP_KB = 1_500_000  # the bound: 1.5 GB for any text of up to 200 KB

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for ulimit")


def capped(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """`python -m explorer ARGS` with its address space capped at CAP_KB."""
    command = " ".join(["ulimit -v", str(CAP_KB), ";", "exec", '"$@"'])
    return subprocess.run(
        ["bash", "-c", command, "capped", sys.executable, "-m", "explorer", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def quadratic_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("quadratic")
    text = folder / "quadratic.txt"
    text.write_text(quadratic_text(20_000), encoding="utf-8")
    prefix = folder / "q"
    done = capped("train", text, "--vocab-size", "50000", "--output", prefix)
    assert done.returncode == 0, done.stderr[-2000:]
    return prefix, done.stderr


def test_train_stops_at_the_budget_with_the_sentence(quadratic_run: tuple[Path, str]) -> None:
    prefix, stderr = quadratic_run
    assert "please report" not in stderr
    note = next(line for line in stderr.splitlines() if line.startswith("note: "))
    assert "Training stopped at merge" in note and "tokens reached 32 MiB" in note
    assert "repeats long stretches" in note
    for suffix in (".model", ".vocab", ".history.json"):
        assert Path(f"{prefix}{suffix}").stat().st_size > 0


def test_info_reads_what_train_wrote(quadratic_run: tuple[Path, str]) -> None:
    prefix, stderr = quadratic_run
    merges = stderr.split("\nlearned ")[1].split(" merges")[0].replace(",", "")
    info = capped("info", f"{prefix}.model")
    assert info.returncode == 0, info.stderr
    assert f"merges: {merges}\n" in info.stdout
    assert "tie rule: first-occurrence" in info.stdout  # the history beside it, read too


def test_a_vocab_size_its_files_could_not_hold_is_refused_before_training(
    tmp_path: Path,
) -> None:
    text = tmp_path / "corpus.txt"
    text.write_text("hello world", encoding="utf-8")
    done = capped("train", text, "--vocab-size", "400000", "--output", tmp_path / "t")
    assert done.returncode == 1
    assert "error: --vocab-size 400,000: the tokenizer would hold 400,000 tokens" in done.stderr
    assert not list(tmp_path.glob("t.*"))
