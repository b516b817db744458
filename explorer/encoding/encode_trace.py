"""How a trained tokenizer encodes a short text, merge by merge, for a step-by-step view.

Encoding is not training played back. Each pre-token chunk starts from its bytes; at
each step every adjacent pair that has a merge is a candidate, the one with the LOWEST
merge number wins wherever it sits in the chunk, and all its occurrences fuse, left to
right (minbpe's `encode_chunk`: `min(stats, key=merges.get)`, then `merge`). It stops
when no adjacent pair has a merge. Merges are numbered from 1: merge k makes id 255 + k.

    >>> from explorer import train
    >>> tok = train("aaabdaaabac", 259, pattern="none").tokenizer
    >>> trace = trace_encoding(tok, "aaabdaaabac")
    >>> for step in trace.chunks[0].steps:
    ...     print([c.merge_number for c in step.candidates], step.merge_number, step.ids_after)
    [1] 1 (256, 97, 98, 100, 256, 97, 98, 97, 99)
    [2] 2 (257, 98, 100, 257, 98, 97, 99)
    [3] 3 (258, 100, 258, 97, 99)
    >>> trace.ids == tok.encode("aaabdaaabac")
    True
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.encoding.extra_tokens import SpecialSet
from explorer.encoding.merging import merge_pair
from explorer.encoding.tokenizer import Tokenizer

MAX_TRACE_CHARS = 300  # a word or a sentence: every step of every chunk is kept


class TraceLimitError(ValueError):
    """A text too long to trace step by step."""


@dataclass(frozen=True)
class Candidate:
    """An adjacent pair that has a merge: its merge number and where it starts in the ids."""

    pair: tuple[int, int]
    merge_number: int
    positions: tuple[int, ...]

    @property
    def new_id(self) -> int:
        return 255 + self.merge_number


@dataclass(frozen=True)
class EncodeStep:
    """One merge inside a chunk: the candidates, the lowest chosen, every occurrence fused.

    `candidates` are the distinct mergeable pairs in reading order (by first position);
    `positions` are where the chosen pair starts in `ids_before`, the occurrences fused.
    """

    ids_before: tuple[int, ...]
    candidates: tuple[Candidate, ...]
    chosen: Candidate
    ids_after: tuple[int, ...]

    @property
    def pair(self) -> tuple[int, int]:
        return self.chosen.pair

    @property
    def merge_number(self) -> int:
        return self.chosen.merge_number

    @property
    def new_id(self) -> int:
        return self.chosen.new_id

    @property
    def positions(self) -> tuple[int, ...]:
        return self.chosen.positions


@dataclass(frozen=True)
class ChunkTrace:
    """One pre-token chunk: its text, its starting ids (bytes), and each merge on it.

    A special token is a chunk of one id and no steps: it is never merged; so is a
    chunk that is exactly a token outside the merges (Tokenizer.outside_merges).
    """

    text: str
    special: bool
    start_ids: tuple[int, ...]
    steps: tuple[EncodeStep, ...]
    outside: bool = False  # taken whole as a token no merge makes (Tokenizer.outside_id)

    @property
    def ids(self) -> tuple[int, ...]:
        """The chunk's final ids."""
        return self.steps[-1].ids_after if self.steps else self.start_ids


@dataclass(frozen=True)
class GlobalStep:
    """Step `number` (from 1) of the whole text: merge `index` (from 0) of chunk `chunk`."""

    number: int
    chunk: int
    index: int
    step: EncodeStep


@dataclass(frozen=True)
class EncodeTrace:
    """Every chunk of a text, traced; `steps` runs through them in text order."""

    text: str
    chunks: tuple[ChunkTrace, ...]

    @property
    def ids(self) -> list[int]:
        """The text's token ids: the chunks' final ids, joined (what `encode` returns)."""
        return [token for chunk in self.chunks for token in chunk.ids]

    @property
    def steps(self) -> tuple[GlobalStep, ...]:
        return global_steps(self.chunks)

    def ids_at(self, number: int) -> list[tuple[int, ...]]:
        """Each chunk's ids after the first `number` steps of the text (0: all bytes)."""
        done = 0
        shown: list[tuple[int, ...]] = []
        for chunk in self.chunks:
            taken = max(0, min(len(chunk.steps), number - done))
            shown.append(chunk.steps[taken - 1].ids_after if taken else chunk.start_ids)
            done += len(chunk.steps)
        return shown


