"""Reading files in blocks gives exactly the merges of reading them whole."""

from __future__ import annotations

from pathlib import Path

import pytest
import regex
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from explorer import PRESETS, train, train_files
from explorer.training import corpus
from explorer.training.corpus import CorpusError, count_chunks, count_file_chunks
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


# Random custom patterns: pieces whose matches depend on where matching started
# (fixed-width pairs, bounded repeats), look-arounds, anchors, and unbounded runs.
ATOMS = [".", "a", "b", "[ab]", r"\w", r"\W", r"\s", r"\d", "[^a]", r"\p{L}", "é", " "]
ASSERTIONS = [r"\b", "$", "^", r"(?<=a)", r"(?<!b)", r"(?<=\w\s)", r"(?=a)", r"(?!b)", r"(?=.b)"]
QUANTIFIERS = ["", "", "?", "{2}", "{1,2}", "{0,3}", "??", "{1,3}?", "?+", "*", "+", "++"]
items = st.one_of(
    st.builds(lambda a, q: a + q, st.sampled_from(ATOMS), st.sampled_from(QUANTIFIERS)),
    st.sampled_from(ASSERTIONS),
)
branches = st.lists(items, min_size=1, max_size=3).map("".join)
custom_patterns = st.builds(
    lambda flags, alternatives: flags + "|".join(alternatives),
    st.sampled_from(["", "(?s)", "(?m)", "(?i)"]),
    st.lists(branches, min_size=1, max_size=3),
)
CUSTOM_ALPHABET = "ab \n.é1A<|"


def _compiles(pattern: str) -> bool:
    try:
        regex.compile(pattern)
    except regex.error:
        return False
    return True


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    pattern=st.one_of(
        st.sampled_from([r"(?s)..?", r"(?s).{1,2}", r"(?s)\w.|.", r"(?<=\w{3}).|.."]),
        custom_patterns.filter(_compiles),
    ),
    text=st.text(alphabet=CUSTOM_ALPHABET, max_size=300),
    block=st.sampled_from([1, 2, 3, 5, 8, 70, 100]),  # over 64: past the old check's window
    with_specials=st.booleans(),
)
@example(pattern=r"(?<=\w{3}).|..", text="1111é", block=1, with_specials=False)
def test_custom_patterns_count_like_the_whole_text(
    tmp_path: Path, pattern: str, text: str, block: int, with_specials: bool
) -> None:
    specials = ["<|a", "<|a b|>", "b<"] if with_specials else []
    path = write(tmp_path / "corpus.txt", text)
    whole = count_chunks([text], pattern, specials)
    blocks = count_file_chunks([path], pattern, specials, block_chars=block)
    assert list(blocks.items()) == list(whole.items())


# Matches that depend on text before their start. Reading 1-3 bytes at a time splits é
# and 😀, so some blocks decode to "": the text before the carry must outlive them.
# \K reports a match start past its attempt, so such patterns are matched whole.
CONTEXT_PATTERNS = [
    r"(?<=\w{3}).|..",
    r"(?<=a{2})b|.",
    r"(?<!\d)\d+|.",
    r"(?<!\d)\d{1,3}|.",
    r"\b\w|.",
    r"\B.|..",
    r"(?m)^.|.",
    r"(?<=é.)1|.",
    r"(?<=\b\w)\w|.",
    r"a(?=b{2})|.",
    r"..\K.|.",
    r"(?s).\K.|.",
]
CONTEXT_TEXTS = ["1111é", "aab😀aabé b", "é12345é6 1😀23", "ab\néé1é1 aaab😀\n1a", "aé<|a b|>éé1"]


@pytest.mark.parametrize("pattern", CONTEXT_PATTERNS)
@pytest.mark.parametrize("block", range(1, 8))
def test_context_before_a_match_survives_blocks(tmp_path: Path, pattern: str, block: int) -> None:
    for specials in ([], ["<|a", "<|a b|>"]):
        for text in CONTEXT_TEXTS:
            path = write(tmp_path / "corpus.txt", text)
            whole = count_chunks([text], pattern, specials)
            blocks = count_file_chunks([path], pattern, specials, block_chars=block)
            assert list(blocks.items()) == list(whole.items()), (text, specials)


@pytest.mark.parametrize("pattern", [r"(?s)..?", r"(?s).{1,2}", r"\w+|\W", r"(?<=\w{3})."])
def test_issue_patterns_over_many_blocks(tmp_path: Path, pattern: str, sample_text: str) -> None:
    text = sample_text[:40_000] + "x" + sample_text[:40_000]  # odd length: pairs shift
    path = write(tmp_path / "corpus.txt", text)
    whole = count_chunks([text], pattern)
    assert list(count_file_chunks([path], pattern, block_chars=1000).items()) == list(whole.items())


@pytest.mark.parametrize("pattern", [*sorted(PRESETS), r"(?s)..?"])
@pytest.mark.parametrize("block", [1, 2, 3, 7])
def test_overlapping_special_tokens_across_blocks(tmp_path: Path, pattern: str, block: int) -> None:
    specials = ["<|a", "<|a b|>"]
    for text in ["<|a b|>", "x<|a b|>y<|a c", "<|a<|a b|><|a b|", "ab <|a b|> <|a b"]:
        path = write(tmp_path / "corpus.txt", text)
        whole = count_chunks([text], pattern, specials)
        assert count_file_chunks([path], pattern, specials, block_chars=block) == whole


NO_LETTERS = "0123456789,.;:-+[]{}\"\n\r \t/'\u0301"


@pytest.mark.parametrize("pattern", ["gpt2", "gpt4", "o200k", "words"])
@tmp_files
@given(text=st.text(alphabet=NO_LETTERS + "aZé", max_size=200), block=st.integers(1, 9))
def test_presets_cut_text_with_few_letters_exactly(
    tmp_path: Path, pattern: str, text: str, block: int
) -> None:
    path = write(tmp_path / "corpus.txt", text)
    whole = count_chunks([text], pattern)
    assert list(count_file_chunks([path], pattern, block_chars=block).items()) == list(
        whole.items()
    )


def test_text_without_letters_is_cut_into_bounded_pieces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A numeric CSV is not carried whole: the longest text looked at stays near a block."""
    rows = "".join(f"{i},{i * 7 % 1000}.{i % 97},-{i * 31}\n" for i in range(20_000))
    path = write(tmp_path / "numbers.csv", rows)
    longest = 0
    original = corpus._ChunkCounter._hold_back

    def spy(self: corpus._ChunkCounter, text: str, context: str) -> str:
        nonlocal longest
        longest = max(longest, len(text))
        return original(self, text, context)

    monkeypatch.setattr(corpus._ChunkCounter, "_hold_back", spy)
    for pattern in ("gpt2", "gpt4", "o200k", r"(?s)..?"):
        longest = 0
        counts = count_file_chunks([path], pattern, block_chars=4096)
        assert counts == count_chunks([rows], pattern)
        assert longest < 2 * 4096


def test_block_method_says_which_path() -> None:
    assert corpus.block_method("gpt4") == "cuts"
    assert corpus.block_method(r"[a-z]{1,3}|.") == "reach"
    assert corpus.block_method(r"\w+|\W") == "whole"
    assert corpus.block_method(r"(?<=\w{300})x") == "whole"  # looks further back than kept
