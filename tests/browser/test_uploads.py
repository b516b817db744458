"""Files the Train page cannot use: each gets a clear message, and nothing trained is lost.

A non-UTF-8 file, an empty file, and one over the uploader's limit (.streamlit/config.toml:
maxUploadSize = 20 MB), uploaded one after another after a worked example was trained.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    SAMPLE_TOKENIZER,
    choose_radio,
    keyed,
    main_area,
    sidebar_tokenizer,
    sidebar_tokenizers,
    wait_until_idle,
)

EXAMPLE = "aaabdaaabac · none · 259"  # the first worked example's tokenizer
MAX_UPLOAD_MB = 20
ERRORS = '[data-testid="stAlertContentError"]'  # st.error boxes


def bad_files(folder: Path) -> list[tuple[Path, re.Pattern[str], bool]]:
    """Each file, the message the page must show for it, and whether the uploader shows it."""
    latin1 = folder / "cafe-latin1.txt"
    latin1.write_bytes("café crème".encode("latin-1"))
    empty = folder / "empty.txt"
    empty.write_bytes(b"")
    big = folder / "big.txt"
    with big.open("wb") as out:
        out.truncate((MAX_UPLOAD_MB + 1) * 1024 * 1024)  # sparse: instant to make
    # the page starts its messages with a capital, the file name's too (reported)
    return [
        (latin1, re.compile(r"[cC]afe-latin1\.txt is not UTF-8 text: byte 3 \(0xe9\)"), False),
        (empty, re.compile(r"[eE]mpty\.txt is empty: choose a file with some text in it"), False),
        (big, re.compile(rf"File must be {MAX_UPLOAD_MB}(\.0)? ?MB or smaller"), True),
    ]


@pytest.fixture
def trained(app: Page) -> Page:
    """The app with the first worked example trained: it is the current tokenizer."""
    keyed(app, "train_example_aaabdaaabac").get_by_role("button").click()
    wait_until_idle(app)
    expect(keyed(app, "sidebar_run").locator("input")).to_have_value(EXAMPLE)
    return app


def test_bad_uploads_get_a_message_and_lose_nothing(trained: Page, tmp_path: Path) -> None:
    page, main = trained, main_area(trained)
    choose_radio(page, "train_source", "Upload files")
    uploader = keyed(page, "train_upload")
    train = keyed(page, "train_go").get_by_role("button")
    for path, message, by_uploader in bad_files(tmp_path):
        uploader.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(path)
        wait_until_idle(page)
        # the uploader refuses a file over the limit itself, in its file chip (an alert)
        where = uploader.get_by_role("alert") if by_uploader else main.locator(ERRORS)
        expect(where).to_contain_text(message)
        expect(train).to_be_disabled()
        assert sidebar_tokenizer(page) == EXAMPLE
        expect(main.get_by_role("heading", name=f"Tokenizer: {EXAMPLE}")).to_be_visible()
        uploader.get_by_role("button", name=f"Remove {path.name}").click()
        wait_until_idle(page)
        expect(main.get_by_text(message)).to_have_count(0)
    assert sidebar_tokenizers(page) == [SAMPLE_TOKENIZER, EXAMPLE]
    assert sidebar_tokenizer(page) == EXAMPLE
