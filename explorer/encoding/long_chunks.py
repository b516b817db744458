"""Merge a long chunk window by window, stitched only where a check proves it exact.

A chunk of a million `x` is one pre-token: merging it whole costs about 1 µs a byte in
Python, where tiktoken takes a tenth of that. Cut into windows, the same bytes repeat,
so each distinct window is merged once and then looked up.

The rule that makes the stitching exact: if A is the encoding of bytes L and B that of
bytes R, then A + B is the encoding of L + R exactly when the last token of A and the
first of B, merged on their own, stay those two tokens (`joins`). Why: with merges
applied lowest rank first, until some merge crosses the seam each side changes as it
would alone, so the pair at the seam at each moment is made of the same two tokens
as in that two-token check, which never merged them.

So the encoder keeps the encoding of a growing prefix. It merges the window that starts
where the prefix ends, keeps all of it but its last token (which the bytes after the
window may change), and checks the seam; when the seam fails, it gives the prefix's
last token back and tries the window that starts where that token did. The prefix is
always the exact encoding of its bytes, and at the end it covers the whole chunk.
Text that does not repeat (random letters or digits) finds no window remembered; after a
few such windows they widen (WIDE), as merging 256 bytes costs no more a byte than 64 and
there are fewer seams to check and windows to redo when a seam fails.

    >>> ranks = {(97, 97): 256, (256, 256): 257}  # aa, aaaa
    >>> windows = LongChunkMerger(ranks, {256: b"aa", 257: b"aaaa"}, window=6)
    >>> windows.merge(b"a" * 11)
    [257, 257, 256, 97]
    >>> from explorer.encoding.merging import merge_ids
    >>> merge_ids(list(b"a" * 11), ranks)
    [257, 257, 256, 97]
"""

from __future__ import annotations

from collections.abc import Mapping

from explorer.encoding.merging import PairRanks, merge_ids

WINDOW = 64  # bytes: small enough that short repeating units repeat as windows
WIDE = 4  # times WINDOW, once windows stop repeating: fewer seams, and the heap is no slower
MISSES_BEFORE_WIDE = 4  # windows merged in a row (none remembered) before windows widen
LONG_CHUNK = 2 * WINDOW  # bytes; shorter chunks are merged whole
CACHE_SIZE = 1 << 12  # windows, and seams, remembered before a cache starts over


class LongChunkMerger:
    """Merges long chunks of one tokenizer in windows, remembering windows and seams.

    `ranks` maps a pair to the id it makes; `vocab` gives each merged token's bytes (only
    their length is read; ids 0-255 are one byte each). The chunks are bytes as merging
    starts from them (for imported tokenizers, already mapped to byte ids).
    """

    def __init__(
        self,
        ranks: PairRanks,
        vocab: Mapping[int, bytes],
        *,
        window: int = WINDOW,
    ) -> None:
        self.ranks = ranks
        self.window = window
        self.vocab = vocab
        self._windows: dict[bytes, tuple[list[int], int]] = {}
        self._seams: dict[tuple[int, int], bool] = {}
        self._misses = 0  # windows merged in a row, none found remembered

    def merge(self, data: bytes) -> list[int]:
        """The ids of one chunk: what `merge_ids(list(data), ranks)` gives, window by window.

        subtle: after a seam fails, the prefix steps back and must then get past the
        furthest point it had reached (`frontier`), or it could swing between two places
        for ever; so a window reaches at least `window` bytes past the frontier, and is
        widened until what it keeps does. A step budget bounds the rest: past it, the
        chunk is merged whole (the same ids; not seen on real vocabularies).
        """
        ids: list[int] = []
        start = frontier = 0
        end = len(data)
        budget = 16 + 4 * (end // self.window)
        while budget > 0:
            budget -= 1
            wide = self._misses >= MISSES_BEFORE_WIDE  # text that does not repeat
            size = frontier - start + (self.window * WIDE if wide else self.window)
            while True:
                tokens, kept = self._merged_window(data[start : start + size])
                if start + kept > frontier or start + size >= end:
                    break
                size *= 2
            if ids and not self._joins(ids[-1], tokens[0], data, start):
                start -= self._bytes_of(ids.pop())
                continue
            if start + size >= end:
                ids += tokens
                return ids
            ids += tokens[:-1]
            start = frontier = start + kept
        return merge_ids(list(data), self.ranks)

    def _merged_window(self, data: bytes) -> tuple[list[int], int]:
        """A window's ids and how many of its bytes come before its last token."""
        found = self._windows.get(data)
        self._misses = 0 if found is not None else self._misses + 1
        if found is None:
            tokens = merge_ids(list(data), self.ranks)
            found = (tokens, len(data) - self._bytes_of(tokens[-1]))
            if len(self._windows) >= CACHE_SIZE:
                self._windows.clear()
            self._windows[data] = found
        return found

    def _joins(self, left: int, right: int, data: bytes, seam: int) -> bool:
        """Whether the tokens `left` (ending at `seam`) and `right` (starting there),
        merged on their own, stay those two tokens: then nothing merges across the seam."""
        found = self._seams.get((left, right))
        if found is None:
            both = data[seam - self._bytes_of(left) : seam + self._bytes_of(right)]
            found = merge_ids(list(both), self.ranks) == [left, right]
            if len(self._seams) >= CACHE_SIZE:
                self._seams.clear()
            self._seams[(left, right)] = found
        return found

    def _bytes_of(self, token: int) -> int:
        return 1 if token < 256 else len(self.vocab[token])
