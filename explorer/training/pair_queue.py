"""The learner's queue of pairs to merge: the best pair next, and the pairs tied with it.

Pairs are keys `a * PAIR_BASE + b` (cheaper to hash than tuples), as in
`explorer.training.learner`, whose corpus the queue reads through `PairIndex`. `PairQueue` breaks
ties by first position (minbpe's rule); `LowestIdsQueue` by the pair's ids, which the
key itself orders (a * PAIR_BASE + b sorts as (a, b) does). `queue_for` picks one.

    >>> class Index:  # "abab" has ab twice, ba once
    ...     count = {97 * PAIR_BASE + 98: 2, 98 * PAIR_BASE + 97: 1}
    ...     where = {97 * PAIR_BASE + 98: [1, 3], 98 * PAIR_BASE + 97: [2]}
    ...     def first_live(self, key, hint):
    ...         return hint
    >>> queue = PairQueue(Index(), cold_below=2)
    >>> [divmod(queue.pop_best()[0], PAIR_BASE) for _ in range(2)], queue.pop_best()
    ([(97, 98), (98, 97)], None)
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Protocol

from explorer.training.tie_rules import TieRule

# A pair (a, b) is the integer a * PAIR_BASE + b: cheaper to hash than a tuple.
PAIR_BASE = 1 << 24
MAX_TIES_RECORDED = 5
COLD_BELOW = 16  # pairs counted less than this wait outside the heap (see PairQueue)
_NOTHING = -1  # no pair


class PairIndex(Protocol):
    """What the queue reads of the corpus: live pairs' counts and positions."""

    count: dict[int, int]  # live pairs only
    where: dict[int, list[int]]  # each live pair's positions, ascending, some perhaps stale

    def first_live(self, key: int, hint: int) -> int:
        """The pair's first live position, given a lower bound."""
        ...


