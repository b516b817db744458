"""A loaded model's merges, held compactly: three arrays of ids, in rank order.

Gemma 3 lists 514,906 merges: as ModelMerge objects they would take ~60 MB and a second to
build, so the table keeps `left`, `right` and `result` as 32-bit arrays and makes a
ModelMerge only when one is asked for. The two lookups built from them (pair -> rank, for
encoding; result -> ranks, for lineage) are built the first time they are needed.

    >>> table = MergeTable.from_lists([1, 3, 1], [2, 4, 2], [3, 5, 3])
    >>> table[1], len(table)
    (ModelMerge(rank=1, left=3, right=4, result=5), 3)
    >>> table.rank_of(1, 2)  # listed twice: the later rank stands, as in Hugging Face's map
    2
    >>> [merge.rank for merge in table.makers(3)]
    [0, 2]
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Iterator, Sequence
from itertools import repeat
from typing import overload

from explorer.models.model import ModelMerge


class MergeTable(Sequence[ModelMerge]):
    """Merges by rank (from 0): `table[rank]` is a ModelMerge."""

    def __init__(self, left: array[int], right: array[int], result: array[int]) -> None:
        self.left, self.right, self.result = left, right, result
        self._pairs: dict[int, int] | None = None
        self._makers: dict[int, list[int]] | None = None

    @classmethod
    def from_lists(cls, left: list[int], right: list[int], result: list[int]) -> MergeTable:
        return cls(array("i", left), array("i", right), array("i", result))

    def __len__(self) -> int:
        return len(self.result)

    @overload
    def __getitem__(self, index: int) -> ModelMerge: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[ModelMerge]: ...
    def __getitem__(self, index: int | slice) -> ModelMerge | Sequence[ModelMerge]:
        if isinstance(index, slice):
            return [self[rank] for rank in range(*index.indices(len(self)))]
        rank = range(len(self))[index]
        return ModelMerge(rank, self.left[rank], self.right[rank], self.result[rank])

    def __iter__(self) -> Iterator[ModelMerge]:
        for rank, (left, right, result) in enumerate(zip(self.left, self.right, self.result)):
            yield ModelMerge(rank, left, right, result)

    def pair_ranks(self) -> dict[int, int]:
        """(left << 32 | right) -> rank; a pair listed twice keeps its later rank, as
        Hugging Face's `HashMap` collected from the merges does."""
        if self._pairs is None:
            keys = map(operator.or_, map(operator.lshift, self.left, repeat(32)), self.right)
            self._pairs = dict(zip(keys, range(len(self))))
        return self._pairs

    def rank_of(self, left: int, right: int) -> int | None:
        """The rank at which this pair merges when encoding, or None."""
        return self.pair_ranks().get((left << 32) | right)

    def makers(self, token_id: int) -> list[ModelMerge]:
        """Every merge whose result is `token_id`, in rank order."""
        if self._makers is None:
            makers: dict[int, list[int]] = {}
            for rank, result in enumerate(self.result):
                makers.setdefault(result, []).append(rank)
            self._makers = makers
        return [self[rank] for rank in self._makers.get(token_id, [])]
