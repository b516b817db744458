"""The learner's pair queue, against the naive reference, at every cold threshold.

The threshold only decides which pairs wait unsorted outside the heap (PairQueue's
invariant 3): 0 and 1 keep none cold, 16 is the default, and a huge one starts with
every pair cold. Each must give exactly minbpe's order, ties and merges.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.training.learner import _Corpus, learn_merges
from explorer.training.pair_queue import MAX_TIES_RECORDED, PAIR_BASE, PairQueue
from tests.naive import fast_steps, get_stats, naive_train

THRESHOLDS = st.sampled_from([0, 1, 16, 1 << 40])
# few letters, so pairs repeat, tie and overlap ("aaa"); weights up to 40 cross the default
CHUNKS = st.dictionaries(st.text("abc", min_size=1, max_size=12), st.integers(1, 40), max_size=8)


def naive_order(chunk_counts: dict[str, int]) -> list[tuple[tuple[int, int], int, int]]:
    """Every pair as (pair, weighted count, first position in the learner's layout), best
    first: highest count, then earliest (the layout puts a boundary before each chunk)."""
    counts: dict[tuple[int, int], int] = {}
    first: dict[tuple[int, int], int] = {}
    start = 1
    for chunk, weight in chunk_counts.items():
        ids = list(chunk.encode())
        stats: dict[tuple[int, int], int] = {}
        get_stats(ids, stats)
        for pair, n in stats.items():
            counts[pair] = counts.get(pair, 0) + n * weight
        for i, pair in enumerate(zip(ids, ids[1:])):
            first.setdefault(pair, start + i)
        start += len(ids) + 1
    return sorted(((p, counts[p], first[p]) for p in counts), key=lambda e: (-e[1], e[2]))


@settings(max_examples=200, deadline=None)
@given(chunk_counts=CHUNKS, cold_below=THRESHOLDS)
def test_pairs_come_out_best_first_with_their_ties(
    chunk_counts: dict[str, int], cold_below: int
) -> None:
    corpus = _Corpus({chunk.encode(): n for chunk, n in chunk_counts.items()})
    queue = PairQueue(corpus, cold_below)
    expected = naive_order(chunk_counts)
    popped = []
    while (best := queue.pop_best()) is not None:
        key, count, first = best
        entry = (divmod(key, PAIR_BASE), count, first)
        assert entry == expected[len(popped)]
        popped.append(entry)
        ties = [divmod(other, PAIR_BASE) for other in queue.peek_ties(key, count)]
        later = expected[len(popped) :]
        assert ties == [pair for pair, n, _ in later if n == count][:MAX_TIES_RECORDED]
    assert popped == expected  # every live pair once (invariant 1)


@settings(max_examples=200, deadline=None)
@given(chunk_counts=CHUNKS, cold_below=THRESHOLDS, merges=st.integers(0, 30))
def test_merges_are_minbpes_at_every_threshold(
    chunk_counts: dict[str, int], cold_below: int, merges: int
) -> None:
    learned = learn_merges(
        {chunk.encode(): n for chunk, n in chunk_counts.items()}, merges, cold_below=cold_below
    )
    expanded = [chunk for chunk, n in chunk_counts.items() for _ in range(n)]
    assert fast_steps(learned) == naive_train(expanded, merges)
