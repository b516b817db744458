"""What a rank model shows beyond tiktoken: its tokens as text, its merges, an encode's trace.

All three are computed when asked, not at load: tiktoken needs none of them to encode.
`RankMerges` finds a token's merges from its bytes (every split into two tokens, see
`explorer.models.rank_model`); the whole list, asked for once, costs about 1 µs of CPU a
byte of token (Llama 3's 831 KB: ~0.7 s) and 12 bytes a merge. A token of n bytes has at
most n - 1 merges, so MAX_RANKED_BYTES (2 MiB) bounds the list to about
two million merges (the worst shape, a, aa, aaa, ..., reaches 2,094,081), not MAX_MERGES,
which bounds the merges a file lists.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, overload

import regex

from explorer.base.byte_map import gpt2_chars
from explorer.encoding.pretokenize import compile_pattern
from explorer.models.model import ChunkTrace, ModelMerge, ModelTrace, TraceStep
from explorer.models.rank_merging import byte_pair_steps, token_splits

if TYPE_CHECKING:
    from explorer.models.rank_model import RankModel


class TokenNames(Mapping[int, str]):
    """id -> the token written as byte-level files write it ('Ġthe'); a special token's name."""

    def __init__(self, model: RankModel) -> None:
        self._model = model

    def __getitem__(self, token_id: int) -> str:
        model = self._model
        if token_id in model.special_by_id:
            return model.special_by_id[token_id]
        rank = token_id - model.id_offset
        if 0 <= rank < len(model.rank_tokens):
            return gpt2_chars(model.rank_tokens[rank])
        raise KeyError(token_id)

    def __iter__(self) -> Iterator[int]:
        """Every id in order: a tekken file's specials (0-999) come before its ranks."""
        model, specials = self._model, sorted(self._model.special_by_id)
        yield from (token_id for token_id in specials if token_id < model.id_offset)
        yield from range(model.id_offset, model.id_offset + len(model.rank_tokens))
        yield from (token_id for token_id in specials if token_id >= model.id_offset)

    def __len__(self) -> int:
        return self._model.vocab_size


class RankMerges(Sequence[ModelMerge]):
    """Every merge of a rank model, in rank order (by the made token's rank, then the left
    and right parts' ranks), found on first use and kept as three arrays of ids.

    For Llama 3 these are the 280,147 merges its tokenizer.json lists, in the same order.
    """

    def __init__(self, model: RankModel) -> None:
        self._model = model
        self._table: tuple[array[int], array[int], array[int]] | None = None

    def makers(self, token_id: int) -> list[ModelMerge]:
        """The merges that make one token, found from its bytes alone (no full list needed)."""
        model, offset = self._model, self._model.id_offset
        rank = token_id - offset
        if not 0 <= rank < len(model.rank_tokens):
            return []
        splits = token_splits(model.rank_tokens[rank], model.ranks)
        return [ModelMerge(rank, left + offset, right + offset, token_id) for left, right in splits]

    def _rows(self) -> tuple[array[int], array[int], array[int]]:
        if self._table is None:
            lefts, rights, made = array("i"), array("i"), array("i")
            model = self._model
            for rank, token in enumerate(model.rank_tokens):
                if len(token) > 1:
                    for left, right in token_splits(token, model.ranks):
                        lefts.append(left)
                        rights.append(right)
                        made.append(rank)
            self._table = (lefts, rights, made)
        return self._table

    def __len__(self) -> int:
        return len(self._rows()[0])

    @overload
    def __getitem__(self, index: int) -> ModelMerge: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[ModelMerge]: ...
    def __getitem__(self, index: int | slice) -> ModelMerge | Sequence[ModelMerge]:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        lefts, rights, made = self._rows()
        offset = self._model.id_offset
        rank = made[index]
        return ModelMerge(rank, lefts[index] + offset, rights[index] + offset, rank + offset)


# --- the trace ---------------------------------------------------------------------------


def rank_trace(model: RankModel, text: str) -> ModelTrace:
    """tiktoken's encode of `text`, told chunk by chunk: special tokens (when the model reads
    them from text), then each pre-token taken whole or merged by byte_pair_steps.

    tiktoken drops text its pattern does not match (a custom pattern may leave gaps), and
    so does the trace. Lone surrogates are replaced as tiktoken replaces them.
    """
    seen = _as_tiktoken_sees(text)
    compiled = compile_pattern(model.pattern)
    chunks: list[ChunkTrace] = []
    step = 0
    for piece, special in _special_parts(model, seen):
        if special:
            token_id = model.special_tokens[piece]
            chunks.append(ChunkTrace(piece, (token_id,), (), (token_id,), whole=True))
            continue
        matches = compiled.finditer(piece) if compiled is not None else ()
        for chunk in [match.group() for match in matches] if compiled is not None else [piece]:
            if not chunk:
                continue
            traced = _chunk_trace(model, chunk, step)
            step += len(traced.steps)
            chunks.append(traced)
    return ModelTrace(original=text, normalized=seen, chunks=tuple(chunks))


def _chunk_trace(model: RankModel, chunk: str, step: int) -> ChunkTrace:
    data, offset = chunk.encode("utf-8"), model.id_offset
    start_ids = tuple(model.ranks[data[i : i + 1]] + offset for i in range(len(data)))
    whole = model.ranks.get(data)
    if whole is not None:  # tiktoken takes a piece that is a token whole
        return ChunkTrace(chunk, start_ids, (), (whole + offset,), whole=True)
    steps, finals = byte_pair_steps(data, model.ranks)
    traced = tuple(
        TraceStep(step + k, ModelMerge(made, left + offset, right + offset, made + offset), at)
        for k, (at, left, right, made) in enumerate(steps, start=1)
    )
    return ChunkTrace(chunk, start_ids, traced, tuple(rank + offset for rank in finals))


def _special_parts(model: RankModel, text: str) -> Iterator[tuple[str, bool]]:
    """The text cut at special tokens: (part, is it a special token), in order."""
    if not (model.specials_in_text and model.special_tokens):
        yield text, False
        return
    end = 0
    for match in _special_regex(frozenset(model.special_tokens)).finditer(text):
        if match.start() > end:
            yield text[end : match.start()], False
        yield match.group(), True
        end = match.end()
    if end < len(text):
        yield text[end:], False


@lru_cache(maxsize=8)
def _special_regex(names: frozenset[str]) -> regex.Pattern[str]:
    longest_first = sorted(names, key=lambda name: (-len(name), name))
    return regex.compile("|".join(map(regex.escape, longest_first)))


def _as_tiktoken_sees(text: str) -> str:
    """tiktoken replaces lone surrogates (which UTF-8 cannot hold) with U+FFFD first."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text
