"""Pictures of a real model's pages: Tokens, Vocabulary and Animate with Qwen 3 and Gemma 3,
at a laptop's and a phone's size, light and dark (issue 36 §2: look at what was built).

    .venv/bin/python -m scripts.screenshots models [--out docs/screenshots] [--only qwen3]

The models' files come from ../shared/reference/open-weight/ (a developer checkout's) and
are uploaded through the Train page's model loader in one browser session per model; the
pages are then opened from the sidebar (a new URL would start a new session without the
model). Pictures are named model_FOLDER_PAGE_WIDTHxHEIGHT[_dark].png.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import Page, expect

from harness.app_server import ROOT, app_in_chromium
from scripts.screenshots.pages import wait_until_idle

OPEN_WEIGHT = ROOT.parent / "shared" / "reference" / "open-weight"
SIZES = [(1440, 900), (390, 844)]
# folder, the run's name in the sidebar, the Tokens text that shows what is particular to it
MODELS = [
    ("qwen3", "tokenizer.json · 151,669 ids · bytes · NFC", "cafe\u0301 and café, naïve tokens"),
    (
        "gemma3",
        "tokenizer.json · 262,145 ids · characters · Replace(' ', '▁')",
        "the \u3a00 end, 東京 tokenizers",
    ),
]
PAGES = [("tokens", "Tokens"), ("vocabulary", "Vocabulary"), ("animate", "Animate merges")]


def open_model(page: Page, folder: str, name: str) -> None:
    """Upload a model's two files on Train and wait until the sidebar has chosen it."""
    files = [str(OPEN_WEIGHT / folder / f) for f in ("tokenizer.json", "tokenizer_config.json")]
    upload = page.locator(".st-key-train_model_upload [data-testid='stFileUploaderDropzoneInput']")
    upload.set_input_files(files)
    tokenizer = page.locator('[data-testid="stSidebar"] input[aria-label="Tokenizer"]')
    expect(tokenizer).to_have_value(name, timeout=300_000)
    wait_until_idle(page, timeout_s=300)


def go_to(page: Page, title: str) -> None:
    """Follow a sidebar link (the session, and so the model, is kept)."""
    page.set_viewport_size({"width": 1440, "height": 900})  # the sidebar is open at this size
    page.locator('[data-testid="stSidebarNavLink"]', has_text=title).click()
    wait_until_idle(page, timeout_s=300)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--only", nargs="+", metavar="FOLDER", help="only these models")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    with app_in_chromium(1440, 900) as (server, page):
        for folder, name, text in MODELS:
            if args.only and folder not in args.only:
                continue
            page.goto(server.url)
            wait_until_idle(page, timeout_s=180)
            open_model(page, folder, name)
            for slug, title in PAGES:
                go_to(page, title)
                if slug == "tokens":
                    area = page.locator(".st-key-tokens_text textarea")
                    area.fill(text)
                    area.press("Control+Enter")
                    wait_until_idle(page, timeout_s=120)
                for width, height in SIZES:
                    page.set_viewport_size({"width": width, "height": height})
                    for scheme in ("light", "dark"):
                        page.emulate_media(color_scheme=scheme)
                        page.wait_for_timeout(800)
                        suffix = "_dark" if scheme == "dark" else ""
                        path = out / f"model_{folder}_{slug}_{width}x{height}{suffix}.png"
                        page.screenshot(path=str(path), full_page=True)
                        print(path)
                page.emulate_media(color_scheme="light")


if __name__ == "__main__":
    main()
