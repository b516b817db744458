"""A shared link after a restart: each page as the very first request of a new server.

With the page files in `pages/`, Streamlit runs a fresh server's first request through
its old auto-discovered mode, without the entry file (ui/shell.py explains the fix).
Only a new server shows that, so each case starts one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.app_server import Server
from tests.browser.conftest import (
    SAMPLE_TOKENIZER,
    VIEWPORT,
    ScriptRuns,
    main_area,
    serving,
    sidebar_tokenizer_input,
    wait_until_idle,
)

NAV_TITLES = ["Start", "Train", "Animate merges", "Tokens", "Vocabulary", "Compare"]
LINKS = {  # path and query -> what the page's own content must show
    "": "Explore a real model's tokenizer",  # the front door
    "train": "Train a tokenizer",
    "animate?animate_step=3": "After step 3",
    "tokens": "Encoding with",
    "vocabulary": "Every token of",
    "compare": "Comparing with",
}


@pytest.fixture
def fresh_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    with serving(tmp_path / "server.log") as server:
        yield server


def open_page(browser: Browser, url: str) -> Page:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.set_default_timeout(60_000)
    ScriptRuns.watch(page)  # its reruns seen on the websocket: a short quiet period will do
    page.goto(url)
    wait_until_idle(page)
    return page


def assert_whole_app(page: Page, content: str) -> None:
    """The page's content, the shared sidebar on the default tokenizer, the app's navigation."""
    main = main_area(page)
    expect(main.get_by_text(content).first).to_be_visible()
    expect(main.locator('[data-testid="stException"]')).to_have_count(0)
    expect(sidebar_tokenizer_input(page)).to_have_value(SAMPLE_TOKENIZER)
    links = page.locator('[data-testid="stSidebarNavLink"]')
    expect(links).to_have_text([re.compile(f"{title}$") for title in NAV_TITLES])  # after icons


@pytest.mark.parametrize("link", list(LINKS), ids=lambda link: link or "root")
def test_a_link_is_the_first_request_of_a_new_server(
    browser: Browser, fresh_server: Server, link: str
) -> None:
    first = open_page(browser, fresh_server.url + link)
    assert_whole_app(first, LINKS[link])
    assert first.url.startswith(fresh_server.url + link)  # the same page, its query kept
    first.context.close()
    later = open_page(browser, fresh_server.url + link)  # another visitor, same server
    assert_whole_app(later, LINKS[link])
    later.context.close()
    assert "Traceback" not in fresh_server.log_tail(100_000)


def test_an_old_link_to_the_root_opens_train_on_a_new_server(
    browser: Browser, fresh_server: Server
) -> None:
    """Before the front door, "/" was Train: its links (`/?sample=…`) still open Train."""
    query = "?sample=aaabdaaabac&vocab=259&pattern=none"
    first = open_page(browser, fresh_server.url + query)
    expect(main_area(first).get_by_text("Train a tokenizer").first).to_be_visible()
    expect(sidebar_tokenizer_input(first)).to_have_value("aaabdaaabac · none · 259")
    assert first.url.startswith(fresh_server.url + "train" + query)
    first.context.close()
