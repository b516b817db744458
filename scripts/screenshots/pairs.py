"""Take the README's pictures of Animate's pair table and its quiz in headless Chromium.

    .venv/bin/python -m scripts.screenshots pairs [--out docs/screenshots]

animate_pair_table.png: Animate at 1440 x 900 with the pair table beside the passage;
animate_quiz.png: the presenter view at 1280 x 720 after a wrong guess was revealed.
Like scripts/screenshots/pages.py, it starts its own server and stops it afterwards.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import Page

from harness.app_server import ROOT, app_in_chromium
from scripts.screenshots.pages import wait_until_idle


def open_animate(page: Page, url: str) -> None:
    """Open Animate by its address and wait until a step is drawn (not only idle)."""
    page.goto(url)
    page.locator(".am-narration").wait_for(timeout=60_000)
    wait_until_idle(page)


def quiz_after_a_guess(page: Page) -> None:
    """Turn the quiz on, pick the third option, reveal."""
    page.locator(".st-key-animate_quiz label").click()
    wait_until_idle(page)
    page.locator(".st-key-animate_quiz_pick [role='radiogroup'] label").nth(2).click()
    wait_until_idle(page)
    page.get_by_role("button", name="Reveal").click()
    wait_until_idle(page)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with app_in_chromium(1440, 900) as (server, page):
        page.goto(server.url)  # the first session trains the sample
        wait_until_idle(page)
        open_animate(page, f"{server.url}animate?animate_step=5")
        page.screenshot(path=str(args.out / "animate_pair_table.png"))
        page.set_viewport_size({"width": 1280, "height": 720})
        open_animate(page, f"{server.url}animate?animate_step=2&present=1")
        quiz_after_a_guess(page)
        page.screenshot(path=str(args.out / "animate_quiz.png"))
        print(args.out / "animate_pair_table.png", args.out / "animate_quiz.png")


if __name__ == "__main__":
    main()
