"""explorer.encoding.parallel_encode: the command line's encode on two cores prints exactly the ids
of one, wherever the text is cut."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import Tokenizer, train
from explorer.encoding import parallel_encode as pe
from explorer.files.bundled import load_bundled
from tests.conftest import ROOT

SPECIAL = "<|endoftext|>"
# the characters that decide pre-tokens: spaces and newlines of every kind, letters,
# digits, marks, apostrophes, punctuation, Thai and Japanese, and the special token
PIECES = st.sampled_from(
    [" ", "  ", "\n", "\r\n", "\n\n", "\t", "a", "Hello", "world", "'s", "'ll", "42",
     "3.14", "!", "...", "«", "é", "e\u0301", "ไทย", "日本語", "—", SPECIAL, "x" * 30]
)  # fmt: skip


@pytest.fixture(scope="module")
def tokenizers() -> list[Tokenizer]:
    trained = train("the cat sat on the mat. " * 40, 300, pattern="gpt4", special_tokens=[SPECIAL])
    return [load_bundled("gpt2"), load_bundled("cl100k_base"), trained.tokenizer]


def one_core(tokenizer: Tokenizer, text: str) -> str:
    return " ".join(map(str, tokenizer.encode(text, allowed_special="all")))


@settings(max_examples=60, deadline=None)
@given(pieces=st.lists(PIECES, min_size=2, max_size=40), which=st.integers(0, 2))
def test_two_cores_print_the_ids_of_one(
    pieces: list[str], which: int, tokenizers: list[Tokenizer]
) -> None:
    tokenizer, text = tokenizers[which], "".join(pieces)
    cut = pe.find_cut(text, len(text) // 2, list(tokenizer.special_tokens))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pe, "can_fork", lambda: True)  # pytest's workers run threads
        found = pe.ids_text(tokenizer, text, "all", workers=2, min_chars=1)
    assert found == one_core(tokenizer, text), (text, cut)


def test_a_cut_never_follows_whitespace_nor_splits_a_special_token() -> None:
    text = "ab   \n\n" + SPECIAL + "cd ef"
    for near in range(len(text)):
        cut = pe.find_cut(text, near, [SPECIAL])
        if cut is not None:
            assert not text[cut - 1].isspace()
            assert not 7 < cut < 7 + len(SPECIAL)


def test_the_command_line_cuts_a_big_file_and_prints_the_same_ids(tmp_path: Path) -> None:
    """A real process (one thread, so it forks): 1.2 MB of varied text."""
    text = ("Hello, world! It's 3.14 — ไทย 日本語.\n\n  indented\r\n" * 25_000)[:1_200_000]
    path = tmp_path / "big.txt"
    path.write_bytes(text.encode("utf-8"))
    assert pe.find_cut(text, len(text) // 2, []) is not None
    shown = subprocess.run(
        [sys.executable, "-m", "explorer", "encode", "gpt2", str(path)],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    assert shown == one_core(load_bundled("gpt2"), text) + "\n"
