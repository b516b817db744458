"""A lesson as one self-contained HTML file: inline CSS, script and data, no network.

The file opens from disk in any browser. Its data travels as JSON in a
`<script type="application/json">` element, with `<`, `>` and `&` written as \\u escapes,
so no text in it (a passage may hold `</script>`) can end the element early; the script
puts every text on the page with textContent. The only HTML made here is pre-escaped:
token chips from explorer.html.token_html and merge cards from ui.animate.animation.

    >>> from explorer import train
    >>> result = train("aaabdaaabac", 259, pattern="none")
    >>> page = lesson_html(result.history, result.tokenizer, "</script><b>&")
    >>> "</script><b>" in page, page.count("</script>")
    (False, 2)
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from explorer import MergeHistory, Tokenizer
from ui.animate.lesson import steps as lesson

ASSETS = Path(__file__).resolve().parent / "assets"
_JSON_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}


def script_json(value: Any) -> str:
    """JSON that can sit inside a <script> element: no `<`, `>` or `&` in it.

    >>> script_json({"text": "</script><b>&"})
    '{"text":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    # subtle: U+2028/2029 are fine in JSON.parse, and the data is never run as script
    return text.translate(_JSON_ESCAPES)


def lesson_html(
    history: MergeHistory,
    tokenizer: Tokenizer,
    passage: str,
    *,
    steps: int = lesson.DEFAULT_LESSON_STEPS,
    chunk_counts: Mapping[bytes, int] | None = None,
    tie_rule: str | None = None,
    title: str = "BPE lesson",
) -> str:
    """The lesson of the first `steps` merges (capped by the run's) on `passage`.

    ValueError (lesson.LessonError, or the encoder's) when there is nothing to show.
    """
    data = lesson.lesson_data(
        history,
        tokenizer,
        passage,
        steps=steps,
        chunk_counts=chunk_counts,
        tie_rule=tie_rule,
        title=title,
    )
    used = data["palette"]
    return _TEMPLATE.format(
        title=html.escape(f"{title}: the first {_merges(data['steps'])}"),
        heading=html.escape(title),
        css=_asset("lesson.css"),
        card_css=lesson.card_style(tokenizer, history),
        chips=lesson.palette_html(tokenizer, used, show_ids=False),
        id_chips=lesson.palette_html(tokenizer, used, show_ids=True),
        data=script_json(data),
        script=_asset("lesson.js"),
        about=html.escape(_about(data)),
    )


def _merges(count: int) -> str:
    return f"{count:,} merge" + ("" if count == 1 else "s")


def _about(data: dict[str, Any]) -> str:
    shown, total = data["steps"], data["merges"]
    of = f" of the {total:,} this run made" if total > shown else ""
    return (
        f"The first {_merges(shown)}{of}, on a passage of {data['passage_chars']:,} "
        "characters: each step fuses the most frequent pair of neighbouring tokens in the "
        "training corpus into a new token."
    )


def _asset(name: str) -> str:
    text = (ASSETS / name).read_text(encoding="utf-8")
    if "</" + "script" in text.lower() or "</style" in text.lower():
        raise lesson.LessonError(f"{name} must not close its own element")
    return text


# Braces of CSS and script are in the assets, never here, so str.format is safe.
_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="BPE Merge Explorer">
<title>{title}</title>
<style>{css}</style>
<style>{card_css}</style>
</head>
<body>
<header>
<h1 id="lesson-title">{heading}</h1>
<p class="about">{about} Keys: <kbd>→</kbd> next, <kbd>←</kbd> back, <kbd>Space</kbd>
play or pause, <kbd>Home</kbd> first step, <kbd>End</kbd> last.</p>
</header>
<main>
<noscript><p class="warning">This lesson needs JavaScript to play; allow it for this
file and reload.</p></noscript>
<nav class="controls" aria-label="Step controls">
<button type="button" id="first" aria-keyshortcuts="Home">« First</button>
<button type="button" id="back" aria-keyshortcuts="ArrowLeft">◀ Back</button>
<button type="button" id="play" class="primary" aria-keyshortcuts="Space">▶ Play</button>
<button type="button" id="next" aria-keyshortcuts="ArrowRight">Step ▶</button>
<button type="button" id="last" aria-keyshortcuts="End">Last »</button>
<label class="slider">Step <input type="range" id="step" min="0" value="0"></label>
<output id="step-label" for="step" aria-live="off"></output>
<label class="option"><input type="checkbox" id="show-ids"> Show token ids</label>
<label class="option">Speed <select id="speed">
<option value="0.5">½ step/s</option><option value="1" selected>1 step/s</option>
<option value="2">2 steps/s</option><option value="4">4 steps/s</option></select></label>
</nav>
<section aria-label="This step">
<div id="card"></div>
<p id="narration" class="narration" aria-live="polite"></p>
<div class="passages">
<div class="passage" id="before-box"><h2 id="before-label"></h2>
<div id="before" class="scroll" tabindex="0" role="region"
 aria-labelledby="before-label"></div></div>
<div class="passage" id="after-box"><h2 id="after-label"></h2>
<div id="after" class="scroll" tabindex="0" role="region"
 aria-labelledby="after-label"></div></div>
</div>
<p id="caption" class="caption"></p>
</section>
<section class="table-box" aria-labelledby="table-title">
<h2 id="table-title">Pair counts in the training corpus</h2>
<p id="table-note" class="caption"></p>
<table id="pairs">
<thead><tr><th scope="col">Rank</th><th scope="col">Pair</th>
<th scope="col">Count</th><th scope="col">Note</th></tr></thead>
<tbody></tbody>
</table>
</section>
<section class="charts" aria-label="Charts">
<svg id="count-chart" role="img" viewBox="0 0 480 280"></svg>
<svg id="length-chart" role="img" viewBox="0 0 480 280"></svg>
</section>
</main>
<footer><p>Made with BPE Merge Explorer. This file plays offline: no server, no network.</p>
</footer>
<div hidden id="chips">{chips}</div>
<div hidden id="id-chips">{id_chips}</div>
<script type="application/json" id="lesson-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
