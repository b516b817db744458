"""Take a screenshot of every page in headless Chromium (the README's pictures).

    .venv/bin/python -m scripts.screenshots pages [--out docs/screenshots] [--scheme dark]
        [--every-size]

--scheme dark opens the app as a browser whose system setting is dark, which the app's
theme follows; the pictures are then named NAME_dark.png. --every-size takes each page
at each of SIZES as well (NAME_1440x900.png, ...), to look over the layout in both themes.

Needs Debian's chromium (apt-get install chromium) and the playwright package; starts
its own Streamlit server on a free loopback port and stops it afterwards.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import Page

from harness.app_server import (
    BUSY,
    ROOT,
    IdleWatch,
    app_in_chromium,
)

SIZES = [(1440, 900), (1280, 720), (390, 844)]  # a laptop, a projector, a phone
# (file name, URL path): the front door lives at the root URL, Train at /train
PAGES = [
    ("front", ""),
    ("train", "train"),
    ("animate", "animate?animate_step=5"),
    ("tokens", "tokens"),
    ("vocabulary", "vocabulary"),
    ("compare", "compare"),
]
# (file name, URL path, viewport): what one screen shows, for the README's "In class"
SCREENS = [
    ("presenter", "animate?present=1&animate_step=2", (1280, 720)),
    ("phone-animate", "animate?animate_step=2", (390, 844)),
    ("phone-tokens", "tokens", (390, 844)),
]

# (file name, URL path, the element pictured, viewport): one section of a page
SECTIONS: list[tuple[str, str, str, tuple[int, int]]] = [
    (
        "encode_steps",
        "tokens?encode=tokenization&encode_step=2",
        ".st-key-tokens_encode_open",
        (1440, 900),
    ),
    ("vocabulary_checkup", "vocabulary?run=o200k_base", ".st-key-vocab_checkup", (1440, 900)),
]
# what to click first in a section (a large vocabulary is checked when asked)
CLICK_FIRST = {"vocabulary_checkup": ".st-key-vocab_checkup_large label"}
# (file name, URL path, a button clicked first, the element pictured, viewport)
CLICKED = [
    (
        "compare_overlay",
        "compare?compare_section=Every+run",
        ".st-key-compare_overlay_example button",
        ".st-key-compare_overlay_results",
        (1440, 900),
    ),
    (
        "compare_overlay_phone",
        "compare?compare_section=Every+run",
        ".st-key-compare_overlay_example button",
        ".st-key-compare_overlay_results",
        (390, 844),
    ),
]


def wait_until_idle(page: Page, timeout_s: float = 60) -> None:
    """Wait until Streamlit has drawn the page and stopped running the script."""
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=timeout_s * 1000)
    watch = IdleWatch(quiet_seconds=1.5, timeout_seconds=timeout_s)
    while not watch.settled(busy=page.locator(BUSY).count() > 0):
        page.wait_for_timeout(200)
    # Widgets whose code loads lazily (buttons, number inputs, the token HTML) are grey
    # placeholders until it arrives: a picture taken then shows empty boxes.
    page.wait_for_selector('[data-testid="stSkeleton"]', state="detached", timeout=30_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=1300)
    parser.add_argument("--only", nargs="+", metavar="NAME", help="take only these pictures")
    parser.add_argument("--scheme", choices=("light", "dark"), default="light")
    parser.add_argument("--every-size", action="store_true", help="each page at each of SIZES")
    args = parser.parse_args()
    every = [name for name, _ in PAGES] + [name for name, *_ in SCREENS + SECTIONS + CLICKED]
    wanted = set(args.only or every)
    out: Path = args.out  # argparse's values are Any; --out has type=Path
    out.mkdir(parents=True, exist_ok=True)
    suffix = "_dark" if args.scheme == "dark" else ""

    def path(name: str) -> Path:
        return out / f"{name}{suffix}.png"

    with app_in_chromium(args.width, args.height, color_scheme=args.scheme) as (server, page):
        for name, url_path in PAGES:
            if name in wanted:
                take(page, f"{server.url}{url_path}", path(name), full_page=True)
        for name, url_path, (width, height) in SCREENS:
            if name in wanted:
                page.set_viewport_size({"width": width, "height": height})
                take(page, f"{server.url}{url_path}", path(name), full_page=False)
        for name, url_path, selector, (width, height) in SECTIONS:
            if name in wanted:
                page.set_viewport_size({"width": width, "height": height})
                page.goto(f"{server.url}{url_path}")
                wait_until_idle(page)
                section = page.locator(selector)
                section.scroll_into_view_if_needed()  # widgets below the fold load only now
                if name in CLICK_FIRST:
                    page.locator(CLICK_FIRST[name]).click()
                    wait_until_idle(page)
                # subtle: a cached function's spinner (a check-up of 200,000 tokens) can
                # outlast the idle watch's quiet spell
                page.wait_for_selector('[data-testid="stSpinner"]', state="detached")
                page.wait_for_selector('[data-testid="stSkeleton"]', state="detached")
                page.wait_for_timeout(500)
                section.screenshot(path=str(path(name)))
                print(path(name))
        for width, height in SIZES if args.every_size else ():
            page.set_viewport_size({"width": width, "height": height})
            for name, url_path in PAGES:
                if name in wanted:
                    take(
                        page,
                        f"{server.url}{url_path}",
                        path(f"{name}_{width}x{height}"),
                        full_page=True,
                    )
        for name, url_path, button, selector, (width, height) in CLICKED:
            if name in wanted:
                page.set_viewport_size({"width": width, "height": height})
                page.goto(f"{server.url}{url_path}")
                wait_until_idle(page, timeout_s=180)
                page.locator(button).scroll_into_view_if_needed()
                page.locator(button).click()
                wait_until_idle(page, timeout_s=180)
                section = page.locator(selector)
                section.scroll_into_view_if_needed()
                page.wait_for_timeout(1000)  # the chart's last frame
                section.screenshot(path=str(path(name)))
                print(path(name))


def take(page: Page, url: str, path: Path, *, full_page: bool) -> None:
    """Open url in this session, wait until it has drawn, and save a picture of it."""
    page.goto(url)
    wait_until_idle(page)
    page.screenshot(path=str(path), full_page=full_page)
    print(path)


if __name__ == "__main__":
    main()
