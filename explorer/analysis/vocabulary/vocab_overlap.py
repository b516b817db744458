"""How much of one vocabulary another already has, compared by the bytes each token spells.

Only merged tokens count: the 256 single bytes are in every byte-level vocabulary, and
special tokens are text markers, not learned bytes. Two merges that spell the same bytes
count once. Ids do not matter, only bytes (GPT-2 numbers its single bytes differently):

    >>> from explorer.encoding.tokenizer import Tokenizer
    >>> yours = Tokenizer([(104, 105), (256, 33), (111, 107)])  # hi, hi!, ok
    >>> theirs = vocabulary_bytes(Tokenizer([(104, 105)]))  # hi
    >>> overlap = vocabulary_overlap(yours, theirs, "theirs", top=2)
    >>> overlap.shared, overlap.considered, overlap.share
    (1, 3, 0.3333333333333333)
    >>> [(t.token_id, t.data) for t in overlap.largest_missing]
    [(257, b'hi!'), (258, b'ok')]
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from explorer.encoding.tokenizer import Tokenizer

TOP_MISSING = 10


@dataclass(frozen=True)
class MissingToken:
    """One of your tokens the other vocabulary lacks: its id (merge id - 255) and bytes."""

    token_id: int
    data: bytes

    @property
    def merge(self) -> int:
        """The merge that made it, numbered from 1: id 256 is merge 1."""
        return self.token_id - 255


@dataclass(frozen=True)
class VocabOverlap:
    """Your merged tokens (distinct byte strings) that another vocabulary has, and lacks."""

    name: str
    considered: int
    shared: int
    largest_missing: tuple[MissingToken, ...]

    @property
    def missing(self) -> int:
        return self.considered - self.shared

    @property
    def share(self) -> float:
        """The share of your merged tokens the other has; 0.0 when you have none."""
        return self.shared / self.considered if self.considered else 0.0


def merged_tokens(tokenizer: Tokenizer) -> dict[bytes, int]:
    """Each distinct byte string a merge spells, with the first id that spells it.

    >>> merged_tokens(Tokenizer([(97, 98), (256, 99), (97, 98)]))
    {b'ab': 256, b'abc': 257}
    """
    tokens: dict[bytes, int] = {}
    for token_id in range(256, tokenizer.vocab_size):
        tokens.setdefault(tokenizer.vocab[token_id], token_id)
    return tokens


def vocabulary_bytes(tokenizer: Tokenizer) -> frozenset[bytes]:
    """Every byte string a vocabulary can produce as one token (special tokens aside)."""
    return frozenset(tokenizer.vocab.values())


def vocabulary_overlap(
    yours: Tokenizer, theirs: Collection[bytes], name: str, *, top: int = TOP_MISSING
) -> VocabOverlap:
    """How many of `yours`' merged tokens are in `theirs` (bytes), and the `top` longest
    that are not: longest first, ties by the earlier merge."""
    if top < 0:
        raise ValueError(f"top is how many missing tokens to list, 0 or more (got {top})")
    tokens = merged_tokens(yours)
    missing = [(data, token_id) for data, token_id in tokens.items() if data not in theirs]
    missing.sort(key=lambda item: (-len(item[0]), item[1]))
    return VocabOverlap(
        name=name,
        considered=len(tokens),
        shared=len(tokens) - len(missing),
        largest_missing=tuple(MissingToken(token_id, data) for data, token_id in missing[:top]),
    )
