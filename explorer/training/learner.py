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
smallest live position. With `TieRule.LOWEST_IDS` ties go to the lowest pair of ids.

    >>> [step.token for step in learn_merges({b"aaabdaaabac": 1}, 3).steps]
    [b'aa', b'aaa', b'aaab']
    >>> [s.token for s in learn_merges({b"aaabdaaabac": 1}, 3, tie_rule=TieRule.LOWEST_IDS).steps]
    [b'aa', b'ab', b'aaab']
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import add

from explorer.base.collector import collector_paused
from explorer.base.vocab_budget import BYTE_TOKENS, MAX_VOCAB_BYTES
from explorer.training.history import MergeStep, StopReason
from explorer.training.pair_queue import COLD_BELOW, PAIR_BASE, PairQueue, queue_for
from explorer.training.tie_rules import DEFAULT_TIE_RULE, TieRule

MAX_VOCAB_SIZE = PAIR_BASE - 1  # so no id is PAIR_BASE - 1 (see _pair_positions)
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
        self.usage = _initial_usage(chunk_counts, self.count)

    def first_live(self, key: int, hint: int) -> int:
        """The pair's first live position, given a lower bound; prunes stale positions."""
        a, b = divmod(key, PAIR_BASE)
        ids, nxt = self.ids, self.nxt
        if ids[hint] == a and ids[nxt[hint]] == b:
            return hint  # the hint is a lower bound and is live, so it is the first
        live = [i for i in self.where[key] if ids[i] == a and ids[nxt[i]] == b]
        self.where[key] = live
        return live[0]  # positions are ascending (see `merge`)

    def merge(self, key: int, new_id: int) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
        """Replace every live occurrence of pair `key`, left to right.

        Every pair's positions are kept ascending, so its first is `[0]`, not a min()
        (the initial lists are built in order; visiting the merged pair's positions in
        order makes each new group in order too; pruning keeps order). min() over the new
        pairs' positions was 8% of learning multi_ja_th.

        Returns the positions of the new pairs grouped by the neighbour they were made
        with: (x, new_id) pairs by x, and (new_id, y) pairs by y. Each group also says
        which old pair lost that much weight ((x, a) and (b, y)), so the hot loop does
        one dict lookup per side and no arithmetic.
        """
        a, b = divmod(key, PAIR_BASE)
        positions = self.where.pop(key)
        if a == b:
            positions.sort()  # subtle: "aaa" must become [aa, a]: left to right (already so)
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


def learn_merges(
    chunk_counts: Mapping[bytes, int],
    num_merges: int,
    *,
    min_count: int = 1,
    progress: ProgressCallback | None = None,
    cold_below: int = COLD_BELOW,
    tie_rule: TieRule = DEFAULT_TIE_RULE,
    max_token_bytes: int = MAX_VOCAB_BYTES,
) -> LearnedMerges:
    """Learn up to `num_merges` merges from chunks (in first-appearance order) and their counts.

    `cold_below` tunes speed only (see PairQueue): any value gives the same merges.
    `tie_rule` decides between pairs of the same count (see explorer.training.tie_rules).
    Training stops (StopReason.TOKEN_BYTES_REACHED) before a merge whose token would take
    the vocabulary's tokens, the 256 bytes included, past `max_token_bytes`: what it
    builds is bounded, whatever the text (explorer.base.vocab_budget).

    >>> learned = learn_merges({b"abcdefgh": 1}, 7, max_token_bytes=256 + 2 + 3)
    >>> [step.token for step in learned.steps], learned.stop_reason.value
    ([b'ab', b'abc'], 'token_bytes_reached')
    """
    with collector_paused():  # millions of small objects and no cycles
        return _learn(
            chunk_counts, num_merges, min_count, progress, cold_below, tie_rule, max_token_bytes
        )


