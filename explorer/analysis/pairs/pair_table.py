"""The pair table at a training step: what `get_stats` prints before the next merge.

At step k (after k merges) every distinct chunk of the corpus is in its state after the
first k merges; its adjacent pairs are counted, overlapping, weighted by how often the
chunk occurs, exactly as the trainer counts them. The winner is the pair with the
highest count; among equal counts the run's tie rule decides:

- "first-occurrence" (minbpe's, the default): the pair seen first in the current token
  sequence, chunks in text order;
- "lowest-ids": the pair with the smallest (left, right) ids.

So a student can check the trainer by hand:

    >>> table = pair_table({b"aaabdaaabac": 1}, [], 0)
    >>> [(row.pair, row.count) for row in table.rows[:3]]
    [((97, 97), 4), ((97, 98), 2), ((98, 100), 1)]
    >>> table.winner.pair, table.tied_with
    ((97, 97), 0)
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from explorer.encoding.merging import merge_ids, merge_pair
from explorer.training.tie_rules import TieRule

FIRST_OCCURRENCE = TieRule.FIRST_OCCURRENCE.value
LOWEST_IDS = TieRule.LOWEST_IDS.value
TIE_RULES = tuple(rule.value for rule in TieRule)


class PairTableError(ValueError):
    """A step or tie rule that has no pair table."""


@dataclass(frozen=True, slots=True)
class PairRow:
    """One adjacent pair at a step: its overlapping count and where it first occurs.

    first_position counts tokens from the start of the corpus's token sequence (distinct
    chunks laid out in order of first appearance, as the trainer lays them out).
    """

    left: int
    right: int
    count: int
    first_position: int
    winner: bool = False
    tied: bool = False

    @property
    def pair(self) -> tuple[int, int]:
        return (self.left, self.right)


@dataclass(frozen=True)
class PairTable:
    """The top pairs at one step, best first (the winner first), and how many exist.

    tied_with is how many other pairs had the winner's count (all of them counted, not
    only those shown); distinct_pairs is the number of different adjacent pairs.
    """

    step: int
    rows: tuple[PairRow, ...]
    distinct_pairs: int
    tied_with: int
    tie_rule: str

    @property
    def winner(self) -> PairRow | None:
        return self.rows[0] if self.rows else None


@dataclass(frozen=True)
class ChunkSequences:
    """Every distinct chunk's ids at a step, with how often the chunk occurs."""

    step: int
    chunks: tuple[tuple[Sequence[int], int], ...]


def pair_table(
    chunk_counts: Mapping[bytes, int],
    merges: Sequence[tuple[int, int]],
    step: int,
    *,
    top: int = 10,
    tie_rule: str = FIRST_OCCURRENCE,
) -> PairTable:
    """The `top` pairs with the highest counts after the first `step` merges.

    `chunk_counts` maps each distinct chunk's bytes to its count, in order of first
    appearance (as explorer.training.corpus counts them); `merges` are the run's merges. Rows
    are ordered as the trainer ranks them: count, then the tie rule; every pair tied
    with the winner is marked `tied`, and those are all shown even beyond `top`.

    >>> [row.pair for row in pair_table({b"aaabdaaabac": 1}, [(97, 97)], 1).rows[:2]]
    [(256, 97), (97, 98)]
    """
    _check(merges, step, top, tie_rule)
    return table_of(sequences_after(chunk_counts, merges[:step]), top=top, tie_rule=tie_rule)


def table_of(
    sequences: ChunkSequences, *, top: int = 10, tie_rule: str = FIRST_OCCURRENCE
) -> PairTable:
    """The pair table of chunks already in their state at a step (see `sequences_after`)."""
    _check((), 0, top, tie_rule)
    return _table_from_counts(sequences, _count_pairs(sequences.chunks), top, tie_rule)