class PairQueue:
    """The pairs still to merge, best first: count highest, then first position lowest.

    A lazy max-heap, as Hugging Face's trainer keeps it, with two waiting rooms. Its
    invariants, which every method keeps:

    1. Each live pair (a key of `corpus.count`) has exactly one entry, in `heap`, `cold`
       or `ready`; a dead pair may still have one, dropped when it is met.
    2. A heap entry is (-count, hint, pair) with count >= the pair's count and hint <=
       its first live position: a pair's count only falls once it is made, and its
       first position only moves right. So no entry sorts after its pair's true place,
       and one that is exact (count current, hint live) at the top is the true best.
       An inexact top is filed again at its current values, so a falling count costs
       no push.
    3. `cold` holds pairs counted below `cold_below` when filed (counts only fall, so
       they still are), unsorted: most new pairs are rare (half occur once) and are
       never merged. A heap pair counted at least `cold_below` beats them all; when
       the best falls below, the level halves and the cold pairs above it join the
       heap. At level 0 nothing is cold.
    4. `ready` holds up to five pairs that tied with the last merged one, as
       (count, first, pair) in tie order, each exact as of its merge: they tie again
       step after step at low counts, and re-sorting them was a third of training
       time. A merge of (a, b) changes only pairs that end in a or start with b;
       `merged(pair)` records it and those pairs go back to the heap before the next
       pop (`_recheck_ready`).
    """

    def __init__(self, corpus: PairIndex, cold_below: int = COLD_BELOW) -> None:
        self.corpus = corpus
        self.cold_below = cold_below
        self.cold: list[int] = []
        self.heap: list[tuple[int, int, int]] = []
        self.ready: list[tuple[int, int, int]] = []  # (count, first, pair): ties, in order
        self._changed = _NOTHING  # the pair merged since `ready` was checked
        self._first_live = self._live_hint()
        for key, count in corpus.count.items():
            if count < cold_below:
                self.cold.append(key)
            else:
                self.heap.append((-count, self._hint(key), key))
        heapq.heapify(self.heap)  # once, not a push per pair

    def _live_hint(self) -> Callable[[int, int], int]:
        """How a hint is made exact: the corpus's first live position (see invariant 2).

        Bound once, as `_first_live`: the hot loops call it without a lookup.
        """
        return self.corpus.first_live

    def _hint(self, key: int) -> int:
        """The place of a pair among pairs of its count, when filed: its first position."""
        return self.corpus.where[key][0]  # positions are ascending

    def merged(self, key: int) -> None:
        """Note that `key` was merged: the waiting ties it changed are rechecked next pop."""
        self._changed = key

    def push(self, key: int, count: int, first: int) -> None:
        if count < self.cold_below:
            self.cold.append(key)
        else:
            heapq.heappush(self.heap, (-count, first, key))

    def pop_best(self) -> tuple[int, int, int] | None:
        """Remove and return (pair, count, first position) of the best pair, if any."""
        if self._changed != _NOTHING:
            self._recheck_ready()
        ready = self.ready
        if not ready:
            return self._pop_exact()
        count, first, key = ready[0]
        heap = self.heap
        if heap and (heap[0][0], heap[0][1]) < (-count, first):
            best = self._pop_exact()  # the heap may hold a better pair: find out exactly
            if best is not None and (-best[1], best[2]) < (-count, first):
                return best
            if best is not None:
                self.push(*best)
        del ready[0]
        return key, count, first

    def _recheck_ready(self) -> None:
        """Send back to the heap the waiting ties the last merge changed (invariant 4)."""
        a, b = divmod(self._changed, PAIR_BASE)
        count = self.corpus.count
        kept = []
        for entry in self.ready:
            tied_count, first, key = entry
            if key % PAIR_BASE != a and key // PAIR_BASE != b:
                kept.append(entry)
                continue
            current = count.get(key)
            if current is None:
                continue
            if current != tied_count:
                self.push(key, current, first)
                continue
            live = self._first_live(key, first)
            if live == first:
                kept.append(entry)
            else:
                self.push(key, current, live)
        self.ready = kept
        self._changed = _NOTHING

    def _pop_exact(self) -> tuple[int, int, int] | None:
        """The best pair of the heap and the cold list, exactly."""
        while True:
            best = self._pop_heap()
            if best is not None and best[1] >= self.cold_below:
                return best
            if not self.cold:
                self.cold_below = 0
                return best
            if best is not None:
                heapq.heappush(self.heap, (-best[1], best[2], best[0]))
                self._thaw(min(best[1], self.cold_below // 2))
            else:
                self._thaw(self.cold_below // 2)

    def _thaw(self, level: int) -> None:
        """Move the cold pairs counted at least `level` (now the cold limit) to the heap."""
        count, hint = self.corpus.count, self._hint
        self.cold_below = level
        still_cold = []
        for key in self.cold:
            current = count.get(key)
            if current is None:
                continue
            if current >= level:
                heapq.heappush(self.heap, (-current, hint(key), key))
            else:
                still_cold.append(key)
        self.cold = still_cold

    def _pop_heap(self) -> tuple[int, int, int] | None:
        heap, first_live, count = self.heap, self._first_live, self.corpus.count
        while heap:
            neg_count, hint, key = heap[0]
            current = count.get(key)
            if current is None:
                heapq.heappop(heap)
                continue
            if current != -neg_count:
                heapq.heapreplace(heap, (-current, hint, key))
                continue
            first = first_live(key, hint)
            if first != hint:
                heapq.heapreplace(heap, (neg_count, first, key))
                continue
            heapq.heappop(heap)
            return key, current, first
        return None

    def peek_ties(self, key: int, count: int) -> list[int]:
        """Up to five other pairs with the same count as `key`, in tie order.

        They wait, in that order, in `ready` rather than in the heap (invariant 4).
        """
        ready, heap = self.ready, self.heap
        if not ready and (not heap or -heap[0][0] != count):
            return []  # every entry left has a lower count: no tie is possible
        ties: list[int] = []
        i = 0
        while len(ties) < MAX_TIES_RECORDED:
            if i < len(ready):
                tied, first, other = ready[i]
                if not heap or (heap[0][0], heap[0][1]) > (-tied, first):
                    ties.append(other)  # no heap entry can come before it
                    i += 1
                    continue
            best = self._pop_exact()
            if best is None:
                break
            other, tied, first = best
            if i < len(ready) and (-tied, first) > (-ready[i][0], ready[i][1]):
                self.push(*best)  # it comes after the next waiting tie
                ties.append(ready[i][2])
                i += 1
                continue
            if tied != count:
                self.push(*best)
                break
            ready.insert(i, (tied, first, other))
            ties.append(other)
            i += 1
        return ties


class LowestIdsQueue(PairQueue):
    """The pairs best first by the lexicographic rule: count highest, then ids lowest.

    The same queue with the key itself as every entry's hint: a pair's ids never change,
    so a hint is always exact, and invariant 2 holds with "first position" read as "ids".
    """

    def _live_hint(self) -> Callable[[int, int], int]:
        return _same_hint

    def _hint(self, key: int) -> int:
        return key

    def push(self, key: int, count: int, first: int) -> None:
        if count < self.cold_below:
            self.cold.append(key)
        else:
            heapq.heappush(self.heap, (-count, key, key))


def _same_hint(key: int, hint: int) -> int:
    return hint


def queue_for(tie_rule: TieRule, corpus: PairIndex, cold_below: int = COLD_BELOW) -> PairQueue:
    """The queue that breaks ties by `tie_rule`."""
    if tie_rule is TieRule.LOWEST_IDS:
        return LowestIdsQueue(corpus, cold_below)
    return PairQueue(corpus, cold_below)
