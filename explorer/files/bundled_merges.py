"""The merges of the bundled rank files, rebuilt once and shipped beside them.

A `.tiktoken` file lists tokens and ranks, not merges: `explorer.files.imports` rebuilds
each token's two parts by running BPE on its bytes with the lower ranks, ~2 s of CPU for
cl100k_base and ~4 s for o200k_base on every load. The result never changes for a file
whose sha256 is fixed, so `python -m scripts.bundle_merges` writes it once, as
text, to `vocabularies/<name>.merges`, and `explorer.files.bundled` reads it instead: the
file's own sha256 is pinned beside the rank file's, and every merge is checked to make
the rank file's token at its rank (`check_merges_make`), so a wrong file cannot load.
tests/engine/files/test_bundled_merges.py rebuilds them the slow way and compares.

The format: a first line naming the rank file and its sha256, then one merge a line,
"LEFT RIGHT", merge k on line k + 1 making rank 255 + k.

    >>> text = merges_text([(97, 97), (256, 98)], "x.tiktoken", "ab12")
    >>> print(text, end="")
    bpe-explorer merges of x.tiktoken sha256 ab12
    97 97
    256 98
    >>> read_merges(text.encode(), "x.merges")
    [(97, 97), (256, 98)]
"""

from __future__ import annotations

import re
from binascii import a2b_base64
from collections.abc import Sequence

from explorer.files.errors import FormatError

HEADER = "bpe-explorer merges of"
_MERGE_LINES = re.compile(rb"(?:[0-9]+ [0-9]+\n)*")


def merges_text(merges: Sequence[tuple[int, int]], rank_file: str, sha256: str) -> str:
    """The merges as the shipped file holds them (see the module docstring)."""
    lines = [f"{HEADER} {rank_file} sha256 {sha256}", *(f"{a} {b}" for a, b in merges)]
    return "\n".join(lines) + "\n"


def read_merges(data: bytes, source: str) -> list[tuple[int, int]]:
    """The merges of a shipped merges file; a FormatError names a line that is not two ids.

    >>> read_merges(b"bpe-explorer merges of x sha256 0\\n97 x\\n", "x.merges")
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: x.merges, line 2: expected 'LEFT RIGHT', got '97 x'
    """
    head, _, body = data.partition(b"\n")
    if not head.startswith(HEADER.encode("ascii")):
        raise FormatError(f"{source}: the first line should start {HEADER!r}")
    if _MERGE_LINES.fullmatch(body):
        ids = list(map(int, body.split()))
        return list(zip(ids[::2], ids[1::2], strict=True))
    for number, line in enumerate(body.decode("ascii", "replace").splitlines(), start=2):
        left, _, right = line.partition(" ")
        if not (left.isdigit() and right.isdigit()):
            raise FormatError(f"{source}, line {number}: expected 'LEFT RIGHT', got {line!r}")
    raise FormatError(f"{source}: every line after the first should be 'LEFT RIGHT'")


def rank_tokens(data: bytes, source: str) -> list[bytes]:
    """The tokens of a rank file already checked by its sha256, in rank order: the quick
    reading tiktoken's `load_tiktoken_bpe` does, the ranks still checked to run 0, 1, 2, ...

    >>> rank_tokens(b"YQ== 0\\nYWE= 1\\n", "x.tiktoken")
    [b'a', b'aa']
    """
    rows = [line.split() for line in data.splitlines() if line]
    ranks = [int(rank) for _, rank in rows]
    if ranks != list(range(len(rows))):
        due = next(due for due, rank in enumerate(ranks) if rank != due)
        raise FormatError(f"{source}: rank {ranks[due]} where rank {due} was due")
    return [a2b_base64(token) for token, _ in rows]


def check_merges_make(
    vocab: dict[int, bytes], tokens: Sequence[bytes], merges_source: str, rank_source: str
) -> None:
    """That the vocabulary the merges build holds, at every rank, the rank file's token.

    >>> check_merges_make({0: b"a", 1: b"ab"}, [b"a", b"ba"], "x.merges", "x.tiktoken")
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: x.merges makes b'ab' at rank 1, where x.tiktoken has b'ba'
    """
    if len(vocab) != len(tokens):
        raise FormatError(
            f"{merges_source} makes {len(vocab):,} tokens, {rank_source} has {len(tokens):,}"
        )
    for rank, token in enumerate(tokens):
        if vocab[rank] != token:
            raise FormatError(
                f"{merges_source} makes {vocab[rank]!r} at rank {rank}, "
                f"where {rank_source} has {token!r}"
            )