def tables_along(
    chunk_counts: Mapping[bytes, int],
    merges: Sequence[tuple[int, int]],
    *,
    top: int = 10,
    tie_rule: str = FIRST_OCCURRENCE,
) -> Iterator[PairTable]:
    """The table before each merge in turn (steps 0 .. len(merges) - 1), as `pair_table`
    gives them, counted once and then updated: a merge recounts only the chunks it changed.

    A lesson of a hundred steps on tinyshakespeare needs this: a full recount is ~50 ms.

    >>> [t.winner.pair for t in tables_along({b"aaabdaaabac": 1}, [(97, 97), (256, 97)])]
    [(97, 97), (256, 97)]
    """
    _check((), 0, top, tie_rule)
    start = sequences_after(chunk_counts, [])
    chunks = [list(ids) for ids, _ in start.chunks]
    weights = [weight for _, weight in start.chunks]
    counts = _count_pairs(start.chunks)
    holding: dict[int, set[int]] = {}  # token -> the chunks it is in (some may have lost it)
    for index, ids in enumerate(chunks):
        for token in ids:
            holding.setdefault(token, set()).add(index)
    for rank, pair in enumerate(merges):
        yield _table_from_counts(
            ChunkSequences(rank, tuple(zip(chunks, weights))), counts, top, tie_rule
        )
        left, right = pair
        for index in holding.get(left, set()) & holding.get(right, set()):
            old = chunks[index]
            new = merge_pair(old, pair, 256 + rank)
            if len(new) < len(old):
                _update_counts(counts, [(old, weights[index])], [(new, weights[index])])
                chunks[index] = new
                holding.setdefault(256 + rank, set()).add(index)


@dataclass(frozen=True)
class CountedStep:
    """Chunks at a step with their pair counts, so the next step updates, not recounts.

    Measured on tinyshakespeare at V=5000 (15,258 distinct chunks), steps 1,000 and
    4,000: a step forward with `advance_counted` and its table take 9-13 ms (CPU);
    advancing and recounting took 28-33 ms.
    """

    sequences: ChunkSequences
    counts: Mapping[tuple[int, int], int]

    @property
    def step(self) -> int:
        return self.sequences.step


def counted(sequences: ChunkSequences) -> CountedStep:
    """The chunks with their pairs counted (the seeds' get_stats, weighted)."""
    return CountedStep(sequences, _count_pairs(sequences.chunks))


def advance_counted(
    state: CountedStep, pair: tuple[int, int], touched: Sequence[int] | None = None
) -> CountedStep:
    """`advance`, with the counts moved only for the chunks the merge changed.

    `touched`, when known (`chunks_touched`), lists the chunks holding the pair, so the
    others are not even looked at.

    >>> start = counted(sequences_after({b"aaab": 1}, []))
    >>> sorted(advance_counted(start, (97, 97)).counts.items())
    [((97, 98), 1), ((256, 97), 1)]
    """
    after = advance(state.sequences, pair, touched)
    counts = dict(state.counts)
    _update_counts(counts, state.sequences.chunks, after.chunks, touched)
    return CountedStep(after, counts)


def table_of_counted(
    state: CountedStep, *, top: int = 10, tie_rule: str = FIRST_OCCURRENCE
) -> PairTable:
    """`table_of` for chunks whose pairs are already counted."""
    _check((), 0, top, tie_rule)
    return _table_from_counts(state.sequences, state.counts, top, tie_rule)


def _table_from_counts(
    sequences: ChunkSequences, counts: Mapping[tuple[int, int], int], top: int, tie_rule: str
) -> PairTable:
    """table_of's ranking, given the chunks' pair counts."""
    if not counts:
        return PairTable(sequences.step, (), 0, 0, tie_rule)
    best = max(counts.values())
    tied = sum(1 for count in counts.values() if count == best)
    # subtle: only pairs that can be shown need a first position, so find those alone
    floor = heapq.nlargest(top, counts.values())[-1] if tied < top else best
    candidates = {pair: count for pair, count in counts.items() if count >= floor}
    firsts = _first_positions(sequences.chunks, candidates)
    ranked = sorted(candidates, key=_sort_key(tie_rule, candidates, firsts))
    rows = tuple(
        PairRow(
            *pair,
            candidates[pair],
            firsts[pair],
            winner=i == 0,
            tied=candidates[pair] == best and tied > 1,
        )
        for i, pair in enumerate(ranked[: max(top, tied)])
    )
    return PairTable(sequences.step, rows, len(counts), tied - 1, tie_rule)


