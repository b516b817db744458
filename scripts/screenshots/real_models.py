"""The front door, Compare's chart of four real models, and Tokens for Llama 3, Qwen 3,
Gemma 3 and GPT-4o on one text, at 1440 × 900 and 390 × 844, in light and dark (issue 36's
pictures).

    .venv/bin/python -m scripts.screenshots real_models [--out docs/screenshots]

The four models (Llama 3, DeepSeek-V3, Qwen 3, Gemma 3) come from
../shared/reference/open-weight/ laid out as a Hub cache (harness/hub_cache.py) that the
script's own server reads offline; each is opened by its link (`/tokens?hub=…&text=…`, GPT-4o
by `run=o200k_base`). Pictures: front_door_WxH[_dark].png, models_chart_WxH[_dark].png and
tokens_MODEL_WxH[_dark].png. Needs Debian's chromium and the playwright package, and
Debian's fonts-noto-cjk and fonts-noto-color-emoji for the text's 東京タワー and 🤖 (without
them Chromium draws boxes).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import Page

from harness.app_server import ROOT, app_in_chromium
from harness.hub_cache import OPEN_WEIGHT, build_hub_cache
from scripts.screenshots.pages import wait_until_idle

FOUR = [
    "meta-llama/Meta-Llama-3-8B",
    "deepseek-ai/DeepSeek-V3",
    "Qwen/Qwen3-0.6B",
    "google/gemma-3-1b-it",
]
SIZES = [(1440, 900), (390, 844)]
MODELS_LINK = "compare?hub=" + ",".join(FOUR) + "&with=none"
CHART = '[data-testid="stVegaLiteChart"]'
MEASURE = ".st-key-compare_models_metric"  # the radio just above the chart
# Tokens on one text: the picture's name -> the link's run (a Hub name, or a bundled key)
TOKENS_OF = {
    "llama3": {"hub": "meta-llama/Meta-Llama-3-8B"},
    "qwen3": {"hub": "Qwen/Qwen3-0.6B"},
    "gemma3": {"hub": "google/gemma-3-1b-it"},
    "gpt4o": {"run": "o200k_base"},
}
# accents composed and not, a ligature, CJK, an emoji, digits: where the four differ
TOKENS_TEXT = "Tokenizers disagree: naïve cafe\u0301, ﬁne print, 東京タワー 🤖, 1234567."


def front_door(page: Page, url: str, out: Path) -> None:
    """The first screen of the front door, its example paused on step 2."""
    page.goto(url)
    wait_until_idle(page)
    page.locator(".st-key-front_playing label").click()  # pause, so the picture is still
    wait_until_idle(page)
    page.wait_for_timeout(500)
    page.screenshot(path=str(out))
    print(out)


def models_chart(page: Page, url: str, out: Path) -> None:
    """The screen at the four models' chart: the measure's choice at the top of the
    window, the chart under it (Streamlit's header would hide the chart's own title).

    (A picture of the element alone is cut: Streamlit's main area scrolls inside the
    page, and the chart is taller than a phone's screen.)
    """
    page.goto(url + MODELS_LINK)
    wait_until_idle(page, timeout_s=600)
    chart = page.locator(CHART).first
    chart.locator("svg.marks").wait_for(timeout=600_000)
    page.locator(MEASURE).evaluate("radio => radio.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(1500)  # the chart's last frame
    page.screenshot(path=str(out))
    print(out)


def tokens(page: Page, url: str, run: dict[str, str], out: Path) -> None:
    """Tokens with one model on TOKENS_TEXT, from the page's link, at the top."""
    page.goto(url + "tokens?" + urlencode({**run, "text": TOKENS_TEXT}))
    wait_until_idle(page, timeout_s=600)
    page.wait_for_timeout(500)
    page.screenshot(path=str(out))
    print(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    if not OPEN_WEIGHT.is_dir():
        raise SystemExit(f"{OPEN_WEIGHT} is not here: the chart's models come from it")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        cache = build_hub_cache(Path(folder), FOUR).path
        env = {"HF_HUB_CACHE": str(cache), "HF_HUB_OFFLINE": "1"}
        with app_in_chromium(1440, 900, env) as (server, page):
            page.set_default_timeout(600_000)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                suffix = "_dark" if scheme == "dark" else ""
                for width, height in SIZES:
                    page.set_viewport_size({"width": width, "height": height})
                    name = f"{width}x{height}{suffix}.png"
                    front_door(page, server.url, args.out / f"front_door_{name}")
                    models_chart(page, server.url, args.out / f"models_chart_{name}")
                    for model, run in TOKENS_OF.items():
                        tokens(page, server.url, run, args.out / f"tokens_{model}_{name}")


if __name__ == "__main__":
    main()
