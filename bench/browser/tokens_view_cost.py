"""What a coloured token view costs the browser: HTML size, build time, DOMPurify, layout.

Not a test. st.html passes every element through DOMPurify before it sets innerHTML, so a
view's cost in the browser grows with its markup. This builds the Tokens page's largest
view (its first 10,000 tokens) of a slice of tinyshakespeare, then in headless Chromium
(Debian's /usr/bin/chromium) sanitizes it with the DOMPurify that Streamlit ships, with
st.html's options, and inserts and lays it out. Prints one JSON object (medians of 5).

    .venv/bin/python -m bench.browser.tokens_view_cost
    .venv/bin/python -m bench.browser.tokens_view_cost --shared ../shared --tokens 600

Measured at 2cfe559, cards written once per distinct token, against the code before it
(once per occurrence) in the same runs, twice: 10,000 tokens, 1,264 distinct: 1.85 MB ->
1.07 MB, DOMPurify 693-732 -> 312-342 ms, insert and layout 156-163 -> 125-138 ms, built
in 10-12 -> 7 ms. A third run of this script alone gave 434 ms for DOMPurify: the
browser's figures move by a quarter between runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from explorer import tokens_to_html, train
from harness.app_server import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]

ST_HTML_OPTIONS = {"USE_PROFILES": {"html": True}, "FORCE_BODY": True}  # st.html's
REPEATS = 5

SANITIZE_AND_INSERT_JS = """([markup, options]) => {
    const box = document.getElementById('view');
    box.innerHTML = '';
    const t0 = performance.now();
    const clean = window.DOMPurify.sanitize(markup, options);
    const t1 = performance.now();
    box.innerHTML = clean;
    document.body.offsetHeight;  // lay it out
    return [t1 - t0, performance.now() - t1];
}"""


def purify_source() -> str:
    """Streamlit's bundled DOMPurify as a classic script that sets window.DOMPurify."""
    import streamlit

    folder = Path(streamlit.__file__).parent / "static" / "static" / "js"
    [bundle] = folder.glob("purify.es.*.js")
    source = bundle.read_text(encoding="utf-8")
    export = source[source.rindex("export{") :].split("}")[0]  # export{M as t
    name = export.removeprefix("export{").split(" as ")[0]
    return source.replace(export + "};", f"window.DOMPurify={name};", 1)


def view_html(shared: Path, tokens: int) -> tuple[str, int, float]:
    """The view's HTML, its distinct tokens, and the median ms to build it."""
    text = (shared / "corpora" / "tinyshakespeare.txt").read_text(encoding="utf-8")
    tokenizer = train(text[:300_000], 2000, pattern="gpt4").tokenizer
    ids = tokenizer.encode(text[300_000:600_000])[:tokens]
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        markup = tokens_to_html(tokenizer, ids)
        times.append((time.perf_counter() - started) * 1000)
    return markup, len(set(ids)), statistics.median(times)


def browser_ms(markup: str) -> tuple[float, float]:
    """Median ms for DOMPurify, and for inserting and laying out, in Chromium."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.set_content("<!doctype html><body><div id='view'></div></body>")
            page.add_script_tag(content=purify_source(), type="module")
            page.wait_for_function("() => window.DOMPurify")
            runs = [
                page.evaluate(SANITIZE_AND_INSERT_JS, [markup, ST_HTML_OPTIONS])
                for _ in range(REPEATS)
            ]
        finally:
            browser.close()
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--tokens", type=int, default=10_000, help="tokens in the view")
    args = parser.parse_args()
    markup, distinct, build_ms = view_html(args.shared, args.tokens)
    purify_ms, layout_ms = browser_ms(markup)
    print(
        json.dumps(
            {
                "tokens": args.tokens,
                "distinct": distinct,
                "html_bytes": len(markup.encode("utf-8")),
                "build_ms": round(build_ms, 1),
                "dompurify_ms": round(purify_ms, 1),
                "insert_and_layout_ms": round(layout_ms, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