def global_steps(chunks: tuple[ChunkTrace, ...]) -> tuple[GlobalStep, ...]:
    """The chunks' steps as one list, numbered from 1, chunk after chunk.

    >>> tok = Tokenizer([(104, 105)], pattern=r"\\w+|\\s")
    >>> [(s.number, s.chunk) for s in trace_encoding(tok, "hi hi").steps]
    [(1, 0), (2, 2)]
    """
    numbered: list[GlobalStep] = []
    for chunk_index, chunk in enumerate(chunks):
        for index, step in enumerate(chunk.steps):
            numbered.append(GlobalStep(len(numbered) + 1, chunk_index, index, step))
    return tuple(numbered)


def trace_encoding(
    tokenizer: Tokenizer,
    text: str,
    *,
    allowed_special: SpecialSet = "all",
    disallowed_special: SpecialSet = "all",
    max_chars: int = MAX_TRACE_CHARS,
) -> EncodeTrace:
    """Trace the encoding of `text`, chunk by chunk, as `Tokenizer.encode` splits it.

    Special tokens are allowed by default, as the Tokens page encodes. A text longer
    than `max_chars` raises TraceLimitError: each step keeps the whole chunk's ids.
    """
    if len(text) > max_chars:
        raise TraceLimitError(
            f"the text is {len(text):,} characters; step-by-step encoding shows at most "
            f"{max_chars:,}. Pick a word or a sentence of it."
        )
    pieces = tokenizer.pre_tokens(
        text, allowed_special=allowed_special, disallowed_special=disallowed_special
    )
    return EncodeTrace(text, tuple(trace_chunk(tokenizer, p, special) for p, special in pieces))


def trace_chunk(tokenizer: Tokenizer, chunk: str, special: bool = False) -> ChunkTrace:
    """Merge one chunk from its bytes, recording each step.

    >>> tok = Tokenizer([(97, 97), (97, 98)])
    >>> step = trace_chunk(tok, "aab").steps[0]
    >>> [(c.pair, c.merge_number) for c in step.candidates], step.ids_after
    ([((97, 97), 1), ((97, 98), 2)], (256, 98))
    """
    if special:
        return ChunkTrace(chunk, True, (tokenizer.special_tokens[chunk],), ())
    outside = tokenizer.outside_id(chunk)
    if outside is not None:  # subtle: encode takes it whole, before any merge (no merge makes it)
        return ChunkTrace(chunk, False, (outside,), (), outside=True)
    start = tuple(tokenizer.initial_ids(chunk))
    ids, steps = start, []
    while candidates := mergeable_pairs(ids, tokenizer.ranks):
        chosen = min(candidates, key=lambda candidate: candidate.merge_number)
        after = tuple(merge_pair(ids, chosen.pair, chosen.new_id))
        steps.append(EncodeStep(ids, candidates, chosen, after))
        ids = after
    return ChunkTrace(chunk, False, start, tuple(steps))


def mergeable_pairs(
    ids: tuple[int, ...], ranks: dict[tuple[int, int], int]
) -> tuple[Candidate, ...]:
    """Every distinct adjacent pair that has a merge, in reading order, with its positions.

    `ranks` maps a pair to the id it makes (Tokenizer.ranks).

    >>> found = mergeable_pairs((97, 97, 97), {(97, 97): 256})
    >>> [(c.pair, c.merge_number, c.positions) for c in found]
    [((97, 97), 1, (0, 1))]
    """
    positions: dict[tuple[int, int], list[int]] = {}
    for index, pair in enumerate(zip(ids, ids[1:])):
        if pair in ranks:
            positions.setdefault(pair, []).append(index)
    return tuple(
        Candidate(pair, ranks[pair] - 255, tuple(where)) for pair, where in positions.items()
    )


def fused_positions(step: EncodeStep) -> tuple[int, ...]:
    """Where the new tokens sit in `ids_after`: each occurrence moved left by one per
    occurrence fused before it.

    >>> tok = Tokenizer([(97, 97)])
    >>> fused_positions(trace_chunk(tok, "aaaaba").steps[0])
    (0, 1)
    """
    return tuple(position - count for count, position in enumerate(fused_starts(step)))


def fused_starts(step: EncodeStep) -> tuple[int, ...]:
    """The chosen pair's positions that actually fuse (in 'aaa', not the overlapping one)."""
    starts: list[int] = []
    for position in step.positions:
        if not starts or position >= starts[-1] + 2:
            starts.append(position)
    return tuple(starts)
