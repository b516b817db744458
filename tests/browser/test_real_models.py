"""The front door and Compare's chart of four real models in Chromium: drawn, and clean
under axe-core (WCAG 2.1 AA: no serious or critical violation) in light and dark.

The four models (Llama 3, DeepSeek-V3, Qwen 3, Gemma 3: 128k–262k ids) come from
../shared/reference/open-weight/ laid out as a Hub cache (harness/hub_cache.py), given to a
server of this module's own; without ../shared the chart's test skips.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from harness.app_server import Server
from harness.hub_cache import OPEN_WEIGHT, build_hub_cache
from tests.browser.conftest import main_area, serving, wait_until_idle
from tests.browser.test_accessibility import VIEWPORT, assert_accessible_in_both_schemes
from ui.compare.models.languages import MODELS_CHART_TITLE

FOUR = [
    "meta-llama/Meta-Llama-3-8B",
    "deepseek-ai/DeepSeek-V3",
    "Qwen/Qwen3-0.6B",
    "google/gemma-3-1b-it",
]
BARS = """(title) => {
  const chart = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
    .find(c => c.textContent.includes(title));
  return chart ? chart.querySelectorAll('g.mark-rect path').length : 0;
}"""


@pytest.fixture(scope="module")
def hub_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose Hub cache holds the four models (read offline)."""
    if not OPEN_WEIGHT.is_dir():
        pytest.skip(f"{OPEN_WEIGHT} is not here (../shared is only beside developer checkouts)")
    folder = tmp_path_factory.mktemp("hub")
    cache = build_hub_cache(folder / "cache", FOUR).path
    env = {"HF_HUB_CACHE": str(cache), "HF_HUB_OFFLINE": "1"}
    with serving(folder / "server.log", env) as server:
        yield server


def test_the_front_door_is_the_first_page_and_accessible(
    blank_page: Page, streamlit_server: Server
) -> None:
    page = blank_page
    page.set_viewport_size(VIEWPORT)
    page.goto(streamlit_server.url)
    wait_until_idle(page)
    main = main_area(page)
    expect(main.get_by_role("heading", name="BPE Merge Explorer")).to_be_visible()
    for door in ("Explore a real model's tokenizer", "Train your own", "Teach a class"):
        expect(main.get_by_role("heading", name=door)).to_be_visible()
    expect(main.locator(".am-narration").first).to_be_visible()  # the example, playing
    assert page.url == streamlit_server.url  # the address stays bare
    page.locator(".st-key-front_playing label").click()  # paused: axe sees a still page
    wait_until_idle(page)
    assert_accessible_in_both_schemes(page, "the front door")
    main.get_by_role("link", name="Train a tokenizer").click()
    expect(main.get_by_role("heading", name="Train a tokenizer")).to_be_visible()
    assert page.url.startswith(streamlit_server.url + "train")


def test_four_real_models_on_one_chart_from_a_link(blank_page: Page, hub_server: Server) -> None:
    page = blank_page
    page.set_viewport_size(VIEWPORT)
    page.set_default_timeout(600_000)  # the first visitor reads four models, Gemma 3's 33 MB
    page.goto(hub_server.url + "compare?hub=" + ",".join(FOUR) + "&with=none")
    page.wait_for_function(f"(t) => ({BARS})(t) >= {4 * 26}", arg=MODELS_CHART_TITLE)
    wait_until_idle(page, 600)
    main = main_area(page)
    expect(main.locator('[data-testid="stException"]')).to_have_count(0)
    expect(main.locator('[data-testid="stAlertContentError"]')).to_have_count(0)
    for name in FOUR:
        expect(main.get_by_text(name).first).to_be_visible()
    assert "hub=" in page.url and "with=none" in page.url  # the link still says it
    assert_accessible_in_both_schemes(page, "Compare, four real models")
