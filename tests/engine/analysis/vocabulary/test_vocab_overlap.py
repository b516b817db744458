"""How much of one vocabulary another has: by bytes, merged tokens only, longest missing first."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer import load_bundled
from explorer.analysis.vocabulary.vocab_overlap import (
    merged_tokens,
    vocabulary_bytes,
    vocabulary_overlap,
)
from explorer.encoding.tokenizer import Tokenizer
from explorer.training.train import train
from ui.session.samples import sample_text


def test_single_bytes_and_specials_are_left_out() -> None:
    yours = Tokenizer([(104, 105)], special_tokens=["<|end|>"])
    overlap = vocabulary_overlap(yours, frozenset(), "nothing")
    assert overlap.considered == 1 and overlap.shared == 0 and overlap.missing == 1
    assert [t.data for t in overlap.largest_missing] == [b"hi"]
    assert overlap.largest_missing[0].merge == 1  # id 256 is merge 1


def test_no_merges_means_nothing_to_compare() -> None:
    overlap = vocabulary_overlap(Tokenizer(), vocabulary_bytes(Tokenizer()), "bytes")
    assert (overlap.considered, overlap.shared, overlap.share) == (0, 0, 0.0)
    assert overlap.largest_missing == ()


def test_longest_missing_first_ties_by_earlier_merge() -> None:
    yours = Tokenizer([(97, 98), (99, 100), (256, 257), (101, 102)])  # ab cd abcd ef
    overlap = vocabulary_overlap(yours, frozenset({b"cd"}), "theirs", top=3)
    assert [(t.token_id, t.data) for t in overlap.largest_missing] == [
        (258, b"abcd"),
        (256, b"ab"),
        (259, b"ef"),
    ]
    assert overlap.shared == 1 and overlap.share == 0.25
    with pytest.raises(ValueError, match="top"):
        vocabulary_overlap(yours, frozenset(), "theirs", top=-1)


def test_the_same_bytes_from_two_merges_count_once() -> None:
    yours = Tokenizer([(97, 98), (256, 99), (98, 99), (97, 258)])  # ab, abc, bc, abc again
    assert merged_tokens(yours) == {b"ab": 256, b"abc": 257, b"bc": 258}
    assert vocabulary_overlap(yours, frozenset({b"abc"}), "t").considered == 3


@given(st.lists(st.tuples(st.integers(0, 300), st.integers(0, 300)), max_size=40))
def test_a_vocabulary_has_all_of_itself(pairs: list[tuple[int, int]]) -> None:
    merges: list[tuple[int, int]] = []
    for a, b in pairs:  # only pairs of ids that already exist
        if a < 256 + len(merges) and b < 256 + len(merges):
            merges.append((a, b))
    tok = Tokenizer(merges)
    overlap = vocabulary_overlap(tok, vocabulary_bytes(tok), "itself")
    assert overlap.share == (1.0 if overlap.considered else 0.0)
    assert overlap.largest_missing == ()
    assert overlap.considered == len({tok.vocab[i] for i in range(256, tok.vocab_size)})


def test_gpt2_ids_do_not_matter_only_bytes() -> None:
    gpt2 = load_bundled("gpt2")  # its single bytes are numbered in another order
    small = gpt2.at_vocab_size(1000)
    overlap = vocabulary_overlap(small, vocabulary_bytes(gpt2), "GPT-2")
    assert overlap.share == 1.0 and overlap.considered == 744


def test_english_merges_are_mostly_in_gpt4() -> None:
    yours = train(sample_text("shakespeare"), 600, pattern="gpt4").tokenizer
    overlap = vocabulary_overlap(yours, vocabulary_bytes(load_bundled("cl100k_base")), "GPT-4")
    assert overlap.share > 0.8
    missing = overlap.largest_missing
    assert len(missing) == 10
    assert [len(t.data) for t in missing] == sorted((len(t.data) for t in missing), reverse=True)
    assert all(t.data not in vocabulary_bytes(load_bundled("cl100k_base")) for t in missing)
