"""Chunks at an earlier step, from their state at a later one: split the newer tokens.

Every token made after step k came from one merge of two older tokens, and splitting it
back is that merge undone; so a chunk's ids at step k are its ids at any later step with
each token of id 256 + k or more replaced by its two parents, recursively. That undoes
merges for the few tokens a chunk holds instead of redoing them over its bytes: on
tinyshakespeare (vocab size 5,000) a step is 10-40 ms this way against 70 ms or more for
`explorer.analysis.pairs.pair_table.sequences_after`.

    >>> from explorer.analysis.pairs.pair_table import sequences_after
    >>> merges = [(97, 97), (256, 97), (257, 98)]
    >>> final = sequences_after({b"aaabdaaabac": 1}, merges)
    >>> final.chunks[0][0], rewind(final, merges, 1).chunks[0][0]
    ([258, 100, 258, 97, 99], (256, 97, 98, 100, 256, 97, 98, 97, 99))
"""

from __future__ import annotations

from collections.abc import Sequence

from explorer.analysis.pairs.pair_table import ChunkSequences


class RewindError(ValueError):
    """A step that is not before the state given."""


def rewind(later: ChunkSequences, merges: Sequence[tuple[int, int]], step: int) -> ChunkSequences:
    """The chunks after the first `step` merges, from `later` (the chunks at a later step).

    Chunks without a token newer than the step are shared with `later`, not copied.
    """
    if type(step) is not int or not 0 <= step <= later.step:
        raise RewindError(f"step must be a whole number from 0 to {later.step} (got {step!r})")
    limit = 256 + step
    parts: dict[int, list[int]] = {}

    def split(token: int) -> list[int]:
        """A token's ids at the step (iterative: a chain of merges can be deep)."""
        pending = [token]
        while pending:
            newest = pending[-1]
            if newest in parts:
                pending.pop()
                continue
            halves = merges[newest - 256]
            missing = [half for half in halves if half >= limit and half not in parts]
            if missing:
                pending.extend(missing)
                continue
            parts[newest] = [
                i for half in halves for i in (parts[half] if half >= limit else (half,))
            ]
            pending.pop()
        return parts[token]

    chunks = []
    for ids, weight in later.chunks:
        if max(ids, default=0) < limit:
            chunks.append((ids, weight))
            continue
        older: list[int] = []
        for token in ids:
            if token < limit:
                older.append(token)
            else:
                older.extend(split(token))
        # subtle: a tuple of ints, which the garbage collector stops tracking, so the
        # states a server keeps do not make every full collection slower
        chunks.append((tuple(older), weight))
    return ChunkSequences(step, tuple(chunks))
