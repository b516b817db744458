"""Animate with a real model: the passage's encoding replayed merge by merge, the step, the
rank and the id named apart, and the last step's ids the reference library's."""

from __future__ import annotations

import re

import pytest

from tests.app.models.model_runs import MODELS, open_with_model, reference_ids
from tests.app_support import texts_of
from ui.session import state as keys

PASSAGE = "The tokenizer's café, naïve and 東京: zqxjkvbwpf."


@pytest.mark.parametrize("key", list(MODELS))
def test_the_passage_is_replayed_to_the_model_s_own_ids(key: str) -> None:
    app = open_with_model(key, "animate")
    app.text_area(key=keys.ANIMATE_PASSAGE).input(PASSAGE).run()
    assert not app.exception, app.exception
    slider = app.slider(key=keys.ANIMATE_MODEL_STEP)
    last = slider.max
    assert last > 0
    slider.set_value(1).run()
    narration = " ".join(str(h.proto.body) for h in app.get("html"))
    assert re.search(r"Step 1 of [\d,]+: merge rank [\d,]+: .* makes id [\d,]+", narration)
    app.slider(key=keys.ANIMATE_MODEL_STEP).set_value(last).run()
    assert not app.exception, app.exception
    expected = reference_ids(key, PASSAGE)
    captions = " ".join(texts_of(app.caption))
    assert f"After the last step: {len(expected):,} tokens, the model's own ids" in captions
