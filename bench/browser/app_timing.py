"""Time the real app in headless Chromium: Train → coloured tokens, and one Animate step.

Not a test. It starts its own Streamlit server on a free port (a fresh one for every cold
training run, since the app caches training results per text and settings), drives
Debian's /usr/bin/chromium with Playwright, and prints a JSON object on its last line.

    .venv/bin/python -m bench.browser.app_timing
    .venv/bin/python -m bench.browser.app_timing --shared /path/to/shared --cold-runs 3

Browser times are taken inside the page: a capturing click listener stamps the click,
and a MutationObserver stamps the moment the awaited element is in the DOM, laid out and
no longer stale (Streamlit marks elements of the previous run with data-stale="true").
A wrapped WebSocket stamps the first and the last message from the server after the
click, and the server's CPU time per click is read from /proc/<pid>/stat.

1. Train → tokens: upload corpora/tinyshakespeare.txt, vocab size 5000, default pattern
   (gpt4); from the click on Train to the new run's coloured token spans on the Train
   page (its preview of the training text), with the result heading and the whole page
   settling as intermediate marks, then the sidebar link to Tokens until its spans show.
2. One Animate step: in the browser, the click on the next-step button until
   "After step N" shows (and until the whole page has settled); on the server side, the
   ui.animate.animation / explorer calls the page makes per step, timed in-process; and the
   whole page rerun under Streamlit's AppTest (the script as the server runs it, plus
   AppTest's own bookkeeping, without the websocket and the browser).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Locator, Page, Playwright, expect, sync_playwright

from harness.app_server import (
    BUSY,
    CHROMIUM,
    CHROMIUM_ARGS,
    IdleWatch,
    Server,
    running_server,
)

ROOT = Path(__file__).resolve().parents[2]

DEFAULT_SHARED = ROOT.parent / "shared"
CORPUS = Path("corpora") / "tinyshakespeare.txt"
VOCAB_SIZE = 5000
PATTERN = "gpt4"  # the Train form's default pre-tokenizer
TARGET_TRAIN_TO_TOKENS_S = 3.0
TARGET_STEP_MS = 100.0

VIEWPORT = {"width": 1400, "height": 1000}
WAIT_SECONDS = 120  # the longest one measured interval may take before we give up
QUIET_SECONDS = 1.0  # no script running for this long: Streamlit has settled
TOKEN_SPANS = '.bpe span[class^="c-"]'  # a coloured token, as explorer.html.render draws it

# Installed before the app loads: stamps the first and the last websocket message from the
# server after the click that started the armed stopwatch (see ARM_STOPWATCH_JS).
SERVER_MESSAGES_JS = """
(() => {
  const Original = window.WebSocket;
  window.WebSocket = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => {
        const watch = window.__stopwatch;
        if (!watch || watch.clickAt === null) return;
        const since = performance.now() - watch.clickAt;
        if (watch.firstMessage === null) watch.firstMessage = since;
        watch.lastMessage = since;
      });
    }
  };
})();
"""

# Arms a stopwatch in the page: the next click starts it, and each milestone records the
# milliseconds from that click to the first DOM change after which it holds.
ARM_STOPWATCH_JS = """
(milestones) => {
  const live = (el) => !el.closest('[data-stale="true"]') && el.getClientRects().length > 0;
  const follows = (mark, el) => mark.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING;
  const matches = (el, m) => {
    const text = el.textContent.trim();
    return (m.exact ? text === m.text : text.startsWith(m.text)) && live(el);
  };
  const holds = (m) => {
    const main = document.querySelector('[data-testid="stMain"]');
    if (!main) return false;
    const mark = [...main.querySelectorAll(m.selector)].find((el) => matches(el, m));
    if (!mark) return false;
    if (m.spans) {
      const spans = main.querySelectorAll(m.spans_selector);
      if (![...spans].some((el) => follows(mark, el) && live(el))) return false;
    }
    return !(m.settled && document.querySelector('[data-stale="true"]'));
  };
  const watch = { clickAt: null, reached: {}, firstMessage: null, lastMessage: null };
  window.__stopwatch = watch;
  if (!window.__stopwatchClicks) {
    window.__stopwatchClicks = true;
    window.addEventListener("click", () => {
      const current = window.__stopwatch;
      if (current && current.clickAt === null) current.clickAt = performance.now();
    }, true);
  }
  const observer = new MutationObserver(() => {
    if (watch.clickAt === null) return;
    const now = performance.now();
    for (const m of milestones) {
      if (!(m.name in watch.reached) && holds(m)) watch.reached[m.name] = now - watch.clickAt;
    }
    if (milestones.every((m) => m.name in watch.reached)) observer.disconnect();
  });
  observer.observe(document.body, {
    subtree: true, childList: true, characterData: true,
    attributes: true, attributeFilter: ["data-stale"],
  });
}
"""


# --- the server: harness/app_server.py ------------------------------------------------


# --- the browser ---------------------------------------------------------------------------


def launch_chromium(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )


@contextmanager
def new_session(browser: Browser, server: Server) -> Iterator[Page]:
    """A fresh browser context (so a fresh Streamlit session) on Train (its own address:
    "/" is the front door)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(SERVER_MESSAGES_JS)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_SECONDS * 1000)
        page.goto(server.url + "train")
        wait_until_idle(page)
        yield page
    finally:
        context.close()


