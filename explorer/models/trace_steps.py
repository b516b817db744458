"""A loaded model's trace, step by step: each merge with the chunk before and after it.

`LoadedModel.trace` gives every merge applied, with its rank and the position it fused;
a page that steps through an encode also needs the chunk's tokens before and after a
merge and the other pairs that could have merged (each with its rank; the lowest fuses,
the leftmost on a tie). Pure data, replayed from the trace for the step asked for.

    >>> import json
    >>> from explorer.models.hf_model import read_tokenizer_json
    >>> doc = {"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "abab": 3},
    ...        "merges": ["a b", "ab ab"]}}
    >>> model = read_tokenizer_json(json.dumps(doc))
    >>> trace = model.trace("abab")
    >>> steps = model_steps(model, trace)
    >>> [(s.number, s.merge.rank, before(trace, s), after(trace, s)) for s in steps]
    [(1, 0, (0, 1, 0, 1), (2, 0, 1)), (2, 0, (2, 0, 1), (2, 2)), (3, 1, (2, 2), (3,))]
    >>> [(c.position, c.rank) for c in candidates(model, before(trace, steps[0]))]
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
    `chunk`, the `index`-th merge of that chunk (from 0).

    subtle: a step keeps no copy of its chunk: a SentencePiece model with no pre-tokenizer
    (Gemma 3, Llama 2) has one chunk of a whole paragraph, and copies of 5,000 ids at each
    of its 3,866 steps took 20 s with their candidates; `before`, `after` and
    `candidates` replay the chunk for the one step on screen.
    """

    number: int
    chunk: int
    index: int
    position: int
    merge: ModelMerge


def model_steps(model: LoadedModel, trace: ModelTrace) -> list[ModelStep]:
    """Every step of the trace, in order (a chunk taken whole has none)."""
    return [
        ModelStep(traced.step, index, k, traced.position, traced.merge)
        for index, chunk in enumerate(trace.chunks)
        for k, traced in enumerate(chunk.steps)
    ]


def before(trace: ModelTrace, step: ModelStep) -> tuple[int, ...]:
    """The step's chunk just before it fuses."""
    return _replayed(trace, step.chunk, step.index)


def after(trace: ModelTrace, step: ModelStep) -> tuple[int, ...]:
    """The step's chunk just after it fused."""
    return _replayed(trace, step.chunk, step.index + 1)


def _replayed(trace: ModelTrace, chunk: int, merges: int) -> tuple[int, ...]:
    """A chunk's ids after its first `merges` merges."""
    traced = trace.chunks[chunk]
    ids = list(traced.start_ids)
    for step in traced.steps[:merges]:
        at = step.position
        ids[at : at + 2] = [step.merge.result]
    return tuple(ids)


def candidates(model: LoadedModel, ids: tuple[int, ...]) -> tuple[Candidate, ...]:
    """Each adjacent pair of `ids` that has a merge, with its rank."""
    found = []
    for position in range(len(ids) - 1):
        rank = model.pair_rank(ids[position], ids[position + 1])
        if rank is not None:
            found.append(Candidate(position, rank))
    return tuple(found)


def ids_at(trace: ModelTrace, steps: list[ModelStep], number: int) -> list[tuple[int, ...]]:
    """Each chunk's ids after the first `number` steps (0: as the chunks start; a chunk
    taken whole is its token from the start).

    >>> import json
    >>> from explorer.models.hf_model import read_tokenizer_json
    >>> doc = {"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]}}
    >>> model = read_tokenizer_json(json.dumps(doc))
    >>> trace = model.trace("abab")
    >>> ids_at(trace, model_steps(model, trace), 1)
    [(2, 0, 1)]
    """
    done = [0] * len(trace.chunks)
    for step in steps[:number]:
        done[step.chunk] = step.index + 1
    return [
        _replayed(trace, index, done[index]) if chunk.steps or not chunk.whole else chunk.final_ids
        for index, chunk in enumerate(trace.chunks)
    ]
