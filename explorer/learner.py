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
from collections import defaultdict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import add

from explorer.history import MergeStep, StopReason

# A pair (a, b) is the integer a * PAIR_BASE + b: cheaper to hash than a tuple.
PAIR_BASE = 1 << 24
MAX_VOCAB_SIZE = PAIR_BASE - 1  # so no id is PAIR_BASE - 1 (see _pair_positions)
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
        # One int object per position, shared by nxt, prv and the position lists: a
        # position costs 8 bytes in each list instead of a fresh 28-byte int each time.
        positions = list(range(len(ids) + 1))
        self.ids = ids
        self.weight = weight
        self.nxt = positions[1:]
        self.prv = [-1, *positions[: len(ids) - 1]]
        self.length = sum(len(c) * f for c, f in chunk_counts.items())
        self.where = _pair_positions(ids, positions)
        self.count = {k: sum(map(weight.__getitem__, v)) for k, v in self.where.items()}
        self.first = {k: v[0] for k, v in self.where.items()}  # lower bound, first live

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

    def merge(self, key: int, new_id: int) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
        """Replace every live occurrence of pair `key`, left to right.

        Returns the positions of the new pairs grouped by the neighbour they were made
        with: (x, new_id) pairs by x, and (new_id, y) pairs by y. Each group also says
        which old pair lost that much weight ((x, a) and (b, y)), so the hot loop does
        one dict lookup per side and no arithmetic.
        """
        a, b = divmod(key, PAIR_BASE)
        positions = self.where.pop(key)
        if a == b:
            positions.sort()  # subtle: "aaa" must become [aa, a], so go left to right
        ids, nxt, prv = self.ids, self.nxt, self.prv
        by_left: defaultdict[int, list[int]] = defaultdict(list)
        by_right: defaultdict[int, list[int]] = defaultdict(list)
        for i in positions:
            if ids[i] != a:
                continue
            j = nxt[i]
            if ids[j] != b:
                continue
            p = prv[i]
            x = ids[p]
            if x >= 0:
                by_left[x].append(p)
            n = nxt[j]
            y = ids[n]
            if y >= 0:
                by_right[y].append(i)
            ids[i] = new_id
            ids[j] = _DEAD
            nxt[i] = n
            prv[n] = i
        return by_left, by_right

    def usage(self) -> dict[int, int]:
        """How often each token id occurs in the corpus as it stands."""
        usage: dict[int, int] = {}
        for token, w in zip(self.ids, self.weight):
            if token >= 0:
                usage[token] = usage.get(token, 0) + w
        return usage


def _pair_positions(ids: list[int], positions: list[int]) -> dict[int, list[int]]:
    """Every adjacent pair's positions, ascending; pairs with a boundary are left out.

    The loops run in C (map over bound methods): this is a third of training time on
    text with long chunks when written as a Python loop.
    """
    keys = map(add, map(PAIR_BASE.__mul__, ids), ids[1:])
    where: defaultdict[int, list[int]] = defaultdict(list)
    deque(map(list.append, map(where.__getitem__, keys), positions), maxlen=0)
    # (-1, b) gives a negative key and (a, -1) gives b == PAIR_BASE - 1, never an id
    for key in [k for k in where if k < 0 or k % PAIR_BASE == PAIR_BASE - 1]:
        del where[key]
    return dict(where)


class _PairQueue:
    """Max-heap of (count, first position) with lazy updates, as HF's trainer keeps it.

    Entries are (-count, first-position hint, pair), one per live pair. A pair's count
    only falls after it is created, so an entry may overstate it: when such an entry
    reaches the top it is filed again at its current count, and falling counts cost no
    push. An entry is accepted only when its count is current and its hint is the
    pair's true first position; every entry's key is at most its pair's true key, so
    the accepted entry is the true best.
    """

    def __init__(self, corpus: _Corpus) -> None:
        self.corpus = corpus
        self.heap = [(-c, corpus.first[k], k) for k, c in corpus.count.items()]
        heapq.heapify(self.heap)

    def push(self, key: int) -> None:
        heapq.heappush(self.heap, (-self.corpus.count[key], self.corpus.first[key], key))

    def pop_best(self) -> tuple[int, int] | None:
        """Remove and return (pair, count) of the best pair, or None when none is left."""
        heap, corpus, count = self.heap, self.corpus, self.corpus.count
        while heap:
            neg_count, hint, key = heap[0]
            current = count.get(key)
            if current is None:
                heapq.heappop(heap)
                continue
            if current != -neg_count:
                heapq.heapreplace(heap, (-current, hint, key))
                continue
            first = corpus.first_position(key)
            if first != hint:
                heapq.heapreplace(heap, (neg_count, first, key))
                continue
            heapq.heappop(heap)
            return key, current
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
        by_left, by_right = corpus.merge(key, new_id)
        merged = _apply(corpus, queue, key, count, new_id, by_left, by_right)
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
    corpus: _Corpus,
    queue: _PairQueue,
    key: int,
    key_count: int,
    new_id: int,
    by_left: dict[int, list[int]],
    by_right: dict[int, list[int]],
) -> int:
    """Fold one merge's count changes into the corpus and the queue, once per pair.

    Each group of positions (see _Corpus.merge) moves its weight from an old pair to a
    new one: (x, a) to (x, new_id) on the left, (b, y) to (new_id, y) on the right.
    Returns the weight merged: the pair's count, less the overlapping occurrences of a
    pair like (a, a) that went to its neighbours ("aaa" merges once, counted twice).
    """
    a, b = divmod(key, PAIR_BASE)
    count, where, first, weight = corpus.count, corpus.where, corpus.first, corpus.weight
    change: defaultdict[int, int] = defaultdict(int)
    made: dict[int, list[int]] = {}
    for x, positions in by_left.items():
        moved = sum(map(weight.__getitem__, positions))
        change[x * PAIR_BASE + a] -= moved
        change[x * PAIR_BASE + new_id] += moved
        made[x * PAIR_BASE + new_id] = positions
    right_base = new_id * PAIR_BASE
    for y, positions in by_right.items():
        moved = sum(map(weight.__getitem__, positions))
        change[b * PAIR_BASE + y] -= moved
        change[right_base + y] += moved
        # (new_id, new_id) can come from both sides when positions were out of order
        made[right_base + y] = made.get(right_base + y, []) + positions
    merged = key_count + change.pop(key, 0)
    del count[key], first[key]
    for pair, delta in change.items():
        if pair in made:  # a pair with new_id in it: no entry yet
            if delta > 0:
                positions = made[pair]
                count[pair] = delta
                where[pair] = positions
                first[pair] = min(positions)
                queue.push(pair)
            continue
        total = count[pair] + delta
        if total > 0:
            count[pair] = total  # its queue entry now overstates it; see _PairQueue
        else:
            del count[pair], where[pair], first[pair]
    corpus.length -= merged
    return merged