def wait_until_idle(page: Page, quiet_seconds: float = QUIET_SECONDS) -> None:
    """Wait until the page is drawn and no script has run for quiet_seconds."""
    page.wait_for_selector('[data-testid="stAppViewContainer"]')
    watch = IdleWatch(quiet_seconds=quiet_seconds, timeout_seconds=WAIT_SECONDS)
    while not watch.settled(busy=page.locator(BUSY).count() > 0):
        page.wait_for_timeout(100)


def keyed(page: Page, key: str) -> Locator:
    """A widget's element by its key (Streamlit gives its container the class st-key-KEY)."""
    return page.locator(f".st-key-{key}")


def main_area(page: Page) -> Locator:
    return page.locator('[data-testid="stMain"]')


def sidebar_link(page: Page, title: str) -> Locator:
    return page.locator('[data-testid="stSidebarNavLink"]', has_text=title)


def go_to(page: Page, title: str) -> None:
    """Follow a sidebar link (a reload would start a new session) and wait for the page."""
    link = sidebar_link(page, title)
    link.click()
    expect(link).to_have_attribute("aria-current", "page")
    wait_until_idle(page)


@dataclass(frozen=True)
class Milestone:
    """An element that marks a point in time: `selector` whose text is (or starts with)
    `text`, not stale; with spans, a coloured token after it too; with settled, no stale
    element left anywhere (the rerun has finished drawing)."""

    name: str
    selector: str
    text: str
    exact: bool = False
    spans: bool = False
    settled: bool = False
    spans_selector: str = TOKEN_SPANS


def click_and_time(page: Page, target: Locator, milestones: list[Milestone]) -> dict[str, float]:
    """Seconds from the click on target to each milestone, measured in the page."""
    page.evaluate(ARM_STOPWATCH_JS, [asdict(m) for m in milestones])
    target.click()
    names = [m.name for m in milestones]
    page.wait_for_function(
        "(names) => names.every((n) => n in window.__stopwatch.reached)",
        arg=names,
        timeout=WAIT_SECONDS * 1000,
    )
    reached: dict[str, float] = page.evaluate("() => window.__stopwatch.reached")
    return {name: reached[name] / 1000 for name in names}


def server_messages(page: Page) -> tuple[float, float]:
    """Seconds from the last timed click to the first and the last message from the server.

    Read once the page is idle, so the last message is the end of the rerun.
    """
    first, last = page.evaluate(
        "() => [window.__stopwatch.firstMessage, window.__stopwatch.lastMessage]"
    )
    if first is None or last is None:
        raise RuntimeError("no websocket message from the server was seen after the click")
    return first / 1000, last / 1000


# --- 1. train → tokens ---------------------------------------------------------------------


@dataclass(frozen=True)
class TrainTiming:
    """One click on Train, in seconds from the click (all measured in the page)."""

    result_heading_s: float  # "Tokenizer: <new run>" heading shown
    tokens_s: float  # the new run's coloured preview spans shown on the Train page
    settled_s: float  # ... and no stale element left: the rerun has drawn everything
    last_message_s: float  # the last websocket message of the rerun received
    server_cpu_s: float  # CPU the server used from the click until the page was idle
    app_training_s: float | None  # the page's own "Time taken" metric (training only)
    tokens_page_s: float  # then: click on the Tokens link → its coloured spans shown


