"""The BPE learner: learn merges from counted chunks, recording every step.

Incremental, not naive: each distinct chunk is laid out once (with its frequency as a
weight) in one flat array with linked neighbours; each pair keeps the positions where it
occurs. A merge visits only the positions of the merged pair and updates the counts of
the pairs around them, so its cost is proportional to the occurrences it merges, however
long the chunks are. What made it as fast as Hugging Face's Rust trainer, measured:
grouping a merge's new pairs by neighbour (one count update per pair, not per
occurrence), a lazy heap that never re-files a falling count until it reaches the top,
keeping the many rare new pairs out of the heap, and the garbage collector off.

Exactness (identical to minbpe): the chosen pair has the highest overlapping count; ties
go to the pair whose first occurrence is earliest in the current token sequence, chunks
in text order. Chunks are laid out in order of first appearance, so "earliest" is the
smallest live position.

    >>> [step.token for step in learn_merges({b"aaabdaaabac": 1}, 3).steps]
    [b'aa', b'aaa', b'aaab']
"""

from __future__ import annotations

import heapq
from collections import defaultdict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import add

from explorer.collector import collector_paused
from explorer.history import MergeStep, StopReason

# A pair (a, b) is the integer a * PAIR_BASE + b: cheaper to hash than a tuple.
PAIR_BASE = 1 << 24
MAX_VOCAB_SIZE = PAIR_BASE - 1  # so no id is PAIR_BASE - 1 (see _pair_positions)
MAX_TIES_RECORDED = 5
COLD_BELOW = 16  # pairs counted less than this wait outside the heap (see _PairQueue)
_BOUNDARY = -1  # sentinel between chunks
_DEAD = -2  # a position absorbed into its left neighbour
_NOTHING = -1  # no pair

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
        self.usage = _initial_usage(chunk_counts, self.count)

    def first_live(self, key: int, hint: int) -> int:
        """The pair's first live position, given a lower bound; prunes stale positions."""
        a, b = divmod(key, PAIR_BASE)
        ids, nxt = self.ids, self.nxt
        if ids[hint] == a and ids[nxt[hint]] == b:
            return hint  # the hint is a lower bound and is live, so it is the first
        live = [i for i in self.where[key] if ids[i] == a and ids[nxt[i]] == b]
        self.where[key] = live
        return min(live)

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


def _pair_positions(ids: list[int], positions: list[int]) -> dict[int, list[int]]:
    """Every adjacent pair's positions, ascending; pairs with a boundary are left out.

    The loops run in C (map over bound methods).
    """
    keys = map(add, map(PAIR_BASE.__mul__, ids), ids[1:])
    where: defaultdict[int, list[int]] = defaultdict(list)
    deque(map(list.append, map(where.__getitem__, keys), positions), maxlen=0)
    # (-1, b) gives a negative key and (a, -1) gives b == PAIR_BASE - 1, never an id
    for key in [k for k in where if k < 0 or k % PAIR_BASE == PAIR_BASE - 1]:
        del where[key]
    return dict(where)


