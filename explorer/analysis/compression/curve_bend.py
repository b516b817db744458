"""Where a compression curve bends: the vocab size past which doubling the vocabulary
gains less than 5 % bytes per token.

A curve is bytes per token at every vocab size, index k for vocab size 256 + k (one
encode gives them all: `explorer.analysis.compression.stats.tokens_at_every_size`). The gain of
doubling from size N is `ratio(2N) / ratio(N) - 1`. The bend is the smallest size N such that
doubling from N, and from every larger size the curve can still double (up to half its
last size), gains less than the threshold. "Every larger size" matters: a curve can
pause and then climb again, and one flat stretch is not the point of diminishing returns.

Worked example: 1.0 bytes per token at 256, 2.0 at 512, 3.0 at 1,024 and 3.1 at 2,048
(straight lines between). Doubling 512 -> 1,024 gains 50 %, 1,024 -> 2,048 gains 3 %,
so returns diminish near 1,000: from 997 (2.947 bytes per token) to 1,994 (3.095) a
doubling still gains 5.003 %, and from 998 on, every doubling gains less than 5 %.

    >>> curve = piecewise([(256, 1.0), (512, 2.0), (1024, 3.0), (2048, 3.1)])
    >>> bend = find_bend(curve)
    >>> bend.kind, bend.size, round(bend.gain_at_size, 3)
    (<BendKind.BEND: 'bend'>, 998, 0.049)

Curves that cannot say: shorter than 512 (no doubling fits), flat (no merge shortens
the text), empty, or still gaining at their last doubling (`BendKind.STILL_GAINING`:
a run that stopped early, or one that could grow further).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

THRESHOLD = 0.05  # "less than 5 % more bytes per token for twice the vocabulary"
FIRST_SIZE = 256  # index 0 of a curve: the bytes alone


class BendKind(str, Enum):
    """What a curve says about diminishing returns."""

    BEND = "bend"  # every doubling from `size` on gains less than the threshold
    STILL_GAINING = "still_gaining"  # the last doubling the curve holds gains more
    TOO_SHORT = "too_short"  # the curve ends before 512: no doubling fits
    FLAT = "flat"  # no merge changes this text's length
    EMPTY = "empty"  # no bytes at all

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Bend:
    """The answer for one curve.

    `size` is the bend (BEND) or the last size a doubling could start from
    (STILL_GAINING); `gain_at_size` is the gain of doubling from `size`; `last_size`
    is the curve's largest vocab size. For TOO_SHORT, FLAT and EMPTY, size is None.
    """

    kind: BendKind
    size: int | None
    gain_at_size: float
    last_size: int
    threshold: float = THRESHOLD


def find_bend(ratios: Sequence[float], threshold: float = THRESHOLD) -> Bend:
    """The bend of a curve of bytes per token (index k: vocab size 256 + k); see the module.

    >>> find_bend([1.0] * 600).kind, find_bend([1.0, 2.0]).kind, find_bend([]).kind
    (<BendKind.FLAT: 'flat'>, <BendKind.TOO_SHORT: 'too_short'>, <BendKind.EMPTY: 'empty'>)
    >>> still = find_bend([1 + k / 100 for k in range(400)])  # climbs to its end, 655
    >>> still.kind, still.size, round(still.gain_at_size, 2)
    (<BendKind.STILL_GAINING: 'still_gaining'>, 327, 1.91)
    """
    if threshold <= 0:
        raise ValueError(f"threshold must be a positive gain such as 0.05 (got {threshold})")
    last_size = FIRST_SIZE + len(ratios) - 1
    if not ratios or ratios[0] <= 0:
        return Bend(BendKind.EMPTY, None, 0.0, max(last_size, FIRST_SIZE), threshold)
    if max(ratios) <= ratios[0]:
        return Bend(BendKind.FLAT, None, 0.0, last_size, threshold)
    last_start = last_size // 2  # the largest size whose double is still on the curve
    if last_start < FIRST_SIZE:
        return Bend(BendKind.TOO_SHORT, None, 0.0, last_size, threshold)
    bend = FIRST_SIZE
    for size in range(last_start, FIRST_SIZE - 1, -1):
        if doubling_gain(ratios, size) >= threshold:
            bend = size + 1
            break
    if bend > last_start:
        gain = doubling_gain(ratios, last_start)
        return Bend(BendKind.STILL_GAINING, last_start, gain, last_size, threshold)
    return Bend(BendKind.BEND, bend, doubling_gain(ratios, bend), last_size, threshold)


def doubling_gain(ratios: Sequence[float], size: int) -> float:
    """How much more bytes per token twice the vocab size gives: 0.5 for 2.0 -> 3.0.

    >>> doubling_gain(piecewise([(256, 1.0), (512, 2.0)]), 256)
    1.0
    """
    here = ratios[size - FIRST_SIZE]
    there = ratios[2 * size - FIRST_SIZE]
    return there / here - 1 if here > 0 else 0.0


def ratios_from_counts(counts: Sequence[int]) -> list[float]:
    """Bytes per token from token counts at every size (counts[0] is the length in bytes).

    >>> ratios_from_counts([11, 9, 7, 5])[-1], ratios_from_counts([0, 0])
    (2.2, [0.0, 0.0])
    """
    if not counts:
        return []
    size = counts[0]
    return [size / tokens if tokens else 0.0 for tokens in counts]


def piecewise(points: Sequence[tuple[int, float]]) -> list[float]:
    """A curve through (vocab size, bytes per token) points, straight between them.

    For examples and tests: `piecewise([(256, 1.0), (258, 2.0)]) == [1.0, 1.5, 2.0]`.
    """
    curve: list[float] = []
    for (left, low), (right, high) in zip(points, points[1:]):
        steps = right - left
        curve.extend(low + (high - low) * i / steps for i in range(steps))
    if points:
        curve.append(points[-1][1])
    return curve
