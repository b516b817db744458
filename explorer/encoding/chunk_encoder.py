"""Encode pre-token chunks for one tokenizer: exact BPE, with the fast paths encoding needs.

The result is always explorer.encoding.merging's (lowest rank first, leftmost first among
equals); `ChunkEncoder` gets there sooner:

- a chunk whose bytes are a token that encodes to itself is that token (one lookup, as
  tiktoken does); for tokenizers trained by BPE every token does, for others it is
  checked once per token before it is used; `whole_only` tokens (no merge makes them)
  are taken for a whole chunk only, never for a part of one;
- a chunk is cut where two bytes meet that no token contains side by side: no merge can
  cross there, so the parts are merged (and cached) on their own;
- a long chunk that repeats a short period is cut as one period is, and that period's
  ids are repeated (explorer.encoding.periods);
- a long part is merged in windows (explorer.encoding.long_chunks), so a run such as a
  million `x` costs what its few distinct windows cost;
- results are cached per chunk.

    >>> ranks = {(97, 97): 256, (256, 97): 257}
    >>> ChunkEncoder({256: b"aa", 257: b"aaa"}, ranks).encode_chunks(["aaab", " ", "aa"])
    [257, 98, 32, 256]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import compress
from operator import not_

from explorer.encoding.long_chunks import LONG_CHUNK, LongChunkMerger
from explorer.encoding.merging import SHORT_CHUNK, _merge_by_scan, merge_ids, merge_tiny
from explorer.encoding.periods import shortest_period

CHUNK_CACHE_SIZE = 1 << 16
CUT_SEARCH_MIN = 8  # bytes; shorter chunks, and short ASCII words, are merged whole
PARTS_SEEN = 256  # parts of a chunk looked at to decide whether its text never repeats
SHORT_PARTS = 64  # bytes, on average
MOSTLY_NEW = 5 / 8  # of those parts new (random letters: 70-95 %; no corpus chunk has 256)


class ChunkEncoder:
    """Encodes chunks for one tokenizer: its vocabulary, merge ranks and byte order.

    `trained` promises that every token's bytes encode to the token itself, which holds
    for any tokenizer trained by BPE (the first merges that build a token inside a
    chunk build it alone too). Without the promise a token is checked, once, the first
    time a chunk is exactly its bytes: checking all of them at once cost minutes for a
    `.model` at the 32 MiB token-bytes bound, most of whose tokens no text ever meets.

    >>> enc = ChunkEncoder({256: b"ab", 257: b"abc"}, {(97, 98): 256, (256, 99): 257})
    >>> enc.encode_chunks(["abc", "ab"]), sorted(enc._checked.items())
    ([257, 256], [(b'ab', True), (b'abc', True)])
    """

    def __init__(
        self,
        vocab: Mapping[int, bytes],
        ranks: Mapping[tuple[int, int], int],
        byte_table: bytes | None = None,
        *,
        trained: bool = False,
        whole_only: Mapping[bytes, int] | None = None,
    ) -> None:
        self.vocab = vocab
        self.whole_only = whole_only or {}
        self.ranks = ranks
        self.byte_table = byte_table  # bytes -> ids 0-255, when they are not in order
        self.trained = trained
        # bytes of tokens that encode to themselves (untrained: that may, see _checked)
        self._whole: dict[bytes, int] | None = None
        self._checked: dict[bytes, bool] = {}  # untrained: whether a token met encodes to itself
        self._joinable: set[tuple[int, int]] = set()  # byte pairs that some token contains
        self._cache: dict[str, list[int]] = {}
        self._parts: dict[bytes, list[int]] = {}
        self._long: LongChunkMerger | None = None  # made for the first long chunk

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
        if self._whole is None:
            self._build_tables()
        data = chunk.encode("utf-8", "surrogatepass")
        token = self._whole_token(data)
        if token is None and self.whole_only:
            token = self.whole_only.get(data)
        if token is not None:
            return [token]
        return self._encode_bytes(chunk, data)

    def _encode_bytes(self, chunk: str, data: bytes) -> list[int]:
        """A chunk that is not a whole token, from its UTF-8 bytes."""
        n = len(data)
        if n < CUT_SEARCH_MIN or (n <= SHORT_CHUNK and chunk.isascii()):  # merged whole
            raw = data.translate(self.byte_table) if self.byte_table else data
            return merge_tiny(raw, self.ranks) if n <= 3 else _merge_by_scan(list(raw), self.ranks)
        if n > LONG_CHUNK:  # a run of a few distinct bytes: their pairs decide it at once
            joins = self._few_bytes_join(data)
            if joins is True:  # no cut to look for
                return self._merge(data)
            if joins is False:  # a cut between every two bytes: the bytes are the ids
                return list(data.translate(self.byte_table) if self.byte_table else data)
            period = shortest_period(data)
            if period is not None:
                return self._encode_periodic(data, period)
        return self._encode_cut(data)

    def _encode_cut(self, data: bytes) -> list[int]:
        """Cut where two bytes meet that no token contains; merge the parts on their own."""
        cuts = list(self._cuts(data))
        if cuts:
            cuts.append(len(data))
            return self._encode_parts(data, cuts)
        return self._merge(data)

    def _cuts(self, data: bytes) -> Iterator[int]:
        """Where `data` may be cut: between two bytes that no token contains side by side
        (in C: ~60 ns a byte).

        >>> enc = ChunkEncoder({256: b"ab"}, {(97, 98): 256}, trained=True)
        >>> enc.prepare()
        >>> list(enc._cuts(b"abcab"))
        [2, 3]
        """
        pairs = zip(data, data[1:])
        return compress(range(1, len(data)), map(not_, map(self._joinable.__contains__, pairs)))

    def _encode_periodic(self, data: bytes, period: int) -> list[int]:
        """`_encode_cut` for a chunk with this period: what comes before the first cut,
        one period's parts repeated (the cuts repeat with the bytes), then the rest.

        >>> enc = ChunkEncoder({256: b"ab"}, {(97, 98): 256}, trained=True)
        >>> enc.prepare()
        >>> data = b"bca" * 3 + b"bc"
        >>> enc._encode_periodic(data, 3), enc._encode_cut(data)
        ([98, 99, 256, 99, 256, 99, 256, 99], [98, 99, 256, 99, 256, 99, 256, 99])
        """
        first = next(self._cuts(data[: period + 1]), None)
        if first is None:  # no cut in a period: none anywhere
            return self._merge(data)
        times, rest = divmod(len(data) - first, period)
        ids = self._encode_parts(data[:first], [first])
        ids += self._encode_cut(data[first : first + period]) * times
        if rest:
            ids += self._encode_cut(data[len(data) - rest :])
        return ids

    def _few_bytes_join(self, data: bytes, most: int = 4) -> bool | None:
        """For `data` of at most `most` distinct bytes: True when every pair of them is
        joinable, False when none is; else (or with more bytes) None, and cuts are looked for
        pair by pair (~60 ns a byte).

        >>> join = ChunkEncoder({256: b"aa"}, {(97, 97): 256}, trained=True)._few_bytes_join
        >>> join(b"aaaa"), join(b"bbbb"), join(b"abab")
        (True, False, None)
        """
        if self._whole is None:
            self._build_tables()
        distinct = set(data[:4096])
        if len(distinct) > most or len(distinct := set(data)) > most:
            return None
        joinable = self._joinable
        found = {(a, b) in joinable for a in distinct for b in distinct}
        return None if len(found) > 1 else found.pop()

    def _encode_parts(self, data: bytes, ends: list[int]) -> list[int]:
        """Merge the parts data[previous end:end] on their own; each is cached by bytes."""
        if len(ends) > PARTS_SEEN and self._never_repeats(data, ends[:PARTS_SEEN]):
            return self._merge(data)
        parts = self._parts
        ids: list[int] = []
        start = 0
        for end in ends:
            part = data[start:end]
            found = parts.get(part)
            if found is None:
                token = self._whole_token(part)
                found = [token] if token is not None else self._merge(part)
                if len(parts) >= CHUNK_CACHE_SIZE:
                    parts.clear()
                parts[part] = found
            ids += found
            start = end
        return ids

    def _never_repeats(self, data: bytes, ends: list[int]) -> bool:
        """Whether the first parts, up to these ends, are short and mostly new: distinct and
        not remembered.

        subtle: in text that never repeats (random letters) every part is new work, and
        short parts merged one by one cost more a byte than the chunk merged in windows
        (exact too: the windows' merges never cross a cut, as no pair there has a rank).

        >>> enc = ChunkEncoder({}, {}, trained=True)
        >>> enc._never_repeats(bytes(range(200)), list(range(1, 201))), enc._parts
        (True, {})
        >>> enc._never_repeats(b"ab" * 100, list(range(1, 201)))
        False
        """
        if ends[-1] >= SHORT_PARTS * len(ends):
            return False
        pieces = set(map(data.__getitem__, map(slice, [0, *ends[:-1]], ends)))
        return len(pieces.difference(self._parts)) >= len(ends) * MOSTLY_NEW

    def _whole_token(self, data: bytes) -> int | None:
        """The token whose bytes `data` are, when it encodes to itself; else None."""
        assert self._whole is not None
        token = self._whole.get(data)
        if token is None or self.trained:
            return token
        encodes_to_itself = self._checked.get(data)
        if encodes_to_itself is None:
            encodes_to_itself = self._checked[data] = self._merge(data) == [token]
        return token if encodes_to_itself else None

    def _merge(self, data: bytes) -> list[int]:
        raw = data.translate(self.byte_table) if self.byte_table else data
        if len(raw) > LONG_CHUNK:
            if self._long is None:
                self._long = LongChunkMerger(self.ranks, self.vocab)
            return self._long.merge(raw)
        return merge_ids(list(raw), self.ranks)

    @property
    def prepared(self) -> bool:
        """Whether the tables (whole tokens, joinable byte pairs) are built."""
        return self._whole is not None

    def encode_few(self, chunks: Sequence[str]) -> list[int]:
        """The ids of a few chunks, merged one by one without building the tables: for the
        rare spans tiktoken's path leaves to this engine (explorer.encoding.tiktoken_path),
        where building the tables of a 200,000-token vocabulary cost ~2 s for four words.

        Exact for every tokenizer that path takes: each of its tokens is what BPE on its
        own bytes makes (trained, or checked there), so no whole-token lookup is needed;
        `whole_only` tokens still are one.

        >>> ChunkEncoder({256: b"aa"}, {(97, 97): 256}, whole_only={b"xyz": 257}).encode_few(
        ...     ["aaa", "xyz"]
        ... )
        [256, 97, 257]
        """
        ids: list[int] = []
        for chunk in chunks:
            data = chunk.encode("utf-8", "surrogatepass")
            token = self.whole_only.get(data)
            ids += [token] if token is not None else self._merge(data)
        return ids

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
        # untrained: candidates, each checked the first time a chunk is one (_whole_token)
        whole = {token_bytes: token for token, token_bytes in self.vocab.items()}
        self._whole = whole
        return whole
