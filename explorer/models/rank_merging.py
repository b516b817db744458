"""tiktoken's byte-pair merge, replayed step by step, and the pairs that make a rank file's token.

tiktoken (`src/lib.rs`, `_byte_pair_merge`) encodes a piece that is not a whole token by
starting from its single bytes and merging, again and again, the adjacent pair whose
joined bytes form the token of lowest rank, the leftmost on a tie, until no adjacent
pair forms a token. `byte_pair_steps` does the same and says what it did; a heap keeps
each step at O(log n), so a long piece costs what tiktoken's would in order of growth.

    >>> ranks = {bytes([b]): b for b in range(256)} | {b"aa": 256, b"aaa": 257}
    >>> byte_pair_steps(b"aaaa", ranks)
    ([(0, 97, 97, 256), (1, 97, 97, 256)], [256, 256])

Each step is (position, left rank, right rank, made rank), the position being the left
symbol's index before the merge; "aa" + "aa" is no token, so two symbols stay.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping

Step = tuple[int, int, int, int]  # position, left rank, right rank, the rank they make


def byte_pair_steps(piece: bytes, ranks: Mapping[bytes, int]) -> tuple[list[Step], list[int]]:
    """Every merge tiktoken applies to `piece`, in order, and the ranks it ends as.

    Every single byte of `piece` must be a token (a rank file holds all 256).
    """
    size = len(piece)
    end = list(range(1, size + 1))  # end[s]: where the symbol starting at byte s ends
    before = list(range(-1, size - 1))  # before[s]: where the symbol before it starts
    alive = _Alive(size)
    heap: list[tuple[int, int, int]] = []  # (rank of the joined pair, left start, its end)
    for start in range(size - 1):
        _push(heap, piece, ranks, start, start + 1, start + 2)
    steps: list[Step] = []
    while heap:
        rank, left, right = heapq.heappop(heap)
        if not alive.has(left) or end[left] != right or right >= size or not alive.has(right):
            continue  # a pair one of whose symbols has since merged
        joined_end = end[right]
        if ranks.get(piece[left:joined_end]) != rank:
            continue
        left_rank, right_rank = ranks[piece[left:right]], ranks[piece[right:joined_end]]
        steps.append((alive.before(left), left_rank, right_rank, rank))
        alive.remove(right)
        end[left] = joined_end
        if joined_end < size:
            before[joined_end] = left
            _push(heap, piece, ranks, left, joined_end, end[joined_end])
        if before[left] >= 0:
            _push(heap, piece, ranks, before[left], left, joined_end)
    finals, start = [], 0
    while start < size:
        finals.append(ranks[piece[start : end[start]]])
        start = end[start]
    return steps, finals


def _push(
    heap: list[tuple[int, int, int]],
    piece: bytes,
    ranks: Mapping[bytes, int],
    left: int,
    right: int,
    stop: int,
) -> None:
    """Offer the pair piece[left:right] + piece[right:stop] when it joins into a token."""
    rank = ranks.get(piece[left:stop])
    if rank is not None:
        heapq.heappush(heap, (rank, left, right))


class _Alive:
    """Which byte offsets still start a symbol, and how many do before one (a Fenwick tree).

    >>> alive = _Alive(4); alive.remove(1); alive.before(2), alive.has(1)
    (1, False)
    """

    def __init__(self, size: int) -> None:
        self.flags = [True] * size
        self.tree = [0] * (size + 1)
        for index in range(1, size + 1):  # every offset counts 1, built in O(n)
            self.tree[index] += 1
            parent = index + (index & -index)
            if parent <= size:
                self.tree[parent] += self.tree[index]

    def has(self, offset: int) -> bool:
        return self.flags[offset]

    def remove(self, offset: int) -> None:
        self.flags[offset] = False
        index = offset + 1
        while index < len(self.tree):
            self.tree[index] -= 1
            index += index & -index

    def before(self, offset: int) -> int:
        """How many symbols start before `offset`: the symbol's index in the list."""
        count, index = 0, offset
        while index > 0:
            count += self.tree[index]
            index -= index & -index
        return count


def token_splits(token: bytes, ranks: Mapping[bytes, int]) -> list[tuple[int, int]]:
    """Every (left rank, right rank) whose two tokens join into `token`, in that order (as
    Hugging Face's tiktoken converter lists them): tiktoken merges two adjacent parts
    whenever their joined bytes are a token, so each is a merge that makes it, whatever
    the parts' own ranks.

    >>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"bc": 257, b"abc": 258}
    >>> token_splits(b"abc", ranks)
    [(97, 257), (256, 99)]
    """
    splits: list[tuple[int, int]] = []
    for cut in range(1, len(token)):
        left = ranks.get(token[:cut])
        if left is not None:
            right = ranks.get(token[cut:])
            if right is not None:
                splits.append((left, right))
    return sorted(splits)
