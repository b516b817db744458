"""Two merge lists compared by the bytes each merge makes: hand examples, properties, and
real tokenizers (a trained run against itself, GPT-2 against GPT-4)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from explorer import load_bundled, train
from explorer.analysis.diffs.merge_diff import MergeDiff, first_divergence, merge_diff, merge_tokens

# few distinct tokens, so lists share many and repeat some (as a trained list can)
merge_lists = st.lists(st.sampled_from([b"ab", b"ba", b"aab", b"abc", b"bb", b"aa", b"bab"]))


def naive_first_divergence(a: list[bytes], b: list[bytes]) -> int | None:
    """The obvious loop: walk both lists to the end of the longer one."""
    for index in range(max(len(a), len(b))):
        left = a[index] if index < len(a) else None
        right = b[index] if index < len(b) else None
        if left != right:
            return index + 1
    return None


def check_counts(diff: MergeDiff, a: list[bytes], b: list[bytes]) -> None:
    assert diff.merges_a == len(a) and diff.merges_b == len(b)
    shared = Counter(m.token for m in diff.shared)
    assert shared == Counter(a) & Counter(b)  # the multiset both hold
    assert Counter(m.token for m in diff.only_a) == Counter(a) - Counter(b)
    assert Counter(m.token for m in diff.only_b) == Counter(b) - Counter(a)
    numbers_a = sorted([m.merge_a for m in diff.shared] + [m.merge for m in diff.only_a])
    numbers_b = sorted([m.merge_b for m in diff.shared] + [m.merge for m in diff.only_b])
    assert numbers_a == list(range(1, len(a) + 1)) and numbers_b == list(range(1, len(b) + 1))
    for m in diff.shared:
        assert a[m.merge_a - 1] == m.token == b[m.merge_b - 1]
    for lone, source in [*((m, a) for m in diff.only_a), *((m, b) for m in diff.only_b)]:
        assert source[lone.merge - 1] == lone.token


def test_a_worked_example() -> None:
    diff = merge_diff([b"th", b"he", b"in", b"the"], [b"th", b"in", b"he", b"er"])
    assert [(m.token, m.merge_a, m.merge_b) for m in diff.shared] == [
        (b"th", 1, 1),
        (b"he", 2, 3),
        (b"in", 3, 2),
    ]
    assert [(m.token, m.merge) for m in diff.only_a] == [(b"the", 4)]
    assert [(m.token, m.merge) for m in diff.only_b] == [(b"er", 4)]
    assert diff.first_divergence == 2  # merge 2: "he" in A, "in" in B


def test_empty_lists() -> None:
    diff = merge_diff([], [])
    assert diff.shared == diff.only_a == diff.only_b == () and diff.first_divergence is None
    one = merge_diff([], [b"ab"])
    assert one.first_divergence == 1 and [m.merge for m in one.only_b] == [1]


@given(merge_lists)
def test_a_list_against_itself_shares_everything(a: list[bytes]) -> None:
    diff = merge_diff(a, a)
    assert diff.only_a == diff.only_b == () and diff.first_divergence is None
    assert [(m.merge_a, m.merge_b) for m in diff.shared] == [(n, n) for n in range(1, len(a) + 1)]


@given(merge_lists, st.integers(min_value=0, max_value=20))
def test_a_prefix_shares_its_merges_at_the_same_numbers(a: list[bytes], cut: int) -> None:
    prefix = a[:cut]
    diff = merge_diff(prefix, a)
    assert diff.only_a == ()
    same_numbers = [(n, n) for n in range(1, len(prefix) + 1)]
    assert [(m.merge_a, m.merge_b) for m in diff.shared] == same_numbers
    assert [m.merge for m in diff.only_b] == list(range(len(prefix) + 1, len(a) + 1))
    assert diff.first_divergence == (None if len(prefix) == len(a) else len(prefix) + 1)


@given(merge_lists, merge_lists)
def test_swapping_a_and_b_swaps_the_answer(a: list[bytes], b: list[bytes]) -> None:
    forward, backward = merge_diff(a, b), merge_diff(b, a)
    assert forward.only_a == backward.only_b and forward.only_b == backward.only_a
    pairs = sorted((m.token, m.merge_a, m.merge_b) for m in forward.shared)
    assert pairs == sorted((m.token, m.merge_b, m.merge_a) for m in backward.shared)
    assert forward.first_divergence == backward.first_divergence


@given(merge_lists, merge_lists)
def test_the_counts_add_up(a: list[bytes], b: list[bytes]) -> None:
    check_counts(merge_diff(a, b), a, b)


@given(merge_lists, merge_lists)
def test_first_divergence_matches_a_naive_loop(a: list[bytes], b: list[bytes]) -> None:
    assert first_divergence(a, b) == naive_first_divergence(a, b)
    assert merge_diff(a, b).first_divergence == naive_first_divergence(a, b)


def test_merge_tokens_follow_the_vocab_size() -> None:
    tokenizer = train("aaabdaaabac", 259, pattern="none").tokenizer
    assert merge_tokens(tokenizer) == [b"aa", b"aaa", b"aaab"]
    assert merge_tokens(tokenizer, 257) == [b"aa"] and merge_tokens(tokenizer, 256) == []
    assert merge_tokens(tokenizer, 10_000) == merge_tokens(tokenizer)


def test_two_patterns_on_one_text_agree_then_part() -> None:
    text = "the cat sat on the mat; the hat that the rat ate. " * 20
    none = merge_tokens(train(text, 300, pattern="none").tokenizer)
    gpt4 = merge_tokens(train(text, 300, pattern="gpt4").tokenizer)
    diff = merge_diff(none, gpt4)
    check_counts(diff, none, gpt4)
    assert diff.first_divergence is not None
    assert any(b" " in m.token[1:] for m in diff.only_a)  # only `none` merges across words
    assert all(b" " not in m.token[1:] for m in diff.only_b)


def test_gpt2_and_gpt4_by_their_bytes() -> None:
    """GPT-2 numbers its bytes in another order; compared by bytes, " t" is still found."""
    gpt2 = merge_tokens(load_bundled("gpt2"), 2_256)
    gpt4 = merge_tokens(load_bundled("cl100k_base"), 2_256)
    diff = merge_diff(gpt2, gpt4)
    check_counts(diff, gpt2, gpt4)
    assert (gpt2[0], gpt4[0]) == (b" t", b"  ")  # GPT-4 merges spaces first (code)
    assert diff.first_divergence == 1
    assert next(m for m in diff.shared if m.token == b" t").merge_b == 4
    assert diff.first_divergence == naive_first_divergence(gpt2, gpt4)
    assert 500 < len(diff.shared) < 2_000  # much in common, not everything
