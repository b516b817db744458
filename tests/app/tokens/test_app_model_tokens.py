"""Tokens for a real model's run: the model's exact ids, its normalizer said, specials dark.

Qwen 3's tokenizer.json and tokenizer_config.json (../shared/reference/open-weight/, skipped
without it) are uploaded through the Train page's loader as a person does; Tokens then
encodes with the model's own library (`tokenizers`, add_special_tokens=False).
"""

from __future__ import annotations

import re
from uuid import uuid4

import pytest
from streamlit.testing.v1 import AppTest
from tokenizers import Tokenizer as HfTokenizer

from tests.app_support import open_app, texts_of
from tests.conftest import shared_path
from ui.session import state as keys

TEXT = "cafe\u0301 and café <|im_start|>user"  # NFC composes e + U+0301; a special token


@pytest.fixture(scope="module")
def qwen() -> AppTest:
    folder = shared_path("reference", "open-weight", "qwen3")
    app = open_app("train")
    files = [
        (name, (folder / name).read_bytes()) for name in ("tokenizer.json", "tokenizer_config.json")
    ]
    uploader = app.file_uploader(key=keys.TRAIN_MODEL_UPLOAD)
    uploader._files = [
        (str(uuid4()), name, data, "application/octet-stream") for name, data in files
    ]
    app.run(timeout=600)
    assert not app.exception and not texts_of(app.error), (app.exception, texts_of(app.error))
    app.switch_page("pages/tokens.py").run()
    app.text_area(key=keys.TOKENS_TEXT).input(TEXT).run(timeout=300)
    assert not app.exception, app.exception
    return app


def test_the_ids_are_the_library_s_and_the_normalizer_is_said(qwen: AppTest) -> None:
    path = shared_path("reference", "open-weight", "qwen3", "tokenizer.json")
    reference = HfTokenizer.from_file(str(path)).encode(TEXT, add_special_tokens=False).ids
    (ids,) = [code.value for code in qwen.code if re.fullmatch(r"[\d ]+", str(code.value))]
    assert [int(i) for i in ids.split()] == reference
    captions = " ".join(texts_of(qwen.caption))
    assert "normalizer (NFC) changed the text" in captions
    assert "Its ids are its own" in captions


def test_each_token_s_card_gives_its_id_and_apart_its_merge_rank(qwen: AppTest) -> None:
    page = qwen.get("html")[0].proto.body
    assert 'title="id 151,644 · &#x27;&lt;|im_start|&gt;&#x27; · special token"' in page
    assert "made by merge rank" in page  # a merged token's card: the rank, apart from the id
    assert "<|im_start|>" not in page  # the text is escaped


def test_a_long_text_is_encoded_from_its_start_and_kept_whole(qwen: AppTest) -> None:
    # issue 35 §2: a model's encode runs on the interpreter every page shares
    text = "The quick brown fox jumps over the lazy dog. " * 20_000  # 900,000 characters
    qwen.text_area(key=keys.TOKENS_TEXT).input(text).run(timeout=300)
    assert not qwen.exception, qwen.exception
    captions = " ".join(texts_of(qwen.caption))
    assert "Encoded and counted: the first " in captions and "of 900,000 characters" in captions
    counted = int(
        str(next(m for m in qwen.metric if m.label == "Characters").value).replace(",", "")
    )
    assert counted <= 100_000
    assert qwen.text_area(key=keys.TOKENS_TEXT).value == text  # nothing lost
