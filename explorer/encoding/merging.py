"""Apply a tokenizer's merges to pre-token chunks: exact BPE, with the fast paths encoding needs.

The rule is always the same: in each chunk, merge the lowest-rank pair first, leftmost
first among equals. `ChunkEncoder` gets there sooner:

- a chunk whose bytes are a token that encodes to itself is that token (one lookup, as
  tiktoken does); for tokenizers trained by BPE every token does, for others it is
  checked once per token before it is used;
- a chunk is cut where two bytes meet that no token contains side by side: no merge can
  cross there, so the parts are merged (and cached) on their own;
- results are cached per chunk.

    >>> ranks = {(97, 97): 256, (256, 97): 257}
    >>> merge_bytes(b"aaab", ranks)
    [257, 98]
    >>> ChunkEncoder({256: b"aa", 257: b"aaa"}, ranks).encode_chunks(["aaab", " ", "aa"])
    [257, 98, 32, 256]
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from itertools import compress
from operator import not_
from typing import Protocol

CHUNK_CACHE_SIZE = 1 << 16
SHORT_CHUNK = 20  # bytes; longer runs are merged with a heap instead of rank scans
CUT_SEARCH_MIN = 8  # bytes; shorter chunks, and short ASCII words, are merged whole
_NO_MERGE = 1 << 62  # a rank above every real one


class PairRanks(Protocol):
    """What merging reads of a rank table: a dict from pair to the id it makes, or any
    object with its `get` (as `explorer.files.imports` builds from a rank file's tokens)."""

    def get(self, pair: tuple[int, int], default: int | None = None, /) -> int | None: ...


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
    pair_ranks = [get(pair, _NO_MERGE) for pair in zip(ids, ids[1:])]
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
    """The same merges as the scan, in O(n log n) for long chunks."""
    n = len(ids)
    nxt = list(range(1, n + 1))
    nxt[-1] = -1
    prv = list(range(-1, n - 1))
    heap = [
        (rank, i) for i in range(n - 1) if (rank := ranks.get((ids[i], ids[i + 1]))) is not None
    ]
    heapq.heapify(heap)
    while heap:
        rank, i = heapq.heappop(heap)
        j = nxt[i]
        if ids[i] < 0 or j < 0 or ranks.get((ids[i], ids[j])) != rank:
            continue  # stale: this position changed since the entry was pushed
        ids[i], ids[j] = rank, -1
        k = nxt[j]
        nxt[i] = k
        if k >= 0:
            prv[k] = i
            right = ranks.get((rank, ids[k]))
            if right is not None:
                heapq.heappush(heap, (right, i))
        p = prv[i]
        if p >= 0:
            left = ranks.get((ids[p], rank))
            if left is not None:
                heapq.heappush(heap, (left, p))
    return [token for token in ids if token >= 0]


class ChunkEncoder:
    """Encodes chunks for one tokenizer: its vocabulary, merge ranks and byte order.

    `trained` promises that every token's bytes encode to the token itself, which holds
    for any tokenizer trained by BPE (the first merges that build a token inside a
    chunk build it alone too). Without the promise each token is checked, once, the
    first time encoding needs the tables (about 3 µs a token).
    """

    def __init__(
        self,
        vocab: Mapping[int, bytes],
        ranks: Mapping[tuple[int, int], int],
        byte_table: bytes | None = None,
        *,
        trained: bool = False,
    ) -> None:
        self.vocab = vocab
        self.ranks = ranks
        self.byte_table = byte_table  # bytes -> ids 0-255, when they are not in order
        self.trained = trained
        self._whole: dict[bytes, int] | None = None  # bytes of tokens that encode to themselves
        self._joinable: set[tuple[int, int]] = set()  # byte pairs that some token contains
        self._cache: dict[str, list[int]] = {}
        self._parts: dict[bytes, list[int]] = {}

    def encode_chunks(self, chunks: Sequence[str]) -> list[int]:
        """The ids of the chunks, in order."""
        cache = self._cache
        ids: list[int] = []
        for chunk in chunks:
            found = cache.get(chunk)
            if found is None:
                if len(cache) >= CHUNK_CACHE_SIZE:
                    cache.clear()
                found = cache[chunk] = self._encode_new(chunk)
            ids += found
        return ids

    def _encode_new(self, chunk: str) -> list[int]:
        whole = self._whole if self._whole is not None else self._build_tables()
        data = chunk.encode("utf-8", "surrogatepass")
        token = whole.get(data)
        if token is not None:
            return [token]
        n = len(data)
        if n > SHORT_CHUNK or (n >= CUT_SEARCH_MIN and not chunk.isascii()):
            pairs = zip(data, data[1:])
            cuts = list(compress(range(1, n), map(not_, map(self._joinable.__contains__, pairs))))
            if cuts:
                cuts.append(n)
                return self._encode_parts(data, cuts)
        return self._merge(data)

    def _encode_parts(self, data: bytes, ends: list[int]) -> list[int]:
        """Merge the parts data[previous end:end] on their own; each is cached by bytes."""
        parts, whole = self._parts, self._whole
        assert whole is not None
        ids: list[int] = []
        start = 0
        for end in ends:
            part = data[start:end]
            found = parts.get(part)
            if found is None:
                token = whole.get(part)
                found = [token] if token is not None else self._merge(part)
                if len(parts) >= CHUNK_CACHE_SIZE:
                    parts.clear()
                parts[part] = found
            ids += found
            start = end
        return ids

    def _merge(self, data: bytes) -> list[int]:
        raw = data.translate(self.byte_table) if self.byte_table else data
        return merge_ids(list(raw), self.ranks)

    def prepare(self) -> None:
        """Build the tables now rather than on the first chunk that needs them."""
        if self._whole is None:
            self._build_tables()

    def take_tables_from(self, larger: ChunkEncoder, vocab_size: int) -> None:
        """Reuse a larger vocabulary's tables, if built, for its first `vocab_size` ids.

        A token encodes to itself with all the merges exactly when it does with those up
        to its own (merging never uses a later one on the way to it), so the larger
        table, cut at vocab_size, is this one's. Its joinable pairs are a superset of
        ours: fewer cuts, the same ids.
        """
        if larger._whole is not None and self._whole is None:
            self._whole = {data: i for data, i in larger._whole.items() if i < vocab_size}
            self._joinable = larger._joinable

    def _build_tables(self) -> dict[bytes, int]:
        """Which tokens encode to themselves, and which byte pairs tokens contain."""
        joinable: set[tuple[int, int]] = set()
        for token_bytes in self.vocab.values():
            joinable.update(zip(token_bytes, token_bytes[1:]))
        self._joinable = joinable
        if self.trained:
            whole = {token_bytes: token for token, token_bytes in self.vocab.items()}
        else:
            whole = {}
            for token, token_bytes in self.vocab.items():
                if self._merge(token_bytes) == [token]:
                    whole[token_bytes] = token
        self._whole = whole
        return whole