def sequences_after(
    chunk_counts: Mapping[bytes, int], merges: Sequence[tuple[int, int]]
) -> ChunkSequences:
    """Each distinct chunk's ids after `merges`, with its count, in text order.

    Measured on tinyshakespeare (15,258 distinct chunks) at step 4,000: about 60 ms,
    two thirds of a table; `advance` moves one step on in a few ms.
    """
    ranks = {pair: 256 + rank for rank, pair in enumerate(merges)}
    whole = _token_ids(merges)
    chunks: list[tuple[Sequence[int], int]] = []
    for chunk, weight in chunk_counts.items():
        token = whole.get(chunk)
        if token is not None:  # one lookup instead of merging
            chunks.append(((token,), weight))
        else:
            chunks.append((merge_ids(list(chunk), ranks) if ranks else tuple(chunk), weight))
    return ChunkSequences(len(merges), tuple(chunks))


def advance(
    sequences: ChunkSequences, pair: tuple[int, int], touched: Sequence[int] | None = None
) -> ChunkSequences:
    """The chunks one merge later: `pair` becomes id 256 + step, left to right.

    Only the chunks holding the pair are new objects (of tuples, which the garbage
    collector soon stops tracking); the others are shared with `sequences`. `touched`,
    when given, is where to look: the indices of the chunks that hold the pair.

    >>> start = sequences_after({b"aaab": 1, b"b": 2}, [])
    >>> advance(start, (97, 97)).chunks
    (((256, 97, 98), 1), ((98,), 2))
    """
    left, right = pair
    new_id = 256 + sequences.step
    chunks = list(sequences.chunks)
    for index in range(len(chunks)) if touched is None else touched:
        ids, weight = chunks[index]
        if left in ids and right in ids:
            chunks[index] = (tuple(merge_pair(ids, pair, new_id)), weight)
    return ChunkSequences(sequences.step + 1, tuple(chunks))


def chunks_touched(
    last: ChunkSequences, merges: Sequence[tuple[int, int]]
) -> tuple[tuple[int, ...], ...]:
    """For each merge, the indices of the chunks it changes (for `advance`'s `touched`).

    Merge k changes a chunk exactly when token 255 + k is in the family tree of one of
    the chunk's tokens after the last merge: tokens are only made by merges inside their
    chunk. So one pass over the last step finds them all, instead of a scan of every
    chunk at every step. On a load test's 20 KB text (1,336 chunks, 244 merges) a step
    forward with its counts took 0.31 ms scanning; the scan also made a new tuple per
    chunk, and in the app the garbage collections those set off were 15 % of a step.

    >>> last = sequences_after({b"aaab": 1, b"ab": 1, b"b": 3}, [(97, 97), (97, 98)])
    >>> chunks_touched(last, [(97, 97), (97, 98)])
    ((0,), (0, 1))
    """
    if len(last.chunks) and last.step != len(merges):
        raise PairTableError(f"the chunks are at step {last.step}, not the last ({len(merges)})")
    made_by: dict[int, tuple[int, ...]] = {byte: () for byte in range(256)}

    def ranks_of(token: int) -> tuple[int, ...]:
        """The merge ranks of a token's family tree (a loop: trees can be deep)."""
        pending = [token]
        while pending:
            top = pending[-1]
            if top in made_by:
                pending.pop()
                continue
            left, right = merges[top - 256]
            missing = [part for part in (left, right) if part not in made_by]
            if missing:
                pending += missing
            else:
                made_by[top] = (top - 256, *made_by[left], *made_by[right])
                pending.pop()
        return made_by[token]

    touched: list[list[int]] = [[] for _ in merges]
    for index, (ids, _) in enumerate(last.chunks):
        for rank in {rank for token in ids for rank in ranks_of(token)}:
            touched[rank].append(index)
    return tuple(map(tuple, touched))  # ascending: chunks were visited in order


