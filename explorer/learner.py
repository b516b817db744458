"""The BPE learner: learn merges from counted chunks, recording every step.

Incremental, not naive: each distinct chunk is laid out once (with its frequency as a
weight) in one flat array with linked neighbours; each pair keeps the positions where it
occurs. A merge visits only the positions of the merged pair and updates the counts of
the pairs around them, so its cost is proportional to the occurrences it merges, however
long the chunks are.

Exactness (identical to minbpe): the chosen pair has the highest overlapping count; ties
go to the pair whose first occurrence is earliest in the current token sequence, chunks
in text order. Chunks are laid out in order of first appearance, so "earliest" is the
smallest live position.

    >>> [step.token for step in learn_merges({b"aaabdaaabac": 1}, 3).steps]
    [b'aa', b'aaa', b'aaab']
"""

from __future__ import annotations

import gc
import heapq
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from explorer.history import MergeStep, StopReason

# A pair (a, b) is the integer a * PAIR_BASE + b: cheaper to hash than a tuple.
PAIR_BASE = 1 << 24
MAX_VOCAB_SIZE = PAIR_BASE
MAX_TIES_RECORDED = 5
_BOUNDARY = -1  # sentinel between chunks
_DEAD = -2  # a position absorbed into its left neighbour

ProgressCallback = Callable[[str, int, int], None]
"""progress(phase, done, total): phase is "counting" or "merging"."""


@dataclass(frozen=True)
class LearnedMerges:
    steps: tuple[MergeStep, ...]
    stop_reason: StopReason
    initial_length: int
    token_usage: dict[int, int]


class _Corpus:
    """The token sequence of all distinct chunks, with pair counts and positions."""

    def __init__(self, chunk_counts: Mapping[bytes, int]) -> None:
        ids: list[int] = [_BOUNDARY]
        weight: list[int] = [0]
        for chunk, freq in chunk_counts.items():
            ids.extend(chunk)
            ids.append(_BOUNDARY)
            weight.extend([freq] * (len(chunk) + 1))
        self.ids = ids
        self.weight = weight
        self.nxt = list(range(1, len(ids) + 1))
        self.prv = list(range(-1, len(ids) - 1))
        self.length = sum(len(c) * f for c, f in chunk_counts.items())
        self.count: dict[int, int] = {}
        self.where: dict[int, list[int]] = {}
        self.first: dict[int, int] = {}  # a lower bound on each pair's first live position
        self._count_initial_pairs()

    def _count_initial_pairs(self) -> None:
        count, where, first = self.count, self.where, self.first
        ids = self.ids
        for i, (a, b, w) in enumerate(zip(ids, ids[1:], self.weight)):
            if a < 0 or b < 0:
                continue
            key = a * PAIR_BASE + b
            if key in count:
                count[key] += w
                where[key].append(i)
            else:
                count[key] = w
                where[key] = [i]
                first[key] = i

    def first_position(self, key: int) -> int:
        """The pair's first live position; prunes stale positions when the hint is stale."""
        hint = self.first[key]
        a, b = divmod(key, PAIR_BASE)
        ids, nxt = self.ids, self.nxt
        if ids[hint] == a and ids[nxt[hint]] == b:
            return hint  # the hint is a lower bound and is live, so it is the first
        live = [i for i in self.where[key] if ids[i] == a and ids[nxt[i]] == b]
        self.where[key] = live
        self.first[key] = min(live)
        return self.first[key]

    def merge(self, key: int, new_id: int) -> tuple[int, dict[int, int], dict[int, list[int]]]:
        """Replace every occurrence of pair `key`, left to right; return what changed.

        Returns (weighted occurrences merged, count lost per pair, positions per new pair).
        A new pair's gain is the weight of its positions (a chunk's positions share one
        weight), so the hot loop touches one dict per side instead of two.
        """
        a, b = divmod(key, PAIR_BASE)
        positions = self.where.pop(key)
        if a == b:
            positions.sort()  # subtle: "aaa" must become [aa, a], so go left to right
        ids, nxt, prv, weight = self.ids, self.nxt, self.prv, self.weight
        lost: defaultdict[int, int] = defaultdict(int)
        gained: defaultdict[int, list[int]] = defaultdict(list)
        to_right = (new_id - b) * PAIR_BASE  # (b, y) + to_right == (new_id, y)
        merged = 0
        for i in positions:
            if ids[i] != a:
                continue
            j = nxt[i]
            if ids[j] != b:
                continue
            w = weight[i]
            p = prv[i]
            x = ids[p]
            if x >= 0:
                old = x * PAIR_BASE + a
                lost[old] += w
                gained[old - a + new_id].append(p)  # (x, new_id)
            n = nxt[j]
            y = ids[n]
            if y >= 0:
                old = b * PAIR_BASE + y
                lost[old] += w
                gained[old + to_right].append(i)
            ids[i] = new_id
            ids[j] = _DEAD
            nxt[i] = n
            prv[n] = i
            merged += w
        lost.pop(key, None)  # only for a == b: the merged pair's own neighbours
        self.count.pop(key, None)
        self.first.pop(key, None)
        self.length -= merged
        return merged, lost, gained

    def usage(self) -> dict[int, int]:
        """How often each token id occurs in the corpus as it stands."""
        usage: dict[int, int] = {}
        for token, w in zip(self.ids, self.weight):
            if token >= 0:
                usage[token] = usage.get(token, 0) + w
        return usage


