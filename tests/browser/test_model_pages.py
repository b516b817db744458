"""A real model's pages in the browser, light and dark: axe-core finds no serious violation
on Tokens (Qwen 3's normalised text beside the original; Gemma 3's `▁` and byte fallback),
Vocabulary (a page of rows, the lineage) and Animate (the passage replayed).

The models' files are uploaded through the Train page's model loader, as a person does;
they come from ../shared/reference/open-weight/ (the test skips without it).
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import go_to, keyed, set_text_area, sidebar_tokenizer_input
from tests.browser.test_accessibility import VIEWPORT, assert_accessible_in_both_schemes
from tests.conftest import shared_path

# (folder, the run's name in the sidebar, a text that shows what is particular to it)
MODELS = [
    ("qwen3", "tokenizer.json · 151,669 ids · bytes · NFC", "cafe\u0301 and café, naïve"),
    (
        "gemma3",
        "tokenizer.json · 262,145 ids · characters · Replace(' ', '▁')",
        "the \u3a00 end, 東京",
    ),
]
LOAD_TIMEOUT_MS = 300_000  # Gemma 3's 33 MB, read in a child on a busy 2-core machine


def upload_model(page: Page, folder: str) -> None:
    """Upload a model's tokenizer.json and tokenizer_config.json on Train."""
    where = shared_path("reference", "open-weight", folder)
    files = [str(where / name) for name in ("tokenizer.json", "tokenizer_config.json")]
    uploader = keyed(page, "train_model_upload")
    uploader.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(files)


def test_a_model_s_pages_have_no_serious_violation(app: Page) -> None:
    app.set_viewport_size(VIEWPORT)
    failures = []
    for folder, name, text in MODELS:
        go_to(app, "Train")
        upload_model(app, folder)
        expect(sidebar_tokenizer_input(app)).to_have_value(name, timeout=LOAD_TIMEOUT_MS)
        go_to(app, "Tokens")
        set_text_area(keyed(app, "tokens_text").locator("textarea"), text)
        expect(app.locator(".bpm span").first).to_be_visible(timeout=60_000)
        for page in ("Tokens", "Vocabulary", "Animate merges"):
            if page != "Tokens":
                go_to(app, page)
            try:
                assert_accessible_in_both_schemes(app, f"{page} with {folder}")
            except AssertionError as failure:
                failures.append(str(failure))
            app.emulate_media(color_scheme="light")
    assert not failures, "\n\n".join(failures)
