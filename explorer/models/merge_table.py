"""A loaded model's merges, held compactly: three arrays of ids, in rank order, read from
a file's merges written as token pairs (`merges_from_names`).

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
from typing import Any, overload

from explorer.files.errors import FormatError
from explorer.files.limits import shown
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


def merges_from_names(
    merges: list[Any], vocab: dict[str, int], prefix: str, source: str
) -> MergeTable:
    """The merges as ids: each side a vocabulary token, and what they make too
    (left + right without the continuing-subword prefix, as Hugging Face builds it).

    >>> list(merges_from_names(["a ##b"], {"a": 0, "##b": 1, "ab": 2}, "##", "t.json"))
    [ModelMerge(rank=0, left=0, right=1, result=2)]

    subtle: the fast path maps whole columns through the dictionary in C (Gemma 3's 515k
    merges in well under a second); on any failure the slow loop finds the first bad merge.
    """
    try:
        kinds = set(map(type, merges))
        if kinds == {str}:  # older files: "LEFT RIGHT"
            pairs = list(map(operator.methodcaller("split", " "), merges))
        elif kinds <= {list}:
            pairs = merges
        else:
            raise ValueError
        if set(map(len, pairs)) - {2}:
            raise ValueError
        lefts = list(map(operator.itemgetter(0), pairs))
        rights = list(map(operator.itemgetter(1), pairs))
        if prefix and min(map(len, rights), default=len(prefix)) < len(prefix):
            raise ValueError  # the library would cut past the end of the right side
        made = map(operator.add, lefts, map(operator.itemgetter(slice(len(prefix), None)), rights))
        lookup = vocab.__getitem__
        return MergeTable(
            array("i", map(lookup, lefts)),
            array("i", map(lookup, rights)),
            array("i", map(lookup, made)),
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        _find_bad_merge(merges, vocab, len(prefix), source)
        raise FormatError(f"{source}, model.merges: not a list of merges") from None


def _find_bad_merge(merges: list[Any], vocab: dict[str, int], cut: int, source: str) -> None:
    """Raise the sentence for the first merge that is not two vocabulary tokens making a third."""
    get = vocab.get
    for rank, item in enumerate(merges):
        pair = item.split(" ") if isinstance(item, str) else item
        if not (isinstance(pair, list) and len(pair) == 2):
            raise FormatError(
                f'{source}, model.merges[{rank}]: expected "LEFT RIGHT" or ["LEFT", "RIGHT"], '
                f"got {shown(item)}"
            )
        a, b = pair
        if not isinstance(a, str) or not isinstance(b, str):
            raise FormatError(
                f"{source}, model.merges[{rank}]: expected two strings, got {shown(pair)}"
            )
        if len(b) < cut:
            raise FormatError(
                f"{source}, model.merges[{rank}]: {shown(b)} is shorter than the "
                "continuing-subword prefix, which the merge's right side starts with"
            )
        a_id, b_id, made = get(a), get(b), get(a + b[cut:])
        if a_id is None or b_id is None or made is None:
            raise _merge_error(a, b, a_id, b_id, cut, rank, source)


def _merge_error(
    a: str, b: str, a_id: int | None, b_id: int | None, cut: int, rank: int, source: str
) -> FormatError:
    where = f"{source}, model.merges[{rank}]"
    if a_id is None or b_id is None:
        missing = a if a_id is None else b
        return FormatError(f"{where}: {shown(missing)} is not in model.vocab")
    return FormatError(
        f"{where}: {shown(a)} + {shown(b)} makes {shown(a + b[cut:])}, which is not in model.vocab"
    )
