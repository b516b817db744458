"""The Train page's tokenizer loader fed the worst files of the hostile catalogue (issue 21).

Each goes through AppTest's file uploader, so the page's own callback reads it: the
page shows a plain st.error, raises nothing, and keeps the session's runs.
"""

from __future__ import annotations

import pytest

from tests.app.train.test_app_history_run import ERROR_PREFIX, load_errors, runs, upload
from tests.app_support import open_app
from tests.engine.files.test_hostile_files import CATALOGUE, FOREIGN_WORDS, Hostile

WORST = (  # one of each way a file crashed a page, or could have
    "tokenizer:100k [",
    "tokenizer:100k { inside model",
    "merges:100k [",
    "encoder:100k [",
    "history:steps 100k [",
    "model:special id of 24 digits",
    "model:special id of 5,000 digits",
    "model:40 doubling merges (a 1 TB token)",
    "tiktoken:rank of 5,000 digits",
    "tiktoken:NUL bytes",
    "tokenizer:lone surrogate added token",
    "model:invalid UTF-8",
    "model:5 MB line after",
)
BY_ID = {row.id: row for row in CATALOGUE}


@pytest.mark.parametrize("variant", WORST)
def test_a_hostile_tokenizer_file_gets_a_plain_error_and_the_page_stays(variant: str) -> None:
    row: Hostile = BY_ID[variant]
    app = open_app("train")
    before = runs(app)
    upload(app, *row.files)  # asserts no exception
    [error] = load_errors(app)
    assert error and len(error) <= 1_000, error[:300]
    assert not any(words.casefold() in error.casefold() for words in FOREIGN_WORDS), error
    assert runs(app) == before
    assert app.sidebar.selectbox  # the sidebar is still drawn
    assert any(text.startswith(ERROR_PREFIX) for text in (e.value for e in app.error))
