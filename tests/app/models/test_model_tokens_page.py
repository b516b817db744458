"""Tokens with each open-weight model: the counts are the reference library's, the
normalised text is shown beside the original, `▁` and byte-fallback tokens are drawn as
what they are, and each card gives the id and, apart, every pair that makes the token."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.models.model_runs import MODELS, open_with_model, reference_ids
from tests.app_support import texts_of
from ui.session import state as keys

TEXT = "cafe\u0301 naïve 東京 tokenizers 12345 ok\n  done 🙂"
NFC_TEXT = "cafe\u0301 and café"
GEMMA_MISSING = "\u3a00"  # a CJK Extension A character Gemma 3 has no token for: byte fallback


def _metric(app: AppTest, label: str) -> int:
    value = next(m for m in app.metric if m.label == label).value
    return int(str(value).replace(",", ""))


def _tokens_of(app: AppTest, text: str) -> AppTest:
    app.text_area(key=keys.TOKENS_TEXT).input(text).run()
    assert not app.exception, app.exception
    assert not texts_of(app.error), texts_of(app.error)
    return app


@pytest.mark.parametrize("key", list(MODELS))
def test_every_model_s_count_and_ids_are_the_reference_s(key: str) -> None:
    app = _tokens_of(open_with_model(key, "tokens"), TEXT)
    expected = reference_ids(key, TEXT)
    assert _metric(app, "Tokens") == len(expected)
    (ids,) = [code.value for code in app.code if re.fullmatch(r"[\d ]+", str(code.value))]
    assert [int(i) for i in str(ids).split()] == expected
    captions = " ".join(texts_of(app.caption))
    assert "a token's **id** is the model's own" in captions  # the numbering, said plainly


def test_qwen3_shows_the_normalised_text_beside_the_original() -> None:
    app = _tokens_of(open_with_model("qwen3", "tokens"), NFC_TEXT)
    captions = " ".join(texts_of(app.caption))
    assert "normalizer (NFC) changed the text" in captions
    assert "U+0065 U+0301 → U+00E9" in captions
    shown = [str(code.value) for code in app.code]
    assert NFC_TEXT in shown and "caf\u00e9 and café" in shown
    assert _metric(app, "Tokens") == len(reference_ids("qwen3", NFC_TEXT))


def test_gemma3_draws_the_space_mark_and_byte_fallback_as_what_they_are() -> None:
    text = f"the {GEMMA_MISSING} end"
    app = _tokens_of(open_with_model("gemma3", "tokens"), text)
    expected = reference_ids("gemma3", text)
    assert _metric(app, "Tokens") == len(expected)
    page = app.get("html")[0].proto.body
    assert "▁end" in page  # the space mark, as the file writes it
    assert '<span class="bf"' in page and "&lt;0xE3&gt;" in page  # byte fallback, marked
    assert "byte fallback: the byte 0xE3" in page  # its card says what it is


def test_a_card_gives_the_id_and_every_pair_that_makes_the_token() -> None:
    app = _tokens_of(open_with_model("llama3_ranks", "tokens"), " tokenizers")
    page = app.get("html")[0].proto.body
    cards = re.findall(r'title="([^"]*)"', page)
    merged = [card for card in cards if "made by" in card]
    assert merged, cards
    # a rank file: every split of the token into two tokens is a merge that makes it
    assert any(re.search(r"made by \d+ merges: rank [\d,]+: .*; rank [\d,]+: ", c) for c in merged)
    assert all(card.startswith("id ") for card in cards)


@pytest.mark.parametrize("key", ["qwen3", "gemma3"])
def test_encode_step_by_step_follows_the_ranks_to_the_model_s_ids(key: str) -> None:
    text = "The tokenizers of zqxjkvbwpf"
    app = _tokens_of(open_with_model(key, "tokens"), text)
    app.session_state[keys.TOKENS_MODEL_STEPS_OPEN] = True
    app.run()
    assert not app.exception, app.exception
    word = app.text_input(key=keys.TOKENS_MODEL_STEPS_TEXT).value
    assert word in text.split()  # the page text's word (as typed) that takes the most merges
    slider = app.slider(key=keys.TOKENS_MODEL_STEP)
    slider.set_value(1).run()
    captions = " ".join(texts_of(app.caption))
    assert "(fuses)" in captions and "Pairs that have a merge" in captions
    app.slider(key=keys.TOKENS_MODEL_STEP).set_value(slider.max).run()
    expected = reference_ids(key, word)
    assert f"After the last step: {len(expected)} tokens, the ids the model's own" in " ".join(
        texts_of(app.caption)
    )
