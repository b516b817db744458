"""The browser's own work for one Animate step, in isolation: a figure a busy machine barely
moves (the least of many repetitions), to set beside bench/browser/app_timing.py's click → visible.

Not a test. Under Streamlit's AppTest it trains tinyshakespeare at vocab 5000, opens
Animate mid-training and takes three steps' passage HTML (the st.html bodies the
browser would get) and the run's two charts; then in headless Chromium, with Streamlit's
own bundled DOMPurify and vega-embed (its static folder, served to the page):

1. html: DOMPurify.sanitize with st.html's settings, innerHTML, then style and layout
   (forced), the three steps in turn, so every draw changes the page;
2. charts: both charts embedded once as Streamlit embeds them (Vega's expression
   interpreter, SVG), then per step the marker's dataset replaced and
   `view.resize().runAsync()`, as Streamlit updates a chart whose spec did not change.

    .venv/bin/python -m bench.browser.step_browser_cost --shared ../shared

Prints a JSON object on its last line: min and median milliseconds per step of each.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

import pyarrow as pa
import streamlit
from playwright.sync_api import Route, sync_playwright

from harness.app_server import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]

STATIC = Path(streamlit.__file__).parent / "static" / "static" / "js"
ORIGIN = "http://bench.invalid"
VOCAB_SIZE, STEPS = 5000, 3
ROUNDS, REPEATS = 4, 25  # each round: REPEATS draws, the first 3 left out (warm-up)

HTML_JS = """
async ([module, bodies, repeats]) => {
  const {t: purify} = await import(module);
  const box = document.getElementById("box");
  const settings = {USE_PROFILES: {html: true}, FORCE_BODY: true};  // st.html's
  const times = [];
  for (let r = 0; r < repeats; r++) {
    const start = performance.now();
    box.innerHTML = purify.sanitize(bodies[r % bodies.length], settings);
    box.getBoundingClientRect();
    times.push(performance.now() - start);
  }
  return times;
}
"""

CHARTS_JS = """
async ([embedModule, interpreterModule, charts, repeats]) => {
  const {t: vegaEmbed} = await import(embedModule);
  const {t: interpreter} = await import(interpreterModule);
  const box = document.getElementById("box");
  box.innerHTML = "";
  const views = [];
  for (const chart of charts) {
    const place = box.appendChild(document.createElement("div"));
    const options = {ast: true, expr: interpreter, actions: false, renderer: "svg"};
    const {view} = await vegaEmbed(place, {...chart.spec, width: 600, height: 260}, options);
    views.push([view, chart.markers]);
  }
  const times = [];
  for (let r = 0; r < repeats; r++) {
    const start = performance.now();
    for (const [view, markers] of views) {
      view.data("current_step", markers[r % markers.length]);
      await view.resize().runAsync();
    }
    box.getBoundingClientRect();
    times.push(performance.now() - start);
  }
  views.forEach(([view]) => view.finalize());
  return times;
}
"""


def step_bodies_and_charts(text: str) -> tuple[list[str], list[dict[str, Any]]]:
    """STEPS consecutive steps' passage HTML from the Animate page, and its two charts with
    a marker for each of those steps (Arrow datasets as rows, as Streamlit's frontend has
    them)."""
    from bench.browser.apptest_runs import trained_on_animate
    from explorer import train
    from ui.animate import charts as anim_charts

    app = trained_on_animate(text, VOCAB_SIZE)
    first = int(app.slider(key="animate_step").max) // 2
    app.slider(key="animate_step").set_value(first).run()
    bodies = []
    for _ in range(STEPS):
        app.button(key="animate_next").click().run()
        bodies += [str(e.proto.body) for e in app.get("html") if 'class="bpe' in e.proto.body]
    result = train([text], VOCAB_SIZE, pattern="gpt4")
    history, tokenizer = result.history, result.tokenizer
    rows = [anim_charts.step_row(history, first + s, tokenizer) for s in range(1, STEPS + 1)]
    charts = []
    for spec, field in zip(anim_charts.run_charts(history, tokenizer), ("count", "tokens")):
        datasets = {name: _rows(data) for name, data in spec["datasets"].items()}
        shown = {**spec, "datasets": {**datasets, anim_charts.MARKER_DATA: [rows[0]]}}
        markers = [[row] if row[field] is not None else [] for row in rows]
        charts.append({"spec": shown, "markers": markers})
    return bodies, charts


def _rows(arrow: bytes) -> list[dict[str, Any]]:
    return pa.ipc.open_stream(arrow).read_all().to_pylist()


def serve(route: Route) -> None:
    """The page, and Streamlit's static scripts by name."""
    name = route.request.url.rsplit("/", 1)[1]
    if not name:
        route.fulfill(body='<html><body><div id="box" style="width:800px"></div></body></html>')
        return
    route.fulfill(path=str(STATIC / name), content_type="text/javascript")


def module(prefix: str) -> str:
    return f"{ORIGIN}/{next(STATIC.glob(f'{prefix}.*.js')).name}"


def measure(bodies: list[str], charts: list[dict[str, Any]]) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"html": [], "charts": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.route(f"{ORIGIN}/**", serve)
            page.goto(f"{ORIGIN}/")
            for _ in range(ROUNDS):
                html_args = [module("purify.es"), bodies, REPEATS]
                times["html"] += page.evaluate(HTML_JS, html_args)[3:]
                chart_args = [module("embed"), module("vega-interpreter"), charts, REPEATS]
                times["charts"] += page.evaluate(CHARTS_JS, chart_args)[3:]
        finally:
            browser.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
    text = (args.shared / "corpora" / "tinyshakespeare.txt").read_text(encoding="utf-8")
    bodies, charts = step_bodies_and_charts(text)
    times = measure(bodies, charts)
    figures: dict[str, Any] = {
        "passage_html_bytes": round(statistics.mean(len(b) for b in bodies)),
        **{f"{name}_min_ms": round(min(values), 2) for name, values in times.items()},
        **{
            f"{name}_median_ms": round(statistics.median(values), 2)
            for name, values in times.items()
        },
        "draws": len(times["html"]),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