def _learn(
    chunk_counts: Mapping[bytes, int],
    num_merges: int,
    min_count: int,
    progress: ProgressCallback | None,
    cold_below: int,
    tie_rule: TieRule,
    max_token_bytes: int,
) -> LearnedMerges:
    corpus = _Corpus(chunk_counts)
    initial_length = corpus.length
    queue = queue_for(tie_rule, corpus, cold_below)
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
    token_bytes = BYTE_TOKENS  # of every token so far: a merge adds its parts' lengths
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
        left, right = divmod(key, PAIR_BASE)
        size = len(vocab[left]) + len(vocab[right])
        if token_bytes + size > max_token_bytes:
            stop = StopReason.TOKEN_BYTES_REACHED
            break
        token_bytes += size
        ties = queue.peek_ties(key, count)
        new_id = 256 + rank
        merged = _apply(corpus, queue, key, count, new_id)
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


def _apply(corpus: _Corpus, queue: PairQueue, key: int, key_count: int, new_id: int) -> int:
    """Merge pair `key` into `new_id` everywhere; fold the count changes into the corpus
    and the queue, once per pair.

    Returns the weight merged: the count, less the overlapping occurrences of a pair
    like (a, a) that went to its neighbours ("aaa" merges once and was counted twice).
    """
    a, b = divmod(key, PAIR_BASE)
    by_left, by_right = corpus.merge(key, new_id)
    changes = _CountChanges(corpus, key, new_id)
    changes.move(by_left, PAIR_BASE, new_id, a)  # (x, a) -> (x, new_id)
    changes.move(by_right, 1, new_id * PAIR_BASE, b * PAIR_BASE)  # (b, y) -> (new_id, y)
    count, where, made = corpus.count, corpus.where, changes.made
    for pair, total in changes.gain.items():
        if total > 0:
            positions = made[pair]
            count[pair] = total
            where[pair] = positions
            queue.push(pair, total, positions[0])  # ascending (see _Corpus.merge)
    del count[key]
    queue.merged(key)
    merged = key_count - changes.own_loss
    corpus.length -= merged
    corpus.usage[new_id] = merged
    corpus.usage[a] -= merged
    corpus.usage[b] -= merged
    return merged


class _CountChanges:
    """One merge's count changes, gathered per pair before any reaches the queue.

    `gain` is the weight each new pair gained (a pair made where two merged tokens meet
    also loses some, see `move`), `made` its positions, and `own_loss` the weight of the
    merged pair that went to its own neighbours ("aaa").
    """

    def __init__(self, corpus: _Corpus, key: int, new_id: int) -> None:
        self.corpus, self.key, self.new_id = corpus, key, new_id
        self.gain: dict[int, int] = {}
        self.made: dict[int, list[int]] = {}
        self.own_loss = 0

    def move(
        self, groups: dict[int, list[int]], scale: int, new_offset: int, old_offset: int
    ) -> None:
        """Move each group's weight from its old pair to its new one.

        A group keyed by neighbour z was the pair z * scale + old_offset and is now
        z * scale + new_offset: (x, a) becomes (x, new_id) on the left, (b, y) becomes
        (new_id, y) on the right. An old pair's count only falls, so it changes in place
        (its queue entry may now overstate it, see PairQueue). Where two merged tokens
        meet ("abab"), the old pair is itself new ((new_id, a), or (b, new_id) out of
        order): its loss is taken from `gain`, which the caller turns into pairs.
        """
        count, where, weight = self.corpus.count, self.corpus.where, self.corpus.weight
        gain, made, key, new_id = self.gain, self.made, self.key, self.new_id
        own_loss = 0
        for z, positions in groups.items():
            moved = sum(map(weight.__getitem__, positions))
            new = z * scale + new_offset
            gain[new] = gain.get(new, 0) + moved
            if new in made:  # (new_id, new_id) from both sides, were positions unsorted
                made[new] = sorted(made[new] + positions)
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
        self.own_loss += own_loss