class _PairQueue:
    """Max-heap of (count, first position) with lazy deletion.

    Entries are (-count, first-position hint, pair). An entry is accepted only when its
    count is current and its hint is the pair's true first position; every live pair has
    an entry whose key is at most its true key, so the accepted entry is the true best.
    """

    def __init__(self, corpus: _Corpus) -> None:
        self.corpus = corpus
        self.heap = [(-c, corpus.first[k], k) for k, c in corpus.count.items()]
        heapq.heapify(self.heap)

    def push(self, key: int) -> None:
        heapq.heappush(self.heap, (-self.corpus.count[key], self.corpus.first[key], key))

    def pop_best(self) -> tuple[int, int] | None:
        """Remove and return (pair, count) of the best pair, or None when none is left."""
        heap, corpus = self.heap, self.corpus
        while heap:
            neg_count, hint, key = heap[0]
            if corpus.count.get(key) != -neg_count:
                heapq.heappop(heap)
                continue
            first = corpus.first_position(key)
            if first != hint:
                heapq.heapreplace(heap, (neg_count, first, key))
                continue
            heapq.heappop(heap)
            return key, -neg_count
        return None

    def peek_ties(self, key: int, count: int) -> list[int]:
        """Up to five other pairs with the same count, in tie order; the queue is unchanged."""
        if not self.heap or -self.heap[0][0] != count:
            return []  # every entry left has a lower count: no tie is possible
        found: list[int] = []
        while len(found) < MAX_TIES_RECORDED:
            best = self.pop_best()
            if best is None:
                break
            if best[1] != count:
                self.push(best[0])
                break
            if best[0] != key and best[0] not in found:
                found.append(best[0])
        for other in found:
            self.push(other)
        return found


def learn_merges(
    chunk_counts: Mapping[bytes, int],
    num_merges: int,
    *,
    min_count: int = 1,
    vocab: dict[int, bytes] | None = None,
    progress: ProgressCallback | None = None,
) -> LearnedMerges:
    """Learn up to `num_merges` merges from chunks (in first-appearance order) and their counts."""
    gc_was_enabled = gc.isenabled()
    gc.disable()  # millions of small objects and no cycles: the collector only costs time
    try:
        return _learn(chunk_counts, num_merges, min_count, vocab, progress)
    finally:
        if gc_was_enabled:
            gc.enable()


def _learn(
    chunk_counts: Mapping[bytes, int],
    num_merges: int,
    min_count: int,
    vocab: dict[int, bytes] | None,
    progress: ProgressCallback | None,
) -> LearnedMerges:
    corpus = _Corpus(chunk_counts)
    initial_length = corpus.length
    queue = _PairQueue(corpus)
    vocab = dict(vocab) if vocab else {i: bytes([i]) for i in range(256)}
    steps: list[MergeStep] = []
    stop = StopReason.VOCAB_SIZE_REACHED
    report_every = max(1, num_merges // 200)
    for rank in range(num_merges):
        best = queue.pop_best()
        if best is None:
            stop = StopReason.NO_PAIRS_LEFT
            break
        key, count = best
        if count < min_count:
            stop = StopReason.BELOW_MIN_COUNT
            break
        ties = queue.peek_ties(key, count)
        new_id = 256 + rank
        merged, lost, gained = corpus.merge(key, new_id)
        _apply(corpus, queue, lost, gained)
        left, right = divmod(key, PAIR_BASE)
        vocab[new_id] = vocab[left] + vocab[right]
        steps.append(
            MergeStep(
                rank=rank,
                left=left,
                right=right,
                new_id=new_id,
                token=vocab[new_id],
                count=count,
                merged=merged,
                length_after=corpus.length,
                ties=tuple(divmod(t, PAIR_BASE) for t in ties),
            )
        )
        if progress is not None and (rank + 1) % report_every == 0:
            progress("merging", rank + 1, num_merges)
    return LearnedMerges(tuple(steps), stop, initial_length, corpus.usage())


def _apply(
    corpus: _Corpus, queue: _PairQueue, lost: dict[int, int], gained: dict[int, list[int]]
) -> None:
    """Fold one merge's count changes into the corpus and the queue, once per pair."""
    count, where, first, weight = corpus.count, corpus.where, corpus.first, corpus.weight
    for key, positions in gained.items():
        # a new pair: its weight, less what later occurrences of the same merge took back
        total = sum(map(weight.__getitem__, positions)) - lost.pop(key, 0)
        if total > 0:
            count[key] = total
            where[key] = positions
            first[key] = min(positions)
            queue.push(key)
    for key, change in lost.items():
        total = count[key] - change
        if total > 0:
            count[key] = total
            queue.push(key)
        else:
            del count[key], where[key], first[key]
