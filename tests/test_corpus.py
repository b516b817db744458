"""Reading files in blocks gives exactly the merges of reading them whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer import PRESETS, train, train_files
from explorer.corpus import CorpusError, count_chunks, count_file_chunks
from tests.conftest import shared_path
from tests.naive import fast_steps

ALPHABET = "ab c\n\r\t  'sé😀한.!1234<|>e"
texts = st.text(alphabet=ALPHABET, max_size=120)
PATTERNS = [*sorted(PRESETS), r"\b\w+\b|\W", r"\w+|\s+|[^\w\s]+", r"[a-c]+"]
tmp_files = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.mark.parametrize("pattern", PATTERNS)
@tmp_files
@given(text=texts, block=st.integers(1, 17))
def test_blocks_count_like_the_whole_text(
    tmp_path: Path, pattern: str, text: str, block: int
) -> None:
    path = write(tmp_path / "corpus.txt", text)
    whole = count_chunks([text], pattern)
    assert count_file_chunks([path], pattern, block_chars=block) == whole
    assert list(count_file_chunks([path], pattern, block_chars=block)) == list(whole)


@pytest.mark.parametrize("pattern", ["gpt4", "none", "words"])
@tmp_files
@given(text=texts, block=st.integers(1, 9))
def test_blocks_respect_special_tokens(tmp_path: Path, pattern: str, text: str, block: int) -> None:
    specials = ["<|e|>", "<|endoftext|>"]
    text = text + "<|endoftext|>" + text[::-1] + "<|e|>"
    path = write(tmp_path / "corpus.txt", text)
    whole = count_chunks([text], pattern, specials)
    assert count_file_chunks([path], pattern, specials, block_chars=block) == whole


def test_several_files_are_separate_documents(tmp_path: Path) -> None:
    a = write(tmp_path / "a.txt", "hello there\r\nhello")
    b = write(tmp_path / "b.txt", " world, hello world")
    from_files = train_files([a, b], 300, pattern="gpt2", block_chars=4)
    from_texts = train(["hello there\r\nhello", " world, hello world"], 300, pattern="gpt2")
    assert fast_steps(from_files.history) == fast_steps(from_texts.history)


def test_real_corpus_in_blocks(tmp_path: Path) -> None:
    path = shared_path("corpora", "taylorswift.txt")
    text = path.read_bytes().decode("utf-8")
    whole = train(text, 600, pattern="gpt4")
    blocks = train_files([path], 600, pattern="gpt4", block_chars=4096)
    assert fast_steps(blocks.history) == fast_steps(whole.history)


def test_progress_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path / "corpus.txt", "the cat sat on the mat " * 200)
    seen: list[tuple[str, int, int]] = []
    train_files([path], 400, block_chars=256, progress=lambda *a: seen.append(a))
    phases = [phase for phase, _, _ in seen]
    assert "counting" in phases and "merging" in phases
    counting = [done for phase, done, _ in seen if phase == "counting"]
    assert counting == sorted(counting) and counting[-1] == path.stat().st_size


def test_non_utf8_file_names_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("café au lait".encode("latin-1"))
    with pytest.raises(CorpusError, match=r"latin1.txt is not UTF-8 text: byte 3"):
        train_files([path], 300)


def test_missing_file_is_explained(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="cannot read"):
        train_files([tmp_path / "nope.txt"], 300)
