"""Find the period of a repeating chunk, so its encoding can be one period's, repeated.

A chunk such as `"ก" * 100_000` is one pre-token whose UTF-8 bytes are cut between every
character (GPT-2 has no token with the last byte of a Thai letter before the first of the
next): a hundred thousand parts, each a cached lookup, cost three times tiktoken's whole
encode. But the cuts of a chunk with period p repeat with period p too (a cut depends
only on the two bytes around it), so the parts between the first cut and the last full
period are the same few parts over and over: encoded once, the period's ids are
multiplied as a list, in C.

The search is bounded: only periods up to `MOST` bytes, found by where the chunk's first
bytes recur and confirmed by one comparison of the chunk with itself shifted (memcmp).

    >>> shortest_period("ก".encode() * 1000), shortest_period(b"abcab" * 30 + b"ab")
    (3, 5)
    >>> shortest_period(b"abcdefghij" * 3 + b"x") is None
    True
"""

from __future__ import annotations

MOST = 256  # bytes: longer periods are left to the ordinary way
PROBE = 16  # bytes of the chunk's start looked for again (at most half of it)
TRIES = 4  # places where the probe recurs that are checked, each one comparison of the chunk


def shortest_period(data: bytes, most: int = MOST) -> int | None:
    """The smallest p <= `most` with data[i] == data[i + p] for every i, if the chunk has
    at least two whole periods; else None (also when the first TRIES places where its
    first bytes recur are not periods: then the chunk is encoded the ordinary way).

    subtle: the first place the chunk's first bytes recur need not be a period (b"abab"
    recurs at 2 in b"ababcabab..."), so later places are tried, up to TRIES: a chunk that
    repeats until its very end costs a comparison of its whole length per try.

    >>> shortest_period(b"ab" * 10), shortest_period(b"abab" + b"c" + b"ababc" * 4)
    (2, 5)
    >>> [shortest_period(data) for data in (b"x" * 100, b"xx", b"xy", b"")]
    [1, 1, None, None]
    """
    probe = data[: min(PROBE, len(data) // 2)]  # subtle: shorter, or it could not recur
    limit = min(most, len(data) // 2) + len(probe)
    start = data.find(probe, 1, limit) if probe else -1
    for _ in range(TRIES):
        if start == -1:
            return None
        if data[start:] == data[:-start]:
            return start
        start = data.find(probe, start + 1, limit)
    return None