def describe_tie(table: PairTable) -> str:
    """How the winner was chosen, in a sentence for people.

    >>> describe_tie(pair_table({b"abab": 1}, [], 0))
    'The top count, 2, is held by one pair.'
    """
    winner = table.winner
    if winner is None:
        return "No pair of adjacent tokens is left."
    if not table.tied_with:
        return f"The top count, {winner.count:,}, is held by one pair."
    others = "1 other pair" if table.tied_with == 1 else f"{table.tied_with:,} other pairs"
    why = (
        "the tie goes to the pair whose first occurrence comes first in the text"
        if table.tie_rule == FIRST_OCCURRENCE
        else "the tie goes to the pair with the lowest ids"
    )
    return f"The top count, {winner.count:,}, is shared with {others}: {why}."


def _check(merges: Sequence[tuple[int, int]], step: int, top: int, tie_rule: str) -> None:
    if type(step) is not int or not 0 <= step <= len(merges):
        raise PairTableError(f"step must be a whole number from 0 to {len(merges)} (got {step!r})")
    if type(top) is not int or top < 1:
        raise PairTableError(f"top must be a whole number of at least 1 (got {top!r})")
    if tie_rule not in TIE_RULES:
        raise PairTableError(f"tie_rule must be one of {', '.join(TIE_RULES)} (got {tie_rule!r})")


def _count_pairs(sequences: Sequence[tuple[Sequence[int], int]]) -> dict[tuple[int, int], int]:
    """Overlapping pair counts, each chunk weighted by its count (the seeds' get_stats)."""
    counts: dict[tuple[int, int], int] = {}
    get = counts.get
    for ids, weight in sequences:
        if len(ids) > 1:
            for pair in zip(ids, ids[1:]):
                counts[pair] = get(pair, 0) + weight
    return counts


def _update_counts(
    counts: dict[tuple[int, int], int],
    before: Sequence[tuple[Sequence[int], int]],
    after: Sequence[tuple[Sequence[int], int]],
    touched: Sequence[int] | None = None,
) -> None:
    """Move pair counts from the chunks `before` to the same chunks `after` a merge.

    subtle: `advance` keeps an unchanged chunk's object, so `is` skips those.
    """
    for index in range(len(before)) if touched is None else touched:
        old, weight = before[index]
        new = after[index][0]
        if old is new:
            continue
        for pair in zip(old, old[1:]):
            left = counts[pair] - weight
            if left:
                counts[pair] = left
            else:
                del counts[pair]
        for pair in zip(new, new[1:]):
            counts[pair] = counts.get(pair, 0) + weight


def _first_positions(
    sequences: Sequence[tuple[Sequence[int], int]], wanted: Mapping[tuple[int, int], int]
) -> dict[tuple[int, int], int]:
    """Where each wanted pair first occurs in the token sequence (stops when all are found)."""
    firsts: dict[tuple[int, int], int] = {}
    lefts = {left for left, _ in wanted}
    position = 0
    for ids, _ in sequences:
        # isdisjoint runs in C: most chunks hold no wanted pair's left token (3x faster
        # on tinyshakespeare, where some top pairs first occur deep in the corpus)
        if len(ids) > 1 and not lefts.isdisjoint(ids):
            for offset, pair in enumerate(zip(ids, ids[1:])):
                if pair in wanted and pair not in firsts:
                    firsts[pair] = position + offset
                    if len(firsts) == len(wanted):
                        return firsts
        position += len(ids)
    return firsts


def _token_ids(merges: Sequence[tuple[int, int]]) -> dict[bytes, int]:
    """bytes -> id of every token the merges make, and of each byte.

    subtle: a chunk that spells a token is that one token, because merges learned by
    BPE build every token inside a chunk whole (see explorer.encoding.merging).
    """
    tokens = [bytes([b]) for b in range(256)]
    for left, right in merges:
        tokens.append(tokens[left] + tokens[right])
    return {data: token for token, data in enumerate(tokens)}


def _sort_key(
    tie_rule: str, counts: Mapping[tuple[int, int], int], firsts: Mapping[tuple[int, int], int]
) -> Callable[[tuple[int, int]], tuple[int, object]]:
    """Best first: the highest count, then the tie rule's choice."""
    if tie_rule == LOWEST_IDS:
        return lambda pair: (-counts[pair], pair)
    return lambda pair: (-counts[pair], firsts[pair])
