"""A loaded model's trace, step by step: each merge with the chunk before and after it.

`LoadedModel.trace` gives every merge applied, with its rank and the position it fused;
a page that steps through an encode also needs the chunk's tokens before and after each
merge and the other pairs that could have merged (each with its rank; the lowest fuses,
the leftmost on a tie). Pure data, replayed from the trace.

    >>> import json
    >>> from explorer.models.hf_model import read_tokenizer_json
    >>> doc = {"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "abab": 3},
    ...        "merges": ["a b", "ab ab"]}}
    >>> model = read_tokenizer_json(json.dumps(doc))
    >>> steps = model_steps(model, model.trace("abab"))
    >>> [(s.number, s.merge.rank, s.before, s.after) for s in steps]
    [(1, 0, (0, 1, 0, 1), (2, 0, 1)), (2, 0, (2, 0, 1), (2, 2)), (3, 1, (2, 2), (3,))]
    >>> [(c.position, c.rank) for c in steps[0].candidates]
    [(0, 0), (2, 0)]
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.models.model import LoadedModel, ModelMerge, ModelTrace

MAX_MODEL_TRACE_CHARS = 2_000  # a passage: every step of every chunk is kept


@dataclass(frozen=True)
class Candidate:
    """An adjacent pair that has a merge: its position in the chunk and the merge's rank."""

    position: int
    rank: int


@dataclass(frozen=True)
class ModelStep:
    """Step `number` (from 1, over the whole text): `merge` fused at `position` of chunk
    `chunk`, whose ids were `before` and are `after`; `candidates` every pair that had a
    merge then, in reading order."""

    number: int
    chunk: int
    position: int
    merge: ModelMerge
    before: tuple[int, ...]
    after: tuple[int, ...]
    candidates: tuple[Candidate, ...]


def model_steps(model: LoadedModel, trace: ModelTrace) -> list[ModelStep]:
    """Every step of the trace, in order (a chunk taken whole has none)."""
    steps: list[ModelStep] = []
    for index, chunk in enumerate(trace.chunks):
        ids = list(chunk.start_ids)
        for traced in chunk.steps:
            before = tuple(ids)
            at, merge = traced.position, traced.merge
            ids[at : at + 2] = [merge.result]
            steps.append(
                ModelStep(
                    traced.step, index, at, merge, before, tuple(ids), candidates(model, before)
                )
            )
    return steps


def candidates(model: LoadedModel, ids: tuple[int, ...]) -> tuple[Candidate, ...]:
    """Each adjacent pair of `ids` that has a merge, with its rank."""
    found = []
    for position in range(len(ids) - 1):
        rank = model.pair_rank(ids[position], ids[position + 1])
        if rank is not None:
            found.append(Candidate(position, rank))
    return tuple(found)


def ids_at(trace: ModelTrace, steps: list[ModelStep], number: int) -> list[tuple[int, ...]]:
    """Each chunk's ids after the first `number` steps (0: as the chunks start).

    >>> import json
    >>> from explorer.models.hf_model import read_tokenizer_json
    >>> doc = {"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]}}
    >>> model = read_tokenizer_json(json.dumps(doc))
    >>> trace = model.trace("abab")
    >>> ids_at(trace, model_steps(model, trace), 1)
    [(2, 0, 1)]
    """
    chunks = [
        chunk.start_ids if chunk.steps or not chunk.whole else chunk.final_ids
        for chunk in trace.chunks
    ]
    for step in steps[:number]:
        chunks[step.chunk] = step.after
    return chunks