def run_name(corpus: Path) -> str:
    """The name the app gives the run (ui.session.runs.run_name):
    `tinyshakespeare.txt · gpt4 · 5k`."""
    return f"{corpus.name} · {PATTERN} · {VOCAB_SIZE / 1000:g}k"


def fill_train_form(page: Page, corpus: Path) -> None:
    """Upload the corpus and set the vocab size; the pattern stays the default."""
    keyed(page, "train_source").get_by_text("Upload files", exact=True).click()
    wait_until_idle(page)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(corpus)
    wait_until_idle(page)
    size = f"1 document · {corpus.stat().st_size:,} bytes"
    expect(main_area(page).get_by_text(size)).to_be_visible()
    vocab = keyed(page, "train_vocab").locator("input")
    vocab.fill(str(VOCAB_SIZE))
    vocab.press("Enter")
    wait_until_idle(page)
    expect(keyed(page, "train_go").get_by_role("button")).to_be_enabled()


def reported_training_seconds(page: Page) -> float | None:
    """The Train page's "Time taken" metric in seconds (as "640 ms" or "1.2 s")."""
    metric = main_area(page).locator('[data-testid="stMetric"]', has_text="Time taken")
    value = metric.inner_text().strip().splitlines()[-1]
    found = re.fullmatch(r"<?\s*([\d.]+)\s*(ms|s|min)", value.strip())
    if not found:
        return None
    scale = {"ms": 0.001, "s": 1.0, "min": 60.0}[found[2]]
    return float(found[1]) * scale


def time_training(page: Page, server: Server, corpus: Path) -> TrainTiming:
    """Fill the form, click Train, time it, then follow the sidebar to Tokens and time that."""
    fill_train_form(page, corpus)
    name = run_name(corpus)
    heading = Milestone("result", "h2", f"Tokenizer: {name}")
    cpu_before = server.cpu_seconds()
    marks = click_and_time(
        page,
        keyed(page, "train_go").get_by_role("button"),
        [
            heading,
            Milestone("tokens", "h2", heading.text, spans=True),
            Milestone("settled", "h2", heading.text, spans=True, settled=True),
        ],
    )
    wait_until_idle(page)
    server_cpu = server.cpu_seconds() - cpu_before
    last_message = server_messages(page)[1]
    app_training = reported_training_seconds(page)
    caption = '[data-testid="stCaptionContainer"]'
    tokens_page = click_and_time(
        page,
        sidebar_link(page, "Tokens"),
        [Milestone("tokens", caption, f"Encoding with {name} at", spans=True)],
    )
    wait_until_idle(page)
    return TrainTiming(
        result_heading_s=marks["result"],
        tokens_s=marks["tokens"],
        settled_s=marks["settled"],
        last_message_s=last_message,
        server_cpu_s=server_cpu,
        app_training_s=app_training,
        tokens_page_s=tokens_page["tokens"],
    )


# --- 2a. one Animate step in the browser ----------------------------------------------------


def shown_step(page: Page) -> int:
    """The step on screen, from the "After step N" label (0 when the passage is bytes)."""
    labels = main_area(page).locator("strong").filter(has_text=re.compile(r"^After step [\d,]+$"))
    if labels.count() == 0:
        return 0
    return int(labels.first.inner_text().removeprefix("After step ").replace(",", ""))


def move_slider_to_middle(page: Page) -> None:
    """Click the middle of the step slider's track, so the steps timed are mid-training."""
    track = keyed(page, "animate_step").locator('[data-testid="stSlider"] [role="group"] > div')
    box = track.bounding_box()
    if box is None:
        return
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_until_idle(page)


@dataclass(frozen=True)
class BrowserSteps:
    first_step: int  # the step shown before the first click
    step_ms: list[float]  # click → "After step N" label shown
    settled_ms: list[float]  # click → no stale element left (charts redrawn too)
    first_message_ms: list[float]  # click → the first websocket message of the rerun
    last_message_ms: list[float]  # click → the last one (the server has finished the rerun)
    server_cpu_ms: list[float]  # CPU the server used from the click until the page was idle


