"""Write the sample lesson file, docs/lesson_aaabdaaabac.html (the classic example).

    python -m scripts.make_lesson [--screenshots]

It is the lesson the Animate page offers for the worked example "aaabdaaabac" (trained
with no pre-tokenizer to vocab size 259: three merges) on its own text. A test checks
the committed file is what this writes, so it cannot go stale.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from explorer import train
from explorer.training.corpus import count_chunks
from ui.animate.lesson.page import lesson_html
from ui.session.run_spec import run_name

if TYPE_CHECKING:  # the harness is needed only for the pictures (imported there)
    from harness.app_server import ColorScheme

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_LESSON = ROOT / "docs" / "lesson_aaabdaaabac.html"
SCREENSHOTS = ROOT / "docs" / "screenshots"
TEXT, VOCAB_SIZE, PATTERN = "aaabdaaabac", 259, "none"
# (file name, viewport, the reader's colour scheme): the README's pictures, and the file
# on a phone
PICTURES: list[tuple[str, tuple[int, int], ColorScheme]] = [
    ("lesson_file.png", (1280, 720), "light"),
    ("lesson_file_dark.png", (1280, 720), "dark"),
    ("lesson_file_phone.png", (390, 844), "light"),
]


def sample_lesson() -> str:
    """The sample lesson's HTML, as the Animate page would build it."""
    result = train(TEXT, VOCAB_SIZE, pattern=PATTERN)
    return lesson_html(
        result.history,
        result.tokenizer,
        TEXT,
        chunk_counts=count_chunks([TEXT], PATTERN),
        title=run_name(TEXT, PATTERN, VOCAB_SIZE),
    )


def take_screenshots(step: int = 2) -> None:
    """The sample at `step` in headless Chromium, opened from disk (needs playwright)."""
    from playwright.sync_api import sync_playwright

    from harness.app_server import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for name, (width, height), scheme in PICTURES:
            page = browser.new_page(
                viewport={"width": width, "height": height}, color_scheme=scheme
            )
            page.goto(f"{SAMPLE_LESSON.as_uri()}#step={step}")
            page.locator("#pairs tbody tr").first.wait_for()
            page.screenshot(path=str(SCREENSHOTS / name))
            print(f"wrote docs/screenshots/{name}")
            page.close()
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshots", action="store_true", help="also take its pictures")
    args = parser.parse_args()
    SAMPLE_LESSON.write_text(sample_lesson(), encoding="utf-8", newline="\n")
    print(f"wrote {SAMPLE_LESSON.relative_to(ROOT)} ({SAMPLE_LESSON.stat().st_size:,} bytes)")
    if args.screenshots:
        take_screenshots()


if __name__ == "__main__":
    main()
