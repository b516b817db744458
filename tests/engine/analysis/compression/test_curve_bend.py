"""Where the compression curve bends: the definition, its edge cases, and real curves."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.analysis.compression.curve_bend import (
    Bend,
    BendKind,
    doubling_gain,
    find_bend,
    piecewise,
    ratios_from_counts,
)
from explorer.analysis.compression.stats import tokens_at_every_size
from explorer.training.train import train


def test_the_worked_example_bends_just_before_1000() -> None:
    curve = piecewise([(256, 1.0), (512, 2.0), (1024, 3.0), (2048, 3.1)])
    bend = find_bend(curve)
    assert bend == Bend(BendKind.BEND, 998, doubling_gain(curve, 998), 2048)
    assert doubling_gain(curve, 997) >= 0.05 > doubling_gain(curve, 998)


def test_a_pause_before_more_gains_is_not_the_bend() -> None:
    # flat from 256 to 600, then a steep climb: doubling 256 gains nothing, yet later
    # doublings gain a lot, so the bend is after the climb, not at 256
    curve = piecewise([(256, 1.0), (600, 1.0), (1200, 3.0), (4000, 3.05)])
    bend = find_bend(curve)
    assert doubling_gain(curve, 256) == 0.0
    assert bend.kind is BendKind.BEND and bend.size is not None and bend.size > 600
    assert all(doubling_gain(curve, n) < 0.05 for n in range(bend.size, 2001))
    assert doubling_gain(curve, bend.size - 1) >= 0.05


def test_a_curve_still_climbing_at_its_end_has_no_bend() -> None:
    curve = piecewise([(256, 1.0), (3000, 4.0)])
    bend = find_bend(curve)
    assert bend.kind is BendKind.STILL_GAINING
    assert bend.size == 1500 and bend.last_size == 3000
    assert (
        bend.gain_at_size == pytest.approx(doubling_gain(curve, 1500)) and bend.gain_at_size > 0.05
    )


@pytest.mark.parametrize(
    ("ratios", "kind"),
    [
        ([], BendKind.EMPTY),
        ([0.0] * 700, BendKind.EMPTY),  # an empty text: no bytes
        ([1.0] * 700, BendKind.FLAT),  # no merge applies to this text
        ([1.0, 1.5, 2.0], BendKind.TOO_SHORT),  # ends at 258: no doubling fits
        (piecewise([(256, 1.0), (511, 3.0)]), BendKind.TOO_SHORT),
    ],
)
def test_curves_that_cannot_say(ratios: list[float], kind: BendKind) -> None:
    bend = find_bend(ratios)
    assert bend.kind is kind and bend.size is None


def test_the_first_doubling_needs_512() -> None:
    assert find_bend(piecewise([(256, 1.0), (512, 1.01)])).size == 256
    assert find_bend(piecewise([(256, 1.0), (512, 2.0)])).kind is BendKind.STILL_GAINING


def test_the_threshold_is_checked() -> None:
    with pytest.raises(ValueError, match="positive"):
        find_bend([1.0] * 600, threshold=0)


@given(
    st.lists(
        st.tuples(st.integers(1, 400), st.floats(min_value=0.0, max_value=2.0)),
        min_size=1,
        max_size=8,
    ),
    st.floats(min_value=0.01, max_value=0.2),
)
def test_the_bend_is_where_every_later_doubling_gains_less(
    segments: list[tuple[int, float]], threshold: float
) -> None:
    points = [(256, 1.0)]
    for width, rise in segments:  # bytes per token never falls as merges are added
        points.append((points[-1][0] + width, points[-1][1] + rise))
    ratios = piecewise(points)
    bend = find_bend(ratios, threshold)
    last_start = (255 + len(ratios)) // 2
    if bend.kind is BendKind.FLAT:
        assert ratios[-1] == ratios[0]
        return
    if bend.kind is BendKind.TOO_SHORT:
        assert last_start < 256
        return
    gains = {n: doubling_gain(ratios, n) for n in range(256, last_start + 1)}
    if bend.kind is BendKind.STILL_GAINING:
        assert bend.size == last_start and gains[last_start] >= threshold
        return
    assert bend.kind is BendKind.BEND and bend.size is not None
    assert all(gains[n] < threshold for n in range(bend.size, last_start + 1))
    assert bend.size == 256 or gains[bend.size - 1] >= threshold


def test_a_real_training_curve_bends(sample_text: str) -> None:
    result = train(sample_text[:60_000], 3000, pattern="gpt4")
    counts = tokens_at_every_size(result.tokenizer, sample_text[:60_000])
    bend = find_bend(ratios_from_counts(counts))
    assert bend.kind in (BendKind.BEND, BendKind.STILL_GAINING)
    assert bend.size is not None and 256 <= bend.size <= 1500
