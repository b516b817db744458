"""Splitting tokens back gives exactly the chunks that merging up to the step gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import train
from explorer.analysis.pairs.pair_rewind import RewindError, rewind
from explorer.analysis.pairs.pair_table import ChunkSequences, sequences_after
from explorer.training.corpus import count_chunks

TEXTS = st.text(alphabet="ab c\né", max_size=80)


def ids_of(sequences) -> list[list[int]]:
    return [list(ids) for ids, _ in sequences.chunks]


@settings(max_examples=80, deadline=None)
@given(text=TEXTS, pattern=st.sampled_from(["none", "gpt4", "words"]))
def test_rewinding_from_the_last_step_is_merging_up_to_the_step(text: str, pattern: str) -> None:
    merges = train(text, 256 + 30, pattern=pattern).history.merges
    counts = count_chunks([text], pattern)
    last = sequences_after(counts, merges)
    for step in range(len(merges) + 1):
        expected = sequences_after(counts, merges[:step])
        got = rewind(last, merges, step)
        assert got.step == step and ids_of(got) == ids_of(expected)
        assert [w for _, w in got.chunks] == [w for _, w in expected.chunks]


def test_a_long_chain_of_merges_is_split_without_recursion() -> None:
    depth = 3000  # deeper than Python's recursion limit
    merges = [(97, 97)] + [(256 + k, 97) for k in range(depth - 1)]  # 'aa', 'aaa', ...
    last = ChunkSequences(depth, (([255 + depth, 98], 2),))  # 'a' * (depth + 1), 'b'
    assert ids_of(rewind(last, merges, 0)) == [[97] * (depth + 1) + [98]]
    assert rewind(last, merges, 2).chunks[0][0][:2] == (257, 97)  # 'aaa', then the rest


def test_a_step_after_the_state_is_refused() -> None:
    last = sequences_after({b"aaab": 1}, [(97, 97)])
    with pytest.raises(RewindError, match="from 0 to 1"):
        rewind(last, [(97, 97)], 2)
