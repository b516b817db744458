"""Where one Animate step's browser time goes: a Chromium trace and a JavaScript CPU
profile of a few clicks on the next-step button (bench/browser/app_timing.py's setup).

Not a test. It starts its own server, trains tinyshakespeare at vocab 5000 in a browser
session, opens Animate mid-training, then clicks next-step `--steps` times under a
performance trace (main-thread events by name: script, style, layout, paint, parse) and
V8's sampling profiler (self time by script file and by function), and prints both
tables as JSON on its last line, per step.

    .venv/bin/python -m bench.browser.step_profile --shared ../shared --steps 10
"""

from __future__ import annotations

import argparse
import collections
import json
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from bench.browser.app_timing import (
    DEFAULT_SHARED,
    Milestone,
    click_and_time,
    corpus_or_exit,
    go_to,
    keyed,
    launch_chromium,
    move_slider_to_middle,
    new_session,
    running_server,
    shown_step,
    time_training,
    wait_until_idle,
)

# Top-level main-thread work as DevTools names it (RunTask's children).
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8"]
SAMPLING_INTERVAL_US = 200
CLICK_MARK = "step-click"
# A mark in the trace at each click (the stopwatch's own listener runs in the same event).
CLICK_MARK_JS = (
    f"""() => window.addEventListener("click", () => console.timeStamp("{CLICK_MARK}"), true)"""
)


def _file(node: dict[str, Any]) -> str:
    return node["callFrame"]["url"].rsplit("/", 1)[-1] or "(native)"


Window = tuple[float, float]  # microseconds on the trace's clock: a click, and the step shown


def inside(at: float, windows: list[Window]) -> bool:
    return any(start <= at <= end for start, end in windows)


def self_times(
    profile: dict[str, Any], windows: list[Window]
) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """Milliseconds of samples taken from a click to its step shown, by script file (self
    time, and total time: the file anywhere on the stack) and self time by
    `function (file)`, a native function named with its caller's file (so a forced layout
    shows who forced it)."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}
    by_node: collections.Counter[int] = collections.Counter()
    at = profile["startTime"]
    for sample, delta in zip(profile["samples"], profile["timeDeltas"]):
        at += delta
        if inside(at, windows):
            by_node[sample] += delta
    by_file: collections.Counter[str] = collections.Counter()
    in_file: collections.Counter[str] = collections.Counter()
    by_function: collections.Counter[str] = collections.Counter()
    for node_id, micros in by_node.items():
        node = nodes[node_id]
        file = _file(node)
        by_file[file] += micros / 1000
        caller = nodes.get(parent.get(node_id, -1))
        where = f"{file} from {_file(caller)}" if file == "(native)" and caller else file
        by_function[f"{node['callFrame']['functionName'] or '(anonymous)'} ({where})"] += (
            micros / 1000
        )
        files, walk = set(), node_id
        while walk in nodes:
            files.add(_file(nodes[walk]))
            walk = parent.get(walk, -1)
        for each in files - {"(native)"}:
            in_file[each] += micros / 1000
    return dict(by_file), dict(in_file), dict(by_function)


def trace_totals(
    events: list[dict[str, Any]], thread: tuple[int, int], windows: list[Window]
) -> dict[str, float]:
    """Milliseconds of the renderer main thread's CPU time (the events' thread duration,
    which a busy machine inflates less than their wall time) by event name; nested events
    count in their own name too, so the rows overlap; RunTask is the thread's whole work."""
    totals: collections.Counter[str] = collections.Counter()
    for event in events:
        if (event.get("pid"), event.get("tid")) != thread or event.get("ph") != "X":
            continue
        if inside(event["ts"], windows):
            totals[event["name"]] += event.get("tdur", 0) / 1000
    totals.pop("CpuProfiler::StartProfiling", None)  # the profiler's own start
    return dict(totals)


def main_thread(events: list[dict[str, Any]]) -> tuple[int, int]:
    """The (pid, tid) of the renderer's main thread (the busiest CrRendererMain)."""
    names = [
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
    ]
    busy: collections.Counter[tuple[int, int]] = collections.Counter()
    for event in events:
        key = (event.get("pid"), event.get("tid"))
        if key in names and event.get("ph") == "X":
            busy[key] += event.get("dur", 0)
    return busy.most_common(1)[0][0]


def step_windows(events: list[dict[str, Any]], shown_ms: list[float]) -> list[Window]:
    """Each click's console.timeStamp (CLICK_MARK_JS) to its step shown."""
    clicks = sorted(
        e["ts"]
        for e in events
        if e.get("name") == "TimeStamp"
        and e.get("args", {}).get("data", {}).get("message") == CLICK_MARK
    )
    if len(clicks) != len(shown_ms):
        raise RuntimeError(f"{len(clicks)} click marks in the trace for {len(shown_ms)} clicks")
    return [(click, click + ms * 1000) for click, ms in zip(clicks, shown_ms)]


def top(table: dict[str, float], count: int, per: int) -> dict[str, float]:
    rows = sorted(table.items(), key=lambda item: -item[1])[:count]
    return {name: round(ms / per, 2) for name, ms in rows}


def profile_steps(shared: Path, steps: int, logs: Path) -> dict[str, Any]:
    corpus = corpus_or_exit(shared)
    with sync_playwright() as playwright, running_server(logs / "server.log") as server:
        browser = launch_chromium(playwright)
        try:
            with new_session(browser, server) as page:
                time_training(page, server, corpus)
                go_to(page, "Animate merges")
                move_slider_to_middle(page)
                next_button = keyed(page, "animate_next").get_by_role("button")
                page.evaluate(CLICK_MARK_JS)
                cdp = page.context.new_cdp_session(page)
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": SAMPLING_INTERVAL_US})
                trace = logs / "trace.json"
                browser.start_tracing(page=page, path=str(trace), categories=TRACE_CATEGORIES)
                cdp.send("Profiler.start")
                shown: list[float] = []
                for _ in range(steps):
                    label = f"After step {shown_step(page) + 1:,}"
                    mark = Milestone("step", "strong", label, exact=True, settled=True)
                    shown.append(click_and_time(page, next_button, [mark])["step"] * 1000)
                    wait_until_idle(page, quiet_seconds=0.5)
                profile = cdp.send("Profiler.stop")["profile"]
                (logs / "profile.cpuprofile").write_text(json.dumps(profile))
                browser.stop_tracing()
        finally:
            browser.close()
    events = json.loads(trace.read_text())["traceEvents"]
    windows = step_windows(events, shown)
    by_file, in_file, by_function = self_times(profile, windows)
    return {
        "steps": steps,
        "settled_ms": [round(ms, 1) for ms in shown],
        "main_thread_cpu_ms_per_step": top(
            trace_totals(events, main_thread(events), windows), 25, steps
        ),
        "js_self_ms_per_step_by_file": top(by_file, 15, steps),
        "js_total_ms_per_step_by_file": top(in_file, 15, steps),
        "js_self_ms_per_step_by_function": top(by_function, 30, steps),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED, help="the shared folder")
    parser.add_argument("--steps", type=int, default=10, help="next-step clicks profiled")
    parser.add_argument(
        "--keep",
        type=Path,
        help="a folder to keep the trace and the profile in (DevTools opens both)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="step_profile-") as logs:
        kept = args.keep or Path(logs)
        kept.mkdir(parents=True, exist_ok=True)
        print(json.dumps(profile_steps(args.shared, args.steps, kept), indent=1))


if __name__ == "__main__":
    main()
