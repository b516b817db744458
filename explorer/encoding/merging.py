"""Apply a tokenizer's merges to one pre-token chunk: exact BPE, the rule everything else keeps.

In each chunk, merge the lowest-rank pair first, leftmost first among equals (tiktoken's
and minbpe's result). Short chunks are merged by scanning ranks, longer ones with a heap;
explorer.encoding.chunk_encoder adds the shortcuts encoding takes on the way.

    >>> ranks = {(97, 97): 256, (256, 97): 257}
    >>> merge_bytes(b"aaab", ranks)
    [257, 98]
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from itertools import repeat
from typing import Protocol, overload

SHORT_CHUNK = 20  # bytes; longer runs are merged with a heap instead of rank scans
_NO_MERGE = 1 << 62  # a rank above every real one


class PairRanks(Protocol):
    """What merging reads of a rank table: a dict from pair to the id it makes, or any
    object with its `get` (as `explorer.files.imports` builds from a rank file's tokens).

    Overloaded as `Mapping.get` is: given an int default, the answer is always an int.
    """

    @overload
    def get(self, pair: tuple[int, int], /) -> int | None: ...
    @overload
    def get(self, pair: tuple[int, int], default: int, /) -> int: ...


def merge_bytes(data: bytes, ranks: PairRanks) -> list[int]:
    """Apply merges to one chunk, lowest rank first, leftmost first among equals.

    `ranks` maps a pair to the id it creates; ids grow with rank.

    >>> merge_bytes(b"aaab", {(97, 97): 256, (256, 97): 257})
    [257, 98]
    """
    return merge_ids(list(data), ranks)


def merge_ids(ids: list[int], ranks: PairRanks) -> list[int]:
    """`merge_bytes` starting from ids (a tokenizer's `initial_ids`); it may change `ids`.

    >>> merge_ids([97, 97, 97, 98], {(97, 97): 256, (256, 97): 257})
    [257, 98]
    """
    if len(ids) > SHORT_CHUNK:
        return _merge_with_heap(ids, ranks)
    return _merge_by_scan(ids, ranks)


def merge_tiny(raw: bytes, ranks: PairRanks) -> list[int]:
    """`merge_ids` for at most three ids, without building a list of pair ranks: a flood of
    short new chunks (random Latin-1 text) spends most of its time setting up merges.

    subtle: with three ids and equal ranks (a run such as 'aaa') the left pair goes first.

    >>> ranks = {(97, 97): 256, (256, 97): 257}
    >>> merge_tiny(b"aa", ranks), merge_tiny(b"aaa", ranks), merge_tiny(b"baa", ranks)
    ([256], [257], [98, 256])
    """
    get = ranks.get
    if len(raw) < 2:
        return list(raw)
    if len(raw) == 2:
        a, b = raw
        made = get((a, b))
        return [a, b] if made is None else [made]
    a, b, c = raw
    left, right = get((a, b)), get((b, c))
    if left is not None and (right is None or left <= right):
        made = get((left, c))
        return [left, c] if made is None else [made]
    if right is not None:
        made = get((a, right))
        return [a, right] if made is None else [made]
    return [a, b, c]


def merge_pair(ids: Sequence[int], pair: tuple[int, int], new_id: int) -> list[int]:
    """Replace every occurrence of `pair`, left to right, by `new_id` (minbpe's `merge`):
    one merge applied to a whole sequence, as training applies it.

    subtle: in a run such as 'aaa' the pairs overlap, and only the first of two fuses.

    >>> merge_pair([97, 97, 97, 98], (97, 97), 256)
    [256, 97, 98]
    """
    left, right = pair
    out: list[int] = []
    i, last = 0, len(ids) - 1
    while i <= last:
        if i < last and ids[i] == left and ids[i + 1] == right:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def _merge_by_scan(ids: list[int], ranks: PairRanks) -> list[int]:
    """Keep the rank of every adjacent pair; merge the smallest, update its two neighbours.

    min() and index() run in C, so a short chunk costs a few lookups per merge.
    """
    get = ranks.get
    pair_ranks = list(map(get, zip(ids, ids[1:]), repeat(_NO_MERGE)))  # in C: no loop here
    while pair_ranks:
        best = min(pair_ranks)
        if best == _NO_MERGE:
            break
        i = pair_ranks.index(best)  # the leftmost of the lowest rank
        ids[i] = best  # a pair's rank is the id it makes
        del ids[i + 1]
        del pair_ranks[i]
        if i < len(pair_ranks):
            pair_ranks[i] = get((best, ids[i + 1]), _NO_MERGE)
        if i:
            pair_ranks[i - 1] = get((ids[i - 1], best), _NO_MERGE)
    return ids


def _merge_with_heap(ids: list[int], ranks: PairRanks) -> list[int]:
    """The same merges as the scan, in O(n log n) for long chunks.

    subtle: most first pairs are never merged (a neighbour's merge takes one of their
    tokens), so they are sorted once, in C, and read in order, and only pairs that merges
    make go through a heap; an entry is `rank << shift | position`, so one int comparison
    orders by rank and then leftmost. An entry is stale when its position's pair has
    changed since (`current` holds each position's pair's rank now; a rank names its pair).
    """
    n = len(ids)
    shift = n.bit_length()
    mask = (1 << shift) - 1
    get = ranks.get
    current = list(map(get, zip(ids, ids[1:]), repeat(_NO_MERGE)))  # in C: no loop here
    current.append(_NO_MERGE)  # the last position starts no pair
    first = [rank << shift | i for i, rank in enumerate(current) if rank != _NO_MERGE]
    first.sort()
    first.append((_NO_MERGE + 1) << shift)  # after every entry, and never a current rank
    made: list[int] = []  # entries for pairs that merges make
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    for upcoming in first:
        while True:  # the pairs made before `upcoming`, then `upcoming` itself
            if made and made[0] < upcoming:
                entry = heapq.heappop(made)
            else:
                entry, upcoming = upcoming, -1
            rank, i = entry >> shift, entry & mask
            if current[i] == rank:  # else stale: this position's pair changed since
                j = nxt[i]
                ids[i], ids[j], current[j] = rank, -1, _NO_MERGE  # a pair's rank is its id
                k = nxt[j]
                nxt[i] = k
                right = None
                if k >= 0:
                    prv[k] = i
                    right = get((rank, ids[k]))
                if right is None:
                    current[i] = _NO_MERGE
                else:
                    current[i] = right
                    heapq.heappush(made, right << shift | i)
                p = prv[i]
                if p >= 0:
                    left = get((ids[p], rank))
                    if left is None:
                        current[p] = _NO_MERGE
                    else:
                        current[p] = left
                        heapq.heappush(made, left << shift | p)
            if upcoming < 0:
                break
    return [token for token in ids if token >= 0]