def time_browser_steps(page: Page, server: Server, steps: int) -> BrowserSteps:
    """Click the next-step button `steps` times on the Animate page, timing each."""
    go_to(page, "Animate merges")
    move_slider_to_middle(page)
    first = shown_step(page)
    next_button = keyed(page, "animate_next").get_by_role("button")
    step_ms: list[float] = []
    settled_ms: list[float] = []
    first_message_ms: list[float] = []
    last_message_ms: list[float] = []
    server_cpu_ms: list[float] = []
    for step in range(first + 1, first + steps + 1):
        label = Milestone("step", "strong", f"After step {step:,}", exact=True)
        settled = Milestone("settled", "strong", label.text, exact=True, settled=True)
        cpu_before = server.cpu_seconds()
        marks = click_and_time(page, next_button, [label, settled])
        step_ms.append(marks["step"] * 1000)
        settled_ms.append(marks["settled"] * 1000)
        wait_until_idle(page, quiet_seconds=0.5)
        server_cpu_ms.append((server.cpu_seconds() - cpu_before) * 1000)
        first_message, last_message = server_messages(page)
        first_message_ms.append(first_message * 1000)
        last_message_ms.append(last_message * 1000)
    return BrowserSteps(
        first, step_ms, settled_ms, first_message_ms, last_message_ms, server_cpu_ms
    )


# --- 2b. one Animate step's work, in-process ------------------------------------------------


@dataclass(frozen=True)
class ServerSteps:
    first_step: int
    engine_training_s: float  # explorer.train on the corpus, for reference
    total_ms: list[float]
    tokenizer_ms: list[float]  # Tokenizer.at_vocab_size for the new step (the page's cache misses)
    frame_ms: list[float]  # anim.passage_frame: the passage encoded before and after
    html_ms: list[float]  # merge card, narration, two tokens_to_html, caption
    chart_ms: list[float]  # anim_charts.step_row and anim_charts.marked for the two charts


