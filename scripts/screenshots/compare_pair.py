"""Pictures of Compare's "Two tokenizers, merge by merge" for the README: both of its tabs.

    .venv/bin/python -m scripts.screenshots compare_pair [--out docs/screenshots]
        [--width 1440 --height 900] [--suffix ""]

Starts its own Streamlit server (as scripts/screenshots/pages.py does), opens Compare in a new
session, clicks the suggested example (the sample trained again with pattern `none`,
compared with its `gpt4` run), scrolls the section's heading to the top and takes one
picture per tab.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import Page

from harness.app_server import ROOT, app_in_chromium
from scripts.screenshots.pages import wait_until_idle

HEADING = "Two tokenizers, merge by merge"
SPLITS_TAB = "Where they split the passage"
LOADING_MS = 180_000  # a cold server loads GPT-2's, GPT-4's and GPT-4o's vocabularies first


def scroll_to_section(page: Page) -> None:
    """Bring the section's heading to the top of the page's scrolling area."""
    heading = page.get_by_role("heading", name=HEADING)
    heading.wait_for(timeout=LOADING_MS)
    page.get_by_text("Merges both learned").wait_for(timeout=LOADING_MS)
    wait_until_idle(page)
    heading.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(1_500)  # let the charts draw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--width", type=int, default=1440)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--suffix", default="", help="added to the file names: _phone")
    parser.add_argument("--scheme", choices=("light", "dark"), default="light")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    scheme = args.scheme
    with app_in_chromium(args.width, args.height, color_scheme=scheme) as (server, page):
        page.goto(f"{server.url}compare?compare_section=Two+tokenizers")  # the section's tab
        scroll_to_section(page)
        page.locator(".st-key-compare_pair_example button").click()
        page.get_by_role("heading", name=HEADING).wait_for(timeout=LOADING_MS)
        wait_until_idle(page)
        scroll_to_section(page)
        page.screenshot(path=str(args.out / f"compare_merges{args.suffix}.png"))
        page.get_by_role("tab", name=SPLITS_TAB).click()
        page.locator(".sd-view").first.wait_for()
        wait_until_idle(page)
        page.get_by_role("heading", name=HEADING).evaluate(
            "e => e.scrollIntoView({block: 'start'})"
        )
        page.wait_for_timeout(500)
        page.screenshot(path=str(args.out / f"compare_splits{args.suffix}.png"))


if __name__ == "__main__":
    main()
