"""Vocabulary with a real model: kinds counted, a page of rows searched and sorted on the
server (never the whole 262k ids), every pair that makes a token, and the check-up."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest
from tokenizers import Tokenizer as HfTokenizer

from explorer.models.vocab_index import PAGE_ROWS
from tests.app.models.model_runs import MODELS, open_with_model
from tests.app_support import plain, texts_of
from tests.conftest import shared_path
from ui.session import state as keys


def _metric(app: AppTest, label: str) -> int:
    value = next(m for m in app.metric if m.label == label).value
    return int(str(value).replace(",", ""))


def _reference(folder: str) -> HfTokenizer:
    path = shared_path("reference", "open-weight", folder, "tokenizer.json")
    return HfTokenizer.from_file(str(path))


def _ok(app: AppTest) -> AppTest:
    assert not app.exception, app.exception
    assert not texts_of(app.error), texts_of(app.error)
    return app


@pytest.fixture(scope="module")
def gemma() -> AppTest:
    return _ok(open_with_model("gemma3", "vocabulary"))


def test_the_kinds_add_up_to_the_reference_s_vocabulary(gemma: AppTest) -> None:
    kinds = ["Special or added token", "Base symbol", "Byte fallback", "Made by merges"]
    total = sum(_metric(gemma, label) for label in [*kinds, "No merge makes it"])
    assert total == _reference("gemma3").get_vocab_size(with_added_tokens=True)
    assert _metric(gemma, "Byte fallback") == 256  # <0x00> … <0xFF>
    assert _metric(gemma, "Base symbol") > 1_000  # single characters of a SentencePiece model


def test_only_a_page_of_rows_reaches_the_browser(gemma: AppTest) -> None:
    (table,) = [frame.value for frame in gemma.dataframe][:1]
    assert len(table) == PAGE_ROWS  # of 262,145 ids
    gemma.text_input(key=keys.VOCAB_MODEL_QUERY).input("▁token").run()
    _ok(gemma)
    frame = gemma.dataframe[0].value
    vocab = _reference("gemma3").get_vocab()
    matching = [token for token in vocab if "▁token" in token]
    assert f"{len(matching):,} tokens match" in " ".join(texts_of(gemma.caption))
    assert set(frame["Token"]) <= set(matching) and len(frame) == min(PAGE_ROWS, len(matching))
    gemma.selectbox(key=keys.VOCAB_MODEL_SORT).select("length, longest first").run()
    _ok(gemma)
    lengths = list(gemma.dataframe[0].value["Bytes"])
    assert lengths == sorted(lengths, reverse=True)


def test_the_lineage_gives_every_pair_that_makes_a_token(gemma: AppTest) -> None:
    reference = _reference("gemma3")
    token_id = reference.token_to_id("▁tokenizer")
    gemma.number_input(key=keys.VOCAB_MODEL_TOKEN).set_value(token_id).run()
    _ok(gemma)
    merges = json.loads(
        shared_path("reference", "open-weight", "gemma3", "tokenizer.json").read_text("utf-8")
    )["model"]["merges"]
    pairs = [pair if isinstance(pair, list) else pair.split(" ") for pair in merges]
    making = [(rank, a, b) for rank, (a, b) in enumerate(pairs) if a + b == "▁tokenizer"]
    frame = gemma.dataframe[1].value
    assert list(zip(frame["Merge rank"], frame["Left"], frame["Right"], strict=True)) == making
    markdown = plain(" ".join(str(m.value) for m in gemma.markdown))
    assert f"id {token_id:,} · '▁tokenizer' · made by {len(making)} merges" in markdown


@pytest.mark.parametrize("key", [key for key in MODELS if key != "gemma3"])
def test_other_models_open_with_their_own_ids(key: str) -> None:
    app = _ok(open_with_model(key, "vocabulary"))
    kinds = ["Special or added token", "Base symbol", "Byte fallback", "Made by merges"]
    total = sum(_metric(app, label) for label in [*kinds, "No merge makes it"])
    folder, file_name, _ = MODELS[key]
    if file_name == "tokenizer.json":
        assert total == _reference(folder).get_vocab_size(with_added_tokens=True)
        if key != "llama2":  # byte-level: the 256 bytes
            assert _metric(app, "Base symbol") == 256
    elif key == "llama3_ranks":  # 128,000 ranks and the 256 specials of its package's code
        assert total == 128_256 and _metric(app, "Special or added token") == 256
    else:  # tekken: mistral-common's own count, its 1,000 special ids included
        tekken = pytest.importorskip("mistral_common.tokens.tokenizers.tekken")
        reference = tekken.Tekkenizer.from_file(
            str(shared_path("reference", "open-weight", folder, file_name))
        )
        assert total == reference.n_words
    assert len(app.dataframe[0].value) == PAGE_ROWS


def test_the_check_up_runs_on_a_model() -> None:
    app = _ok(open_with_model("llama2", "vocabulary"))
    app.toggle(key=keys.VOCAB_MODEL_CHECKUP).set_value(True).run(timeout=900)
    _ok(app)
    assert _metric(app, "Special") == 3  # <unk>, <s>, </s>
    assert any(m.label == "Unreachable" for m in app.metric)


def test_the_check_up_works_at_262k_ids(gemma: AppTest) -> None:
    gemma.toggle(key=keys.VOCAB_MODEL_CHECKUP).set_value(True).run(timeout=1200)
    _ok(gemma)
    assert _metric(gemma, "Special") == _metric(gemma, "Special or added token")
    table = gemma.dataframe[-1].value
    assert 0 < len(table) <= 500  # one kind's rows, cut for the browser