def time_server_steps(text: str, steps: int) -> ServerSteps:
    """The calls Animate makes for one forward step (ui/animate/stage.py), `steps` in a row.

    Stepping forward, the page's tokenizer_at cache already holds the previous step's
    tokenizer (the new "before"), so each step builds one tokenizer; frame_cached misses.
    The charts' Vega-Lite specs are built once per run (charts_cached) and not timed.
    """
    from explorer import tokens_to_html, train
    from ui.animate import animation as anim
    from ui.animate import charts as anim_charts
    from ui.views.formatting import excerpt
    from ui.views.token_text import paragraph_html

    result = train([text], VOCAB_SIZE, pattern=PATTERN)
    tokenizer, history = result.tokenizer, result.history
    passage = excerpt(text, anim.PASSAGE_CHARS)
    count_spec, length_spec = anim_charts.run_charts(history, tokenizer)
    first = max(1, len(history.steps) // 2 - steps // 2)
    before = tokenizer.at_vocab_size(255 + first)
    parts: dict[str, list[float]] = {name: [] for name in ("tokenizer", "frame", "html", "chart")}
    for step in range(first, min(first + steps, len(history.steps) + 1)):
        start = time.perf_counter()
        after = tokenizer.at_vocab_size(256 + step)
        built = time.perf_counter()
        frame = anim.passage_frame(before, after, passage, 255 + step)
        framed = time.perf_counter()
        anim.merge_card_html(tokenizer, history.steps[step - 1])
        paragraph_html(anim.narration(history, step, tokenizer))
        for shown, ids, marked in [
            (before, frame.before.ids, frame.pair_positions),
            (after, frame.after.ids, frame.fused_positions),
        ]:
            tokens_to_html(shown, ids, visible_whitespace=True, highlight=set(marked))
        anim.passage_caption(frame)
        drawn = time.perf_counter()
        row = anim_charts.step_row(history, step, tokenizer)
        anim_charts.marked(count_spec, row, "count")
        anim_charts.marked(length_spec, row, "tokens")
        charted = time.perf_counter()
        for name, (begin, end) in {
            "tokenizer": (start, built),
            "frame": (built, framed),
            "html": (framed, drawn),
            "chart": (drawn, charted),
        }.items():
            parts[name].append((end - begin) * 1000)
        before = after
    total = [sum(values) for values in zip(*parts.values())]
    return ServerSteps(
        first,
        history.seconds,
        total,
        parts["tokenizer"],
        parts["frame"],
        parts["html"],
        parts["chart"],
    )


# --- 2c. one Animate step as a whole page rerun, under AppTest ------------------------------


def time_apptest_steps(text: str, steps: int) -> tuple[int, list[float]]:
    """Milliseconds of AppTest reruns after a click on the next-step button, mid-training.

    The run is trained through the Train page's Paste source (AppTest cannot upload).
    """
    from bench.browser.apptest_runs import trained_on_animate

    app = trained_on_animate(text, VOCAB_SIZE, timeout_seconds=WAIT_SECONDS)
    last = int(app.slider(key="animate_step").max)
    first = max(0, last // 2 - steps // 2)
    app.slider(key="animate_step").set_value(first).run()
    timings: list[float] = []
    for _ in range(steps):
        start = time.perf_counter()
        app.button(key="animate_next").click().run()
        timings.append((time.perf_counter() - start) * 1000)
    if app.exception:
        raise RuntimeError(f"the Animate page failed under AppTest: {app.exception}")
    if app.slider(key="animate_step").value != first + steps:
        raise RuntimeError("the Animate page did not step forward under AppTest")
    return first, timings


# --- figures -------------------------------------------------------------------------------


def percentile(values: list[float], percent: int) -> float:
    """The `percent`th percentile, interpolated between the two nearest values."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[percent - 1]


def rounded(values: list[float], digits: int) -> list[float]:
    return [round(value, digits) for value in values]


def summary(values: list[float], prefix: str, digits: int = 1) -> dict[str, float]:
    """`{prefix}_median` and `{prefix}_p95` of values."""
    return {
        f"{prefix}_median": round(statistics.median(values), digits),
        f"{prefix}_p95": round(percentile(values, 95), digits),
    }


def notes(corpus: Path) -> str:
    """What each figure spans, for the JSON's "notes"."""
    return " ".join(
        [
            f"{corpus.name}, vocab {VOCAB_SIZE}, pattern {PATTERN}.",
            "Cold: each training on a freshly started server (st.cache_resource empty);",
            "cached: a new session on the last server, same upload, so a cache hit.",
            "Browser times run from the click event to the DOM change that shows the",
            "element (laid out, not stale).",
            "train_to_tokens: click Train -> the new run's coloured spans in the Train",
            "page's preview; result_heading: -> the 'Tokenizer: <run>' heading;",
            "page_settled: -> no stale element left; last_server_message: -> the rerun's",
            "last websocket message arrives.",
            "tokens_page_nav: click the sidebar's Tokens link -> its coloured spans.",
            "step_browser: click next-step -> 'After step N' shown; settled: -> the whole",
            "page redrawn (charts too); first/last_server_message: -> the rerun's first/last",
            "websocket message arrives.",
            "server_cpu: the server process's CPU time (/proc, 10 ms ticks) from the click",
            "until the page is idle.",
            "step_server: the ui.animate.animation / explorer calls of one forward step,",
            "in-process, without Streamlit.",
            "step_apptest_rerun: the whole Animate page rerun under AppTest after the click",
            "(script + Streamlit + AppTest's bookkeeping; no websocket, no browser).",
        ]
    )


def corpus_or_exit(shared: Path) -> Path:
    corpus = shared / CORPUS
    if not corpus.is_file():
        sys.exit(
            f"app_timing: the corpus {corpus} is missing. Pass --shared with the folder that "
            "holds corpora/tinyshakespeare.txt (default: the 'shared' folder beside the repo)."
        )
    return corpus


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED, help="the shared folder")
    parser.add_argument("--cold-runs", type=int, default=3, help="trainings, one server each")
    parser.add_argument("--browser-steps", type=int, default=20, help="Animate clicks timed")
    parser.add_argument("--server-steps", type=int, default=100, help="in-process steps timed")
    parser.add_argument("--apptest-steps", type=int, default=30, help="AppTest reruns (0: none)")
    return parser.parse_args()


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def measure_in_browser(
    corpus: Path, cold_runs: int, browser_steps: int, logs: Path
) -> tuple[list[TrainTiming], TrainTiming, BrowserSteps]:
    """Cold trainings on fresh servers; on the last server, a cached one and Animate steps."""
    cold: list[TrainTiming] = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            for run in range(1, cold_runs + 1):
                with running_server(logs / f"server-{run}.log") as server:
                    with new_session(browser, server) as page:
                        cold.append(time_training(page, server, corpus))
                    say(f"cold run {run}: {cold[-1]}")
                    if run < cold_runs:
                        continue
                    with new_session(browser, server) as page:
                        cached = time_training(page, server, corpus)
                        say(f"cached run: {cached}")
                        steps = time_browser_steps(page, server, browser_steps)
                        say(f"browser steps from {steps.first_step}: {rounded(steps.step_ms, 0)}")
        finally:
            browser.close()
    return cold, cached, steps


def main() -> None:
    args = parse_args()
    corpus = corpus_or_exit(args.shared)
    if args.cold_runs < 1 or args.browser_steps < 1 or args.server_steps < 1:
        sys.exit("app_timing: --cold-runs, --browser-steps and --server-steps must be 1 or more")
    text = corpus.read_text(encoding="utf-8")
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="app_timing-") as logs:
        cold, cached, browser = measure_in_browser(
            corpus, args.cold_runs, args.browser_steps, Path(logs)
        )
    server = time_server_steps(text, args.server_steps)
    say(f"server steps from {server.first_step}: median {statistics.median(server.total_ms):.1f}")
    apptest_first, apptest_ms = (
        time_apptest_steps(text, args.apptest_steps) if args.apptest_steps else (0, [])
    )
    tokens = [run.tokens_s for run in cold]
    figures: dict[str, Any] = {
        "train_to_tokens_cold_s": rounded(tokens, 3),
        "train_to_tokens_cold_median_s": round(statistics.median(tokens), 3),
        "train_to_result_heading_cold_s": rounded([run.result_heading_s for run in cold], 3),
        "train_to_page_settled_cold_s": rounded([run.settled_s for run in cold], 3),
        "train_to_last_server_message_cold_s": rounded([run.last_message_s for run in cold], 3),
        "app_reported_training_cold_s": [
            None if run.app_training_s is None else round(run.app_training_s, 3) for run in cold
        ],
        "server_cpu_per_train_click_cold_s": rounded([run.server_cpu_s for run in cold], 2),
        "tokens_page_nav_cold_s": rounded([run.tokens_page_s for run in cold], 3),
        "train_to_tokens_cached_s": round(cached.tokens_s, 3),
        "tokens_page_nav_cached_s": round(cached.tokens_page_s, 3),
        "step_browser_first_step": browser.first_step,
        "step_browser_ms": rounded(browser.step_ms, 1),
        **summary(browser.step_ms, "step_browser_ms"),
        **summary(browser.settled_ms, "step_browser_settled_ms"),
        **summary(browser.first_message_ms, "step_browser_first_server_message_ms"),
        **summary(browser.last_message_ms, "step_browser_last_server_message_ms"),
        **summary(browser.server_cpu_ms, "step_browser_server_cpu_ms", 0),
        "step_server_first_step": server.first_step,
        **summary(server.total_ms, "step_server_ms", 2),
        **summary(server.tokenizer_ms, "step_server_tokenizer_ms", 2),
        **summary(server.frame_ms, "step_server_frame_ms", 2),
        **summary(server.html_ms, "step_server_html_ms", 2),
        **summary(server.chart_ms, "step_server_chart_ms", 2),
        "engine_training_s": round(server.engine_training_s, 3),
        "step_apptest_first_step": apptest_first,
        **(summary(apptest_ms, "step_apptest_rerun_ms") if apptest_ms else {}),
        "targets": {"train_to_tokens_s": TARGET_TRAIN_TO_TOKENS_S, "step_ms": TARGET_STEP_MS},
        "load_average_1min_at_start": round(load_before, 2),
        "notes": notes(corpus),
    }
    print(json.dumps(figures, ensure_ascii=False))


if __name__ == "__main__":
    main()
