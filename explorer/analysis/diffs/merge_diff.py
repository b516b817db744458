"""Two tokenizers' merge lists compared by the bytes each merge produces.

Two tokenizers number their ids differently (GPT-2 even numbers the single bytes in
another order), so a merge is known by the token it makes: its bytes. Merges are
numbered from 1, as everywhere for people: merge k makes id 255 + k.

    >>> diff = merge_diff([b"th", b"the", b"in"], [b"in", b"th", b"er"])
    >>> [(m.token, m.merge_a, m.merge_b) for m in diff.shared]
    [(b'th', 1, 2), (b'in', 3, 1)]
    >>> [m.token for m in diff.only_a], [m.token for m in diff.only_b], diff.first_divergence
    ([b'the'], [b'er'], 1)
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from explorer.encoding.tokenizer import Tokenizer


class SharedMerge(NamedTuple):  # not a frozen dataclass: far cheaper by the 100,000
    """A token both tokenizers learned, with its merge number in each (from 1)."""

    token: bytes
    merge_a: int
    merge_b: int


class LoneMerge(NamedTuple):
    """A token only one tokenizer learned, with its merge number there (from 1)."""

    token: bytes
    merge: int


@dataclass(frozen=True)
class MergeDiff:
    """What two merge lists share and what each has alone.

    `shared` is in A's order, `only_a` and `only_b` in their own. `first_divergence` is
    the first merge number at which the lists make different tokens (or one list ends
    and the other goes on); None when they are the same list.
    """

    shared: tuple[SharedMerge, ...]
    only_a: tuple[LoneMerge, ...]
    only_b: tuple[LoneMerge, ...]
    first_divergence: int | None

    @property
    def merges_a(self) -> int:
        """How many merges A has: `shared + only_a`."""
        return len(self.shared) + len(self.only_a)

    @property
    def merges_b(self) -> int:
        """How many merges B has: `shared + only_b`."""
        return len(self.shared) + len(self.only_b)


def merge_tokens(tokenizer: Tokenizer, vocab_size: int | None = None) -> list[bytes]:
    """The bytes each merge makes, in merge order, for the first `vocab_size - 256` merges.

    >>> merge_tokens(Tokenizer([(104, 105), (256, 33)]))
    [b'hi', b'hi!']
    """
    count = len(tokenizer.merges) if vocab_size is None else max(0, vocab_size - 256)
    count = min(count, len(tokenizer.merges))
    return [tokenizer.vocab[256 + rank] for rank in range(count)]


def merge_diff(a: Sequence[bytes], b: Sequence[bytes]) -> MergeDiff:
    """Compare two merge lists (each merge's token bytes, in merge order).

    One list may make the same bytes twice ("ab"+"c" and "a"+"bc" both make "abc"), so
    tokens are matched as multisets: A's second "abc" pairs with B's second, and
    shared + only_a is always A's length, shared + only_b B's.

    >>> diff = merge_diff([b"abc", b"abc"], [b"abc"])
    >>> len(diff.shared), [m.merge for m in diff.only_a], diff.first_divergence
    (1, [2], 2)
    """
    first_in_b: dict[bytes, int] = {}
    later_in_b: dict[bytes, deque[int]] = defaultdict(deque)  # repeats: rare, kept apart
    for number, token in enumerate(b, start=1):
        if token in first_in_b:
            later_in_b[token].append(number)
        else:
            first_in_b[token] = number
    shared: list[SharedMerge] = []
    only_a: list[LoneMerge] = []
    for number, token in enumerate(a, start=1):
        place = first_in_b.pop(token, None)
        if place is None and later_in_b.get(token):
            place = later_in_b[token].popleft()
        if place is None:
            only_a.append(LoneMerge(token, number))
        else:
            shared.append(SharedMerge(token, number, place))
    taken = {m.merge_b for m in shared}
    only_b = [LoneMerge(token, n) for n, token in enumerate(b, start=1) if n not in taken]
    return MergeDiff(tuple(shared), tuple(only_a), tuple(only_b), first_divergence(a, b))


def first_divergence(a: Sequence[bytes], b: Sequence[bytes]) -> int | None:
    """The first merge number where two lists differ; None when they are equal.

    >>> first_divergence([b"th", b"he"], [b"th", b"in"]), first_divergence([b"th"], [b"th"])
    (2, None)
    >>> first_divergence([b"th"], [b"th", b"he"])  # B goes on where A stops
    2
    """
    for number, (left, right) in enumerate(zip(a, b), start=1):
        if left != right:
            return number
    return None if len(a) == len(b) else min(len(a), len(b)) + 1
