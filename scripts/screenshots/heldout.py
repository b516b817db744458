"""The README's picture of Compare with a held-out share: both curves and where they bend.

    .venv/bin/python -m scripts.screenshots heldout [--out docs/screenshots]

Opens Compare on the bundled Shakespeare trained with pattern `none`, 10,000 tokens and
10 % held out (the link's settings train it on open), scrolls the compression chart into
view and saves one screen at 1440x900 (compare_heldout.png), and, for a look at narrow
screens, 390x844 into artifacts/ (compare_heldout_phone.png).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from harness.app_server import CHROMIUM, CHROMIUM_ARGS, ROOT, running_server
from scripts.screenshots.pages import wait_until_idle

URL_PATH = "compare?sample=shakespeare&vocab=10000&pattern=none&holdout=10"
# the chart at the top of the screen, its title clear of Streamlit's header
SCROLL_TO_CHART = """chart => {
    chart.scrollIntoView({block: "start"});
    let box = chart.parentElement;
    while (box && box.scrollHeight <= box.clientHeight) box = box.parentElement;
    (box || document.scrollingElement).scrollBy(0, -70);
}"""
SCREENS = [  # (file, folder, viewport)
    ("compare_heldout.png", ROOT / "docs" / "screenshots", (1440, 900)),
    ("compare_heldout_phone.png", ROOT / "artifacts" / "screenshots", (390, 844)),
]


def take(page: Page, url: str, path: Path) -> None:
    """Open Compare, put the compression chart at the top of the screen, save a picture."""
    page.goto(url)
    wait_until_idle(page, timeout_s=180)
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    chart.wait_for(timeout=180_000)  # the link's run trains on open: a loaded machine is slow
    wait_until_idle(page, timeout_s=180)
    chart.evaluate(SCROLL_TO_CHART)
    page.mouse.move(1, 1)  # no tooltip, no zoom: the wheel over the chart would zoom it
    page.wait_for_timeout(500)
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))
    print(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as folder,
        running_server(Path(folder) / "server.log") as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for name, where, (width, height) in SCREENS:
            page = browser.new_page(viewport={"width": width, "height": height})
            take(page, f"{server.url}{URL_PATH}", where / name)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
