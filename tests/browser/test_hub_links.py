"""A Hub model's link as a new server's first request, in Chromium: `/tokens?hub=…&text=…`,
and Gemma 3 by `?hub=` on every page.

The server is started with the `hub_cache` fixture's environment (HF_HUB_CACHE, and
HF_HUB_OFFLINE=1: nothing leaves 127.0.0.1), so the real fetch-free path runs: the Hub
cache read, the model read by a child, held by the server, drawn on Tokens with the
link's text; a second visitor opens the same link and the server reads nothing again.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, expect

from harness.app_server import Server
from harness.hub_cache import HubCache
from tests.browser.conftest import main_area, serving, sidebar_tokenizer_input
from tests.browser.test_deep_links import open_page

TEXT = "Café ﬁne 東京"


@pytest.fixture
def hub_server(hub_cache: HubCache, tmp_path: Path) -> Iterator[Server]:
    env = {name: os.environ[name] for name in ("HF_HUB_CACHE", "HF_HUB_OFFLINE")}
    with serving(tmp_path / "server.log", env) as server:
        yield server


def test_a_hub_link_opens_the_model_on_tokens_with_its_text(browser: Browser, hub_server: Server):
    link = f"{hub_server.url}tokens?hub=Qwen/Qwen3-0.6B&text={quote(TEXT)}"
    for _ in range(2):  # the first visitor's session reads the model; the second's finds it
        page = open_page(browser, link)
        main = main_area(page)
        expect(sidebar_tokenizer_input(page)).to_have_value(
            "Qwen/Qwen3-0.6B · 151,669 ids · bytes · NFC"
        )
        expect(main.get_by_text("Encoding with").first).to_be_visible()
        expect(main.locator('[data-testid="stException"]')).to_have_count(0)
        assert "hub=Qwen%2FQwen3-0.6B" in page.url or "hub=Qwen/Qwen3-0.6B" in page.url
        page.context.close()
    assert "Traceback" not in hub_server.log_tail(100_000)


# each page's address, and what its own content shows with Gemma 3 opened by hub=
GEMMA = "google/gemma-3-1b-it"
PAGE_CONTENT = {
    "train": "Train a tokenizer",
    "animate": "Animate",
    "tokens": "Encoding with",
    "vocabulary": "Vocabulary",
    "compare": "Compare",
}


def test_hub_opens_gemma_on_every_page_as_a_new_visitors_link(
    browser: Browser, hub_server: Server
) -> None:
    """Gemma 3 (262,145 ids, `▁` and byte fallback) by `?hub=` on each page, each a new
    visitor: the page draws its own content and no error. On Compare, hub= names the
    models compared (the sidebar keeps its own run); everywhere else the sidebar shows it."""
    for path, content in PAGE_CONTENT.items():
        page = open_page(browser, f"{hub_server.url}{path}?hub={GEMMA}")
        main = main_area(page)
        expect(main.get_by_text(content).first).to_be_visible(timeout=300_000)
        expect(main.locator('[data-testid="stException"]')).to_have_count(0)
        expect(main.locator('[data-testid="stAlertContentError"]')).to_have_count(0)
        if path == "compare":
            expect(main.get_by_text(GEMMA).first).to_be_visible()
        else:
            expect(sidebar_tokenizer_input(page)).to_have_value(
                "google/gemma-3-1b-it · 262,145 ids · characters · Replace(' ', '▁')",
                timeout=300_000,
            )
        page.context.close()
    assert "Traceback" not in hub_server.log_tail(100_000)
