"""Counting on several cores gives exactly the counts (and their order) of one pass."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from explorer import train_files
from explorer.encoding.safe_cuts import can_split
from explorer.training import parallel
from explorer.training.corpus import count_file_chunks, count_range
from explorer.training.parallel import count_files_in_parallel, plan_parts
from tests.conftest import shared_path
from tests.naive import fast_steps

ALPHABET = "ab c\n\r\t  'sé😀한.!1234<|>eXY"
SPECIALS = ["<|e|>", "<|endoftext|>", "<|x y|>"]
texts = st.text(alphabet=ALPHABET, max_size=300)
tmp_files = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


def counted_in_parts(path: Path, pattern: str, specials: list[str], parts: int) -> dict:
    counts: Counter[str] = Counter()
    for part in plan_parts(path, parts, specials):
        counts.update(
            count_range(part.path, part.start, part.end, part.lookahead, pattern, specials, 5)
        )
    return {chunk.encode(): n for chunk, n in counts.items() if chunk}


@pytest.mark.parametrize("pattern", ["gpt2", "gpt4", "o200k", "words"])
@tmp_files
@given(text=texts, parts=st.integers(2, 12))
@example(text="1 \n", parts=11)  # a cut before a special token: no look-ahead into it
def test_parts_count_like_the_whole_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pattern: str, text: str, parts: int
) -> None:
    monkeypatch.setattr(parallel, "MIN_PART_BYTES", 1)
    text = text + "<|endoftext|>" + text[::-1] + " word<|e|>word<|x y|>a b"
    path = write(tmp_path / "corpus.txt", text)
    whole = count_file_chunks([path], pattern, SPECIALS)
    split = counted_in_parts(path, pattern, SPECIALS, parts)
    assert split == whole
    assert list(split) == list(whole)


def test_safe_cuts_avoid_special_tokens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PART_BYTES", 1)
    data = ("ab<|x y|>cd " * 50).encode()
    path = tmp_path / "corpus.txt"
    path.write_bytes(data)
    inside = {
        s + k for s in range(len(data)) if data.startswith(b"<|x y|>", s) for k in range(1, 7)
    }
    ends = [part.end for part in plan_parts(path, 8, ["<|x y|>"])[:-1]]
    assert len(ends) >= 4
    assert not inside & set(ends)
    assert [e for e in (part.end for part in plan_parts(path, 8, [])[:-1]) if e in inside]


def test_only_presets_that_cannot_cross_a_cut_are_split() -> None:
    assert [can_split(p) for p in ("gpt2", "gpt4", "o200k", "words")] == [True] * 4
    assert not can_split("none") and not can_split(r"\w+")


def test_processes_train_like_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PART_BYTES", 1000)
    text = "".join(f"line {i} of the text, with words like tokenizer{i % 7}\n" for i in range(900))
    path = write(tmp_path / "corpus.txt", text)
    assert len(plan_parts(path, 2, [])) == 2
    progress: list[tuple[str, int, int]] = []
    two = train_files(
        [path], 400, pattern="gpt4", workers=2, progress=lambda *a: progress.append(a)
    )
    one = train_files([path], 400, pattern="gpt4")
    assert fast_steps(two.history) == fast_steps(one.history)
    counting = [p for p in progress if p[0] == "counting"]
    assert len(counting) == 2 and counting[-1][1] == counting[-1][2] == path.stat().st_size


def test_a_real_corpus_on_two_cores() -> None:
    # 2.4 MB of Japanese and Thai: two parts, cut in Thai text (mix19.txt, 19 MB, is for
    # benchmarks: it cut in English prose and took ~5 s of CPU for the same check)
    path = shared_path("corpora", "multi_ja_th.txt")
    parts = plan_parts(path, 2, [])
    assert len(parts) == 2 and parts[0].lookahead
    two = count_files_in_parallel([path], "gpt2", workers=2)
    one = count_file_chunks([path], "gpt2")
    assert two == one and list(two) == list(one)


@pytest.mark.parametrize("pattern", ["gpt2", "gpt4", "o200k", "words"])
@tmp_files
@given(text=st.text(alphabet="a b\n1,.<|>'\u0301X", max_size=200), parts=st.integers(2, 12))
def test_overlapping_specials_and_few_letters_in_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pattern: str, text: str, parts: int
) -> None:
    """Specials that begin alike (`<|a`, `<|a b|>`) and text cut mostly beside digits."""
    monkeypatch.setattr(parallel, "MIN_PART_BYTES", 1)
    specials = ["<|a", "<|a b|>"]
    text = text + "<|a b|>1,2 <|a\n3<|a b|>" + text[::-1]
    path = write(tmp_path / "corpus.txt", text)
    whole = count_file_chunks([path], pattern, specials)
    split = counted_in_parts(path, pattern, specials, parts)
    assert list(split.items()) == list(whole.items())