def _initial_usage(chunk_counts: Mapping[bytes, int], count: dict[int, int]) -> dict[int, int]:
    """How often each byte occurs: as the left of a pair, or last in its chunk.

    >>> _initial_usage({b"aab": 2}, {97 * PAIR_BASE + 97: 2, 97 * PAIR_BASE + 98: 2})
    {97: 4, 98: 2}
    """
    usage: defaultdict[int, int] = defaultdict(int)
    for key, n in count.items():
        usage[key // PAIR_BASE] += n
    for chunk, freq in chunk_counts.items():
        if chunk:
            usage[chunk[-1]] += freq
    return dict(sorted(usage.items()))


class _PairQueue:
    """Max-heap of (count, first position) with lazy updates, as HF's trainer keeps it.

    Entries are (-count, first-position hint, pair), one per live pair. A pair's count
    only falls after it is made, so an entry may overstate it: when such an entry
    reaches the top it is filed again at its current count, and falling counts cost no
    push. The hint is a lower bound on the pair's first live position. An entry is
    accepted only when its count is current and its hint is live, i.e. exact; every
    entry's key is at most its pair's true key, so the accepted entry is the true best.

    Most new pairs are rare (half occur once) and are never merged, so pairs counted
    below `cold_below` wait unsorted in a cold list; when the best count would fall
    below that level, the level halves and the pairs above it join the heap.
    """

    def __init__(self, corpus: _Corpus, cold_below: int = COLD_BELOW) -> None:
        self.corpus = corpus
        self.cold_below = cold_below
        self.cold: list[int] = []
        self.heap: list[tuple[int, int, int]] = []
        self.ready: list[tuple[int, int, int]] = []  # (count, first, pair): ties, in order
        self.changed = _NOTHING  # the pair merged since `ready` was checked
        for key, count in corpus.count.items():
            if count < cold_below:
                self.cold.append(key)
            else:
                self.heap.append((-count, corpus.where[key][0], key))
        heapq.heapify(self.heap)  # once, not a push per pair

    def push(self, key: int, count: int, first: int) -> None:
        if count < self.cold_below:
            self.cold.append(key)
        else:
            heapq.heappush(self.heap, (-count, first, key))

    def pop_best(self) -> tuple[int, int, int] | None:
        """Remove and return (pair, count, first position) of the best pair, if any."""
        if self.changed != _NOTHING:
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
        """Send back to the heap the waiting ties the last merge changed.

        Merging (a, b) changes only pairs that end in a or start with b (their
        neighbours): the others keep their count and first position.
        """
        a, b = divmod(self.changed, PAIR_BASE)
        corpus, count = self.corpus, self.corpus.count
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
            live = corpus.first_live(key, first)
            if live == first:
                kept.append(entry)
            else:
                self.push(key, current, live)
        self.ready = kept
        self.changed = _NOTHING

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
        count, where = self.corpus.count, self.corpus.where
        self.cold_below = level
        still_cold = []
        for key in self.cold:
            current = count.get(key)
            if current is None:
                continue
            if current >= level:
                heapq.heappush(self.heap, (-current, min(where[key]), key))
            else:
                still_cold.append(key)
        self.cold = still_cold

    def _pop_heap(self) -> tuple[int, int, int] | None:
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
            first = corpus.first_live(key, hint)
            if first != hint:
                heapq.heapreplace(heap, (neg_count, first, key))
                continue
            heapq.heappop(heap)
            return key, current, first
        return None

    def peek_ties(self, key: int, count: int) -> list[int]:
        """Up to five other pairs with the same count as `key`, in tie order.

        They wait, in that order, in `ready` rather than in the heap: at low counts the
        same pairs tie step after step, and re-sorting them each time was a third of
        training time. A merge that changes one sends it back (see _recheck_ready).
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


def learn_merges(
    chunk_counts: Mapping[bytes, int],
    num_merges: int,
    *,
    min_count: int = 1,
    progress: ProgressCallback | None = None,
) -> LearnedMerges:
    """Learn up to `num_merges` merges from chunks (in first-appearance order) and their counts."""
    with collector_paused():  # millions of small objects and no cycles
        return _learn(chunk_counts, num_merges, min_count, progress)


def _learn(
    chunk_counts: Mapping[bytes, int],
    num_merges: int,
    min_count: int,
    progress: ProgressCallback | None,
) -> LearnedMerges:
    corpus = _Corpus(chunk_counts)
    initial_length = corpus.length
    queue = _PairQueue(corpus)
    vocab = {i: bytes([i]) for i in range(256)}
    steps: list[MergeStep] = []
    # The same pairs tie step after step at low counts: one tuple each, not one per step
    # (tinyshakespeare to V = 20,000 recorded 91,000 ties, 11 MB as fresh tuples).
    tie_pairs: dict[int, tuple[int, int]] = {}

    def tie_pair(key: int) -> tuple[int, int]:
        pair = tie_pairs.get(key)
        if pair is None:
            pair = tie_pairs[key] = divmod(key, PAIR_BASE)
        return pair

    stop = StopReason.VOCAB_SIZE_REACHED
    report_every = max(1, num_merges // 200)
    for rank in range(num_merges):
        best = queue.pop_best()
        if best is None:
            stop = StopReason.NO_PAIRS_LEFT
            break
        key, count, _ = best
        if count < min_count:
            stop = StopReason.BELOW_MIN_COUNT
            break
        ties = queue.peek_ties(key, count)
        new_id = 256 + rank
        by_left, by_right = corpus.merge(key, new_id)
        merged = _apply(corpus, queue, key, count, new_id, by_left, by_right)
        queue.changed = key
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
                ties=tuple(tie_pair(t) for t in ties),
            )
        )
        if progress is not None and (rank + 1) % report_every == 0:
            progress("merging", rank + 1, num_merges)
    usage = {token: n for token, n in corpus.usage.items() if n}
    return LearnedMerges(tuple(steps), stop, initial_length, usage)


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

    Returns the weight merged: the count, less the overlapping occurrences of a pair
    like (a, a) that went to its neighbours ("aaa" merges once and was counted twice).
    """
    a, b = divmod(key, PAIR_BASE)
    gain: dict[int, int] = {}
    made: dict[int, list[int]] = {}
    own_loss = _move(corpus, by_left, PAIR_BASE, new_id, a, key, new_id, gain, made)
    own_loss += _move(
        corpus, by_right, 1, new_id * PAIR_BASE, b * PAIR_BASE, key, new_id, gain, made
    )
    count, where = corpus.count, corpus.where
    for pair, total in gain.items():
        if total > 0:
            positions = made[pair]
            count[pair] = total
            where[pair] = positions
            queue.push(pair, total, min(positions))
    del count[key]
    merged = key_count - own_loss
    corpus.length -= merged
    corpus.usage[new_id] = merged
    corpus.usage[a] -= merged
    corpus.usage[b] -= merged
    return merged


def _move(
    corpus: _Corpus,
    groups: dict[int, list[int]],
    scale: int,
    new_offset: int,
    old_offset: int,
    key: int,
    new_id: int,
    gain: dict[int, int],
    made: dict[int, list[int]],
) -> int:
    """Move each group's weight from its old pair to its new one; return the merged pair's loss.

    A group keyed by neighbour z was the pair z * scale + old_offset and is now
    z * scale + new_offset: (x, a) becomes (x, new_id) on the left, (b, y) becomes
    (new_id, y) on the right. An old pair's count only falls, so it changes in place
    (its queue entry may now overstate it, see _PairQueue). Where two merged tokens
    meet ("abab"), the old pair is itself new ((new_id, a), or (b, new_id) out of
    order): its loss is taken from `gain`, which the caller turns into pairs.
    """
    count, where, weight = corpus.count, corpus.where, corpus.weight
    own_loss = 0
    for z, positions in groups.items():
        moved = sum(map(weight.__getitem__, positions))
        new = z * scale + new_offset
        gain[new] = gain.get(new, 0) + moved
        if new in made:  # (new_id, new_id) from both sides, when positions were unsorted
            made[new] = made[new] + positions
        else:
            made[new] = positions
        old = z * scale + old_offset
        if z == new_id:
            gain[old] = gain.get(old, 0) - moved
        elif old == key:
            own_loss += moved
        else:
            left = count[old] - moved
            if left:
                count[old] = left
            else:
                del count[old], where[old]
    return own_loss
