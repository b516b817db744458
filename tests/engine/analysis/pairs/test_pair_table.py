"""The pair table agrees with minbpe's recount at every step, under both tie rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import train
from explorer.analysis.pairs.pair_table import (
    LOWEST_IDS,
    PairTableError,
    advance,
    advance_counted,
    chunks_touched,
    counted,
    describe_tie,
    pair_table,
    sequences_after,
    table_of,
    table_of_counted,
)
from explorer.training.corpus import count_chunks
from tests.naive import get_stats, merge, split_text

TEXTS = st.text(alphabet="ab c\né", max_size=60)


def naive_tables(chunks: list[str], merges: list[tuple[int, int]]):
    """The seeds' get_stats before each merge: dicts filled in text order."""
    ids = [list(chunk.encode("utf-8")) for chunk in chunks]
    for rank, pair in enumerate([*merges, None]):
        stats: dict[tuple[int, int], int] = {}
        for chunk_ids in ids:
            get_stats(chunk_ids, stats)
        yield stats
        if pair is not None:
            ids = [merge(chunk_ids, pair, 256 + rank) for chunk_ids in ids]


@settings(max_examples=60, deadline=None)
@given(text=TEXTS, pattern=st.sampled_from(["none", "gpt4"]))
def test_every_step_matches_the_naive_recount(text: str, pattern: str) -> None:
    history = train(text, 256 + 12, pattern=pattern).history
    counts = count_chunks([text], pattern)
    merges = history.merges
    resolved = "" if pattern == "none" else pattern
    chunks = split_text(text, train(text, 256, pattern=pattern).tokenizer.pattern or resolved)
    for step, stats in enumerate(naive_tables(chunks, merges)):
        table = pair_table(counts, merges, step, top=10_000)
        assert {row.pair: row.count for row in table.rows} == stats
        assert table.distinct_pairs == len(stats)
        if stats:
            assert table.winner.pair == max(stats, key=stats.get)  # first of the highest
            if step < len(merges):
                assert table.winner.pair == merges[step]
            best = max(stats.values())
            assert table.tied_with == sum(c == best for c in stats.values()) - 1
            lowest = pair_table(counts, merges, step, tie_rule=LOWEST_IDS)
            assert lowest.winner.pair == min(p for p, c in stats.items() if c == best)


def test_aaabdaaabac_by_hand() -> None:
    counts = count_chunks(["aaabdaaabac"], "none")
    merges = train("aaabdaaabac", 259, pattern="none").history.merges
    first = pair_table(counts, merges, 0)
    assert [(r.pair, r.count, r.winner) for r in first.rows[:2]] == [
        ((97, 97), 4, True),
        ((97, 98), 2, False),
    ]
    after_one = pair_table(counts, merges, 1)  # aa is 256: (256, 97) and (97, 98) tie at 2
    assert after_one.winner.pair == (256, 97) and after_one.tied_with == 1
    assert [r.tied for r in after_one.rows[:3]] == [True, True, False]
    assert "first occurrence" in describe_tie(after_one)
    textbook = pair_table(counts, merges, 1, tie_rule=LOWEST_IDS)
    assert textbook.winner.pair == (97, 98)
    assert "lowest ids" in describe_tie(textbook)


def test_tied_pairs_are_all_shown_beyond_top() -> None:
    table = pair_table(count_chunks(["abcdefgh"], "none"), [], 0, top=2)
    assert len(table.rows) == 7 and table.tied_with == 6


def test_end_of_merges_and_bad_arguments() -> None:
    counts = count_chunks(["ab"], "none")
    done = pair_table(counts, [(97, 98)], 1)
    assert done.rows == () and done.winner is None
    assert describe_tie(done) == "No pair of adjacent tokens is left."
    for bad in (-1, 2, 1.0, True):
        with pytest.raises(PairTableError, match="step must be"):
            pair_table(counts, [(97, 98)], bad)
    with pytest.raises(PairTableError, match="tie_rule must be one of"):
        pair_table(counts, [], 0, tie_rule="random")
    with pytest.raises(PairTableError, match="top must be"):
        pair_table(counts, [], 0, top=0)


@settings(max_examples=40, deadline=None)
@given(text=TEXTS, pattern=st.sampled_from(["none", "gpt4"]))
def test_advancing_one_merge_at_a_time_is_recounting(text: str, pattern: str) -> None:
    merges = train(text, 256 + 10, pattern=pattern).history.merges
    counts = count_chunks([text], pattern)
    walked = sequences_after(counts, [])
    for step, pair in enumerate(merges, start=1):
        walked = advance(walked, pair)
        direct = sequences_after(counts, merges[:step])
        assert walked.step == direct.step == step
        assert [list(ids) for ids, _ in walked.chunks] == [list(ids) for ids, _ in direct.chunks]
        assert table_of(walked) == pair_table(counts, merges, step)


@settings(max_examples=40, deadline=None)
@given(text=TEXTS, pattern=st.sampled_from(["none", "gpt4"]))
def test_counts_moved_by_a_merge_are_a_recount(text: str, pattern: str) -> None:
    merges = train(text, 256 + 10, pattern=pattern).history.merges
    counts = count_chunks([text], pattern)
    state = counted(sequences_after(counts, []))
    for step, pair in enumerate(merges, start=1):
        state = advance_counted(state, pair)
        assert dict(state.counts) == dict(counted(sequences_after(counts, merges[:step])).counts)
        assert table_of_counted(state, top=5) == pair_table(counts, merges, step, top=5)


@settings(max_examples=40, deadline=None)
@given(
    text=st.text(alphabet="aab c\néé", max_size=80),
    pattern=st.sampled_from(["none", "gpt4"]),
    rule=st.sampled_from(["first-occurrence", LOWEST_IDS]),
)
def test_the_chunks_a_merge_touches_are_the_ones_it_changes(
    text: str, pattern: str, rule: str
) -> None:
    """chunks_touched, from the last step alone, names exactly the chunks each merge
    changes; advancing through those alone is advancing through every chunk."""
    merges = train(text, 256 + 12, pattern=pattern, tie_rule=rule).history.merges
    counts = count_chunks([text], pattern)
    touched = chunks_touched(sequences_after(counts, merges), merges)
    assert len(touched) == len(merges)
    everywhere = counted(sequences_after(counts, []))
    only_touched = everywhere
    for step, pair in enumerate(merges):
        after = advance_counted(everywhere, pair)
        changed = [
            index
            for index, (old, new) in enumerate(
                zip(everywhere.sequences.chunks, after.sequences.chunks, strict=True)
            )
            if list(old[0]) != list(new[0])
        ]
        assert list(touched[step]) == changed
        only_touched = advance_counted(only_touched, pair, touched[step])
        assert only_touched.sequences.chunks == after.sequences.chunks
        assert dict(only_touched.counts) == dict(after.counts)
        everywhere = after
