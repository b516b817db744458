"""Reproduce Streamlit's AppSession race: a finished run's drawing lost to a timed fragment's
tick that the event loop handles after the run's runner stopped but before its events.

Not a test. Starts a minimal app (APP below: a title a button's callback changes, and a
fragment with run_every; no code of ours) on 127.0.0.1 with `streamlit run`, opens one
session over the websocket (harness/ws_client.py), then repeats: press the button, and
DELAY ms later send the fragment's tick, as a browser's timer would; the press's run must
draw "Title N". A run whose title never arrives is lost. --busy N starts N threads in
the server that hold the GIL in turns, standing in for other sessions' scripts on a
loaded server; --workaround installs ui/server/run_events.keep_finished_runs in the app.
docs/streamlit-internals.md, "The AppSession race", has the figures.

    .venv/bin/python -m bench.load.app_session_race --trials 150 --busy 4
    .venv/bin/python -m bench.load.app_session_race --trials 150 --busy 4 --workaround

Last line: `busy B, workaround W: L of T presses lost (delays D ms)`
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.app_server import Server, free_port, stop_server
from harness.ws_client import ScriptRun, StreamlitClient, connected, element_text
from ui.server.streamlit_internals import ForwardMsg

ROOT = Path(__file__).resolve().parents[2]
APP = '''\
import os
import threading

import streamlit as st

if os.environ.get("RACE_WORKAROUND") == "1":  # ui/server/run_events.py
    from ui.server.run_events import keep_finished_runs

    keep_finished_runs()


@st.cache_resource
def busy_threads(count: int) -> list[threading.Thread]:
    """Threads that hold the GIL in turns: other sessions' scripts on a loaded server."""

    def spin() -> None:
        while True:
            sum(range(20_000))

    threads = [threading.Thread(target=spin, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads


busy_threads(int(os.environ.get("RACE_BUSY", "0")))
st.session_state.setdefault("presses", 0)


def press() -> None:
    st.session_state.presses += 1


st.title(f"Title {st.session_state.presses}")
st.button("Next", key="next", on_click=press)


@st.fragment(run_every=0.5)
def tick() -> None:
    st.caption("tick")


tick()
'''
FINISHED = ForwardMsg.ScriptFinishedStatus
TRIAL_SECONDS = 2.0  # a press's title arrives within this, or it was lost


def start(folder: Path, busy: int, workaround: bool) -> Server:
    app = folder / "race_app.py"
    app.write_text(APP)
    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", str(app), "--server.port", str(port)]
    command += ["--server.address", "127.0.0.1", "--server.headless", "true"]
    command += ["--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    command += ["--logger.level", "debug"]  # AppSession says when it ignores a runner's event
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "RACE_BUSY": str(busy),
        "RACE_WORKAROUND": "1" if workaround else "0",
    }
    log = folder / "server.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=folder, env=env, stdout=sink, stderr=sink)
    server = Server(process, port, log)
    for _ in range(200):  # bounded: 60 s
        if server.healthy(timeout=2):
            return server
        time.sleep(0.3)
    stop_server(server)
    raise RuntimeError(f"the race app did not start; its log:\n{server.log_tail()}")


async def fragment_of(client: StreamlitClient) -> str:
    """Open the page and read the timed fragment's id off its auto_rerun message."""
    started = time.monotonic()
    await client.socket.send(client.request(None).SerializeToString())
    fragment = ""
    while time.monotonic() - started < 30:
        message = ForwardMsg()
        message.ParseFromString(await asyncio.wait_for(client.socket.recv(), 30))
        kind = message.WhichOneof("type")
        if kind == "auto_rerun":
            fragment = message.auto_rerun.fragment_id
        elif kind == "delta":
            client.read_delta(message, ScriptRun(), None, started)
        elif kind == "new_session":
            client.page_hash = message.new_session.page_script_hash
        elif kind == "script_finished" and fragment:
            return fragment
    raise RuntimeError("the page never named its timed fragment")


async def trial(client: StreamlitClient, fragment: str, presses: int, delay_s: float) -> bool:
    """Press, tick `delay_s` later; whether the press's title ("Title <presses>") arrived."""
    press = client.request("next")
    tick = client.request(None)
    tick.rerun_script.fragment_id = fragment
    tick.rerun_script.is_auto_rerun = True
    await client.socket.send(press.SerializeToString())
    await asyncio.sleep(delay_s)
    await client.socket.send(tick.SerializeToString())
    wanted, shown = f"Title {presses}", False
    deadline = time.monotonic() + TRIAL_SECONDS
    while time.monotonic() < deadline:
        try:
            raw = await asyncio.wait_for(client.socket.recv(), deadline - time.monotonic())
        except TimeoutError:
            break
        message = ForwardMsg()
        message.ParseFromString(raw)
        if message.WhichOneof("type") == "delta" and message.delta.HasField("new_element"):
            shown = shown or element_text(message.delta.new_element) == wanted
            client.read_delta(message, ScriptRun(), None, 0.0)  # the button's id, for the next
        finished = message.WhichOneof("type") == "script_finished"
        if (
            shown
            and finished
            and message.script_finished == FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
        ):
            return True  # the title, then the tick's fragment: all drawn
    return shown


async def run(port: int, trials: int, delays_ms: list[float]) -> int:
    client: StreamlitClient
    async with connected(port) as client:
        fragment = await fragment_of(client)
        lost = 0
        for number in range(1, trials + 1):
            if not await trial(client, fragment, number, random.choice(delays_ms) / 1000):
                lost += 1
        return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--busy", type=int, default=0, help="GIL-holding threads in the server")
    parser.add_argument("--workaround", action="store_true", help="keep_finished_runs in the app")
    parser.add_argument("--delays", default="0,1,2,4,8", help="ms from press to tick, a list")
    args = parser.parse_args()
    delays = [float(d) for d in args.delays.split(",")]
    trials = max(1, min(args.trials, 1000))  # bounded
    with tempfile.TemporaryDirectory() as folder:
        server = start(Path(folder), args.busy, args.workaround)
        try:
            lost = asyncio.run(run(server.port, trials, delays))
        finally:
            stop_server(server)
        ignored = ignored_deltas(server.log)
    print(
        f"busy {args.busy}, workaround {'on' if args.workaround else 'off'}: "
        f"{lost} of {trials} presses lost (delays {args.delays} ms); "
        f"{ignored} deltas of a stopped runner ignored"
    )


def ignored_deltas(log: Path) -> int:
    """How many drawn elements AppSession dropped as a non-current runner's events."""
    text = log.read_text(errors="replace")
    return sum(
        "Ignoring event from non-current ScriptRunner" in line and "ENQUEUE_FORWARD_MSG" in line
        for line in text.splitlines()
    )


if __name__ == "__main__":
    main()
