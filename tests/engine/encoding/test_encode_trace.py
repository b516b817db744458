"""The step-by-step encoding trace agrees with Tokenizer.encode and with minbpe's loop.

Property tests on tokenizers trained on random texts and on the bundled GPT-2, cl100k
(GPT-4) and o200k (GPT-4o) vocabularies: the final ids are encode's and the naive
encoder's, and every step merged the lowest-numbered of exactly the mergeable pairs.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import PRESETS, SpecialTokenError, Tokenizer, load_bundled, train
from explorer.encoding.encode_trace import (
    MAX_TRACE_CHARS,
    EncodeTrace,
    TraceLimitError,
    fused_positions,
    fused_starts,
    trace_encoding,
)
from explorer.files.bundled import BUNDLED_NAMES
from tests.naive import merge, naive_encode, split_text

SMALL_ALPHABET = "aabbc é😀 \n.,'A1"
any_text = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=120)
small_text = st.text(alphabet=SMALL_ALPHABET, max_size=80)


@pytest.fixture(scope="module")
def bundled() -> dict[str, Tokenizer]:
    """The three bundled vocabularies, loaded once for this module (o200k takes ~2 s)."""
    return {name: load_bundled(name) for name in BUNDLED_NAMES}


def check_steps(tokenizer: Tokenizer, trace: EncodeTrace) -> None:
    """Each step: candidates are exactly the adjacent pairs with merges, the lowest wins,
    every occurrence fuses left to right; steps chain; the last leaves nothing to merge."""
    for chunk in trace.chunks:
        if chunk.special:
            assert chunk.steps == ()
            assert chunk.start_ids == (tokenizer.special_tokens[chunk.text],)
            continue
        assert list(chunk.start_ids) == tokenizer.initial_ids(chunk.text)
        ids = chunk.start_ids
        for step in chunk.steps:
            assert step.ids_before == ids
            pairs = list(zip(ids, ids[1:]))
            mergeable = {pair for pair in pairs if pair in tokenizer.ranks}
            assert {c.pair for c in step.candidates} == mergeable
            assert len(step.candidates) == len(mergeable)  # each pair listed once
            for candidate in step.candidates:
                assert candidate.new_id == tokenizer.ranks[candidate.pair]
                assert candidate.merge_number == candidate.new_id - 255 >= 1
                assert candidate.positions == tuple(
                    i for i, pair in enumerate(pairs) if pair == candidate.pair
                )
            lowest = min(c.merge_number for c in step.candidates)
            assert step.merge_number == lowest and step.chosen in step.candidates
            assert list(step.ids_after) == merge(list(ids), step.pair, step.new_id)
            for position in fused_positions(step):
                assert step.ids_after[position] == step.new_id
            assert len(step.ids_after) == len(ids) - len(fused_starts(step))
            ids = step.ids_after
        assert not any(pair in tokenizer.ranks for pair in zip(ids, ids[1:]))


def check_numbering(trace: EncodeTrace) -> None:
    """The global steps run 1..N through the chunks; ids_at(k) is the text after k."""
    steps = trace.steps
    assert [s.number for s in steps] == list(range(1, len(steps) + 1))
    assert trace.ids_at(0) == [chunk.start_ids for chunk in trace.chunks]
    assert trace.ids_at(len(steps)) == [chunk.ids for chunk in trace.chunks]
    for numbered in steps:
        assert trace.chunks[numbered.chunk].steps[numbered.index] is numbered.step
        assert trace.ids_at(numbered.number)[numbered.chunk] == numbered.step.ids_after
        assert trace.ids_at(numbered.number - 1)[numbered.chunk] == numbered.step.ids_before


# --- tokenizers trained on random texts ---------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    corpus=st.text(alphabet=SMALL_ALPHABET, min_size=1, max_size=200),
    merges=st.integers(0, 40),
    pattern=st.sampled_from(sorted(PRESETS)),
    text=small_text,
)
def test_trace_is_encode_and_naive_on_trained_tokenizers(
    corpus: str, merges: int, pattern: str, text: str
) -> None:
    tokenizer = train(corpus, 256 + merges, pattern=pattern).tokenizer
    trace = trace_encoding(tokenizer, text)
    assert trace.ids == tokenizer.encode(text)
    assert trace.ids == naive_encode(split_text(text, PRESETS[pattern]), tokenizer.merges)
    assert "".join(chunk.text for chunk in trace.chunks) == text
    check_steps(tokenizer, trace)
    check_numbering(trace)


@settings(max_examples=30, deadline=None)
@given(corpus=small_text, text=small_text, special=st.sampled_from(["<|end|>", "<b>&"]))
def test_special_tokens_are_chunks_of_their_own(corpus: str, text: str, special: str) -> None:
    tokenizer = train(corpus or "a", 300, pattern="gpt4", special_tokens=[special]).tokenizer
    text = f"{text}{special}{text}"
    trace = trace_encoding(tokenizer, text)
    assert trace.ids == tokenizer.encode(text, allowed_special="all")
    assert [c.text for c in trace.chunks if c.special] == [special]
    check_steps(tokenizer, trace)
    with pytest.raises(SpecialTokenError):
        trace_encoding(tokenizer, text, allowed_special="none")


# --- the bundled vocabularies --------------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED_NAMES)
@settings(max_examples=25, deadline=None)
@given(text=any_text)
def test_trace_is_encode_and_naive_on_bundled(
    bundled: dict[str, Tokenizer], name: str, text: str
) -> None:
    tokenizer = bundled[name]
    trace = trace_encoding(tokenizer, text, allowed_special="none", disallowed_special=())
    assert trace.ids == tokenizer.encode_ordinary(text)
    naive = naive_encode(
        split_text(text, tokenizer.pattern), tokenizer.merges, list(tokenizer.byte_ids)
    )
    assert trace.ids == naive
    check_steps(tokenizer, trace)
    check_numbering(trace)


@pytest.mark.parametrize("name", BUNDLED_NAMES)
@pytest.mark.parametrize(
    "text", ["tokenization", " unbelievable", "Straße 2024!", "東京タワー", "<b>&amp;</b>"]
)
def test_known_words_on_bundled(bundled: dict[str, Tokenizer], name: str, text: str) -> None:
    tokenizer = bundled[name]
    trace = trace_encoding(tokenizer, text)
    assert trace.ids == tokenizer.encode(text)
    check_steps(tokenizer, trace)


@pytest.mark.parametrize("name", BUNDLED_NAMES)
@pytest.mark.parametrize("text", ["x" * 300, " " + "ab" * 149 + "\n", "0" * 300, "ก" * 300])
def test_long_runs_trace_as_they_encode(
    bundled: dict[str, Tokenizer], name: str, text: str
) -> None:
    """Runs long enough that encode merges them in windows; the trace merges them whole."""
    tokenizer = bundled[name]
    assert trace_encoding(tokenizer, text).ids == tokenizer.encode(text)


# --- worked example, limits ---------------------------------------------------------------


def test_the_seeds_example_merges_aa_then_aaa_then_aaab() -> None:
    tokenizer = train("aaabdaaabac", 259, pattern="none").tokenizer
    (chunk,) = trace_encoding(tokenizer, "aaabdaaabac").chunks
    assert [s.merge_number for s in chunk.steps] == [1, 2, 3]
    assert [tokenizer.vocab[s.new_id] for s in chunk.steps] == [b"aa", b"aaa", b"aaab"]
    assert [s.positions for s in chunk.steps] == [(0, 1, 5, 6), (0, 4), (0, 3)]
    assert chunk.ids == (258, 100, 258, 97, 99)


def test_lowest_number_wins_over_reading_order() -> None:
    # 'cd' is merge 1 and sits at the end; 'ab' (merge 2) comes first in reading order
    tokenizer = Tokenizer([(99, 100), (97, 98)])
    (chunk,) = trace_encoding(tokenizer, "abcd").chunks
    assert [c.merge_number for c in chunk.steps[0].candidates] == [2, 1]
    assert [s.merge_number for s in chunk.steps] == [1, 2]


def test_a_tokenizer_without_merges_has_no_steps() -> None:
    trace = trace_encoding(Tokenizer(), "hello")
    assert trace.steps == () and trace.ids == list(b"hello")


def test_long_text_is_refused_with_the_limit() -> None:
    assert trace_encoding(Tokenizer(), "a" * MAX_TRACE_CHARS).ids == [97] * MAX_TRACE_CHARS
    with pytest.raises(TraceLimitError, match=f"at most {MAX_TRACE_CHARS}"):
        trace_encoding(Tokenizer(), "a" * (MAX_TRACE_CHARS + 1))


def test_empty_text_has_no_chunks() -> None:
    trace = trace_encoding(Tokenizer([(97, 97)]), "")
    assert trace.chunks == () and trace.ids == [] and trace.ids_at(0) == []
