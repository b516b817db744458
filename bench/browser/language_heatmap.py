"""Time Compare's 26-language heatmap for a 20,000-token run: computed, and drawn in Chromium.

Not a test. Trains ../shared/corpora/tinyshakespeare.txt to vocab size 20,000 (or, without
../shared, uses GPT-4's cl100k_base, 100,256 tokens), then:

1. in process: the 26 encodes (one per language, every size from them), the heatmap's
   table and both charts' Vega-Lite specs, best of --repeat;
2. in headless Chromium: a server of its own; the run's .model loaded on Train; the
   first visit to Compare (OpenAI's vocabularies loaded) paid beforehand with the
   default sample; then the click on "Compare" until the heatmap's cells are drawn, and
   from the chart just before it (OpenAI's bars in 26 languages) to the heatmap: the
   heatmap section's own share, computed on the server and drawn.

    .venv/bin/python -m bench.browser.language_heatmap [--shared ../shared] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from explorer import Tokenizer, load_bundled, train
from explorer.analysis.compression.language_cost import language_curves
from explorer.files.formats import model_text
from ui.compare.language_chart import LANGUAGE_TITLE
from ui.compare.languages import (
    HEATMAP_TITLE,
    heatmap_chart,
    heatmap_frame,
    tax_chart,
    tax_frame,
)
from ui.session.samples import udhr_texts

ROOT = Path(__file__).resolve().parents[2]

CHART_DRAWN = """(title) => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
  .some(c => c.textContent.includes(title) && c.querySelector('svg.marks'))"""
HEATMAP_CELLS = """(title) => {
  const chart = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
    .find(c => c.textContent.includes(title));
  return chart ? chart.querySelectorAll('g.mark-rect path').length : 0;
}"""


def large_run(shared: Path) -> tuple[str, Tokenizer]:
    corpus = shared / "corpora" / "tinyshakespeare.txt"
    if corpus.exists():
        text = corpus.read_text(encoding="utf-8")
        return "tinyshakespeare, gpt4, 20,000", train(text, 20_000, pattern="gpt4").tokenizer
    return "cl100k_base (no ../shared)", load_bundled("cl100k_base")


def in_process(tokenizer: Tokenizer, repeat: int) -> dict[str, float]:
    """Seconds for the encodes, and for the tables and specs, each the best of `repeat`."""
    texts, full = udhr_texts(), tokenizer.vocab_size
    encodes, charts = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        curves = language_curves(tokenizer, texts)
        middle = time.perf_counter()
        json.dumps(heatmap_chart(heatmap_frame(curves, full, full), full).to_dict())
        json.dumps(tax_chart(tax_frame(curves, full), full).to_dict())
        charts.append(time.perf_counter() - middle)
        encodes.append(middle - start)
    return {"encodes_s": min(encodes), "tables_and_specs_s": min(charts)}


def in_browser(model_path: Path) -> dict[str, float]:
    """Seconds from the click on Compare until the heatmap's cells are in the page."""
    from harness.app_server import app_in_chromium
    from tests.browser.conftest import go_to, main_area, wait_until_idle

    with app_in_chromium(1440, 900) as (server, page):
        page.set_default_timeout(300_000)
        page.goto(server.url)
        wait_until_idle(page, 300)
        go_to(page, "Compare")  # OpenAI's vocabularies loaded: not part of the figure
        go_to(page, "Train")
        loader = main_area(page).locator(
            '[data-testid="stExpander"]', has_text="Load a saved tokenizer"
        )
        loader.locator("summary").click()
        loader.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(model_path)
        wait_until_idle(page, 300)
        link = page.locator('[data-testid="stSidebarNavLink"]', has_text="Compare")
        start = time.perf_counter()
        link.click()
        page.wait_for_function(f"() => ({CHART_DRAWN})({LANGUAGE_TITLE!r})", polling=50)
        before = time.perf_counter() - start
        page.wait_for_function(f"() => ({HEATMAP_CELLS})({HEATMAP_TITLE!r}) > 26 * 20", polling=50)
        drawn = time.perf_counter() - start
        wait_until_idle(page, 300)
        settled = time.perf_counter() - start
    return {
        "click_to_previous_chart_s": before,  # "Across 26 languages", drawn just before
        "previous_chart_to_heatmap_s": drawn - before,  # the heatmap section, computed and drawn
        "click_to_heatmap_s": drawn,
        "click_to_page_settled_s": settled,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    name, tokenizer = large_run(args.shared)
    result: dict[str, object] = {"run": name, "vocab_size": tokenizer.vocab_size}
    result.update(in_process(tokenizer, args.repeat))
    with tempfile.TemporaryDirectory() as folder:
        model = Path(folder) / "large.model"
        model.write_text(model_text(tokenizer), encoding="utf-8")
        result.update(in_browser(model))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
