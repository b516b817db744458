"""Where a model's normalizer changed a text: each changed stretch, before and after.

A normalizer that changes the text is shown, never silently applied (issue 34): NFC turns
`e` + U+0301 into `é`, which looks the same on screen, so a page names the code points.

    >>> [(c.before, c.after) for c in changes("cafe\\u0301 ok", "caf\\u00e9 ok")]
    [('e\\u0301', 'é')]
    >>> code_points("e\\u0301")
    'U+0065 U+0301'
    >>> changes("same", "same")
    []
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_CHANGES = 20  # stretches a page lists; the count says how many there are
WINDOW = 8  # characters a change may span on either side before the two texts agree again


@dataclass(frozen=True)
class Change:
    """One changed stretch: `before` at `start` in the original became `after`."""

    start: int
    before: str
    after: str


def changes(original: str, normalized: str) -> list[Change]:
    """The stretches that differ, in order (an insertion has `before == ""`).

    subtle: a linear walk, not difflib (quadratic: 40 s for 2,000 characters here): at
    each difference the shortest stretches after which the texts agree again. A
    normalizer changes text locally (NFC, Replace, Prepend), so this finds
    what it did; past WINDOW characters without agreement, the rest is one change.

    >>> [(c.start, c.before, c.after) for c in changes("a b", "\u2581a\u2581b")]
    [(0, '', '▁'), (1, ' ', '▁')]
    """
    found: list[Change] = []
    i = j = 0
    n, m = len(original), len(normalized)
    while i < n or j < m:
        if i < n and j < m and original[i] == normalized[j]:
            i, j = i + 1, j + 1
            continue
        skip = _resync(original, normalized, i, j)
        if skip is None:
            found.append(Change(i, original[i:], normalized[j:]))
            break
        found.append(Change(i, original[i : i + skip[0]], normalized[j : j + skip[1]]))
        i, j = i + skip[0], j + skip[1]
    return found


def _resync(original: str, normalized: str, i: int, j: int) -> tuple[int, int] | None:
    """The shortest (a, b) after which the texts agree again (or both end), or None."""
    n, m = len(original), len(normalized)
    for total in range(1, 2 * WINDOW + 1):
        for a in range(max(0, total - WINDOW), min(total, WINDOW) + 1):
            b = total - a
            if i + a > n or j + b > m:
                continue
            ends = i + a == n and j + b == m
            if ends or (i + a < n and j + b < m and original[i + a] == normalized[j + b]):
                return a, b
    return None


def code_points(text: str, limit: int = 8) -> str:
    """A short text's code points, `U+0065 U+0301` (past `limit`, an ellipsis)."""
    shown = " ".join(f"U+{ord(char):04X}" for char in text[:limit])
    return shown + (" …" if len(text) > limit else "")
