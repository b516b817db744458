"""The server's CPU for one Animate step, measured over many steps of one session.

Not a test. A room of thirty asks for thirty steps at once, and Streamlit runs every
session's script in one interpreter, so a step's CPU times thirty is about what the
last student waits (bench/load/load_test.py). This measures that CPU alone: it starts the
app on a free loopback port (harness/app_server.py), opens one session over Streamlit's
websocket protocol (harness/ws_client.py), goes to Animate on the default run, warms up,
then clicks the next-step button `--steps` times and reads the server's CPU time from
/proc before and after. With `--profile FILE` it also records the steps with py-spy
(raw, folded stacks) when py-spy is installed.

    .venv/bin/python -m bench.load.step_cpu --steps 100
    .venv/bin/python -m bench.load.step_cpu --steps 100 --paste --profile /tmp/step.txt
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.load import load_test, load_ws
from harness.app_server import Server, running_server
from harness.ws_client import StreamlitClient, connected
from ui.session import state as keys
from ui.session.run_spec import run_name

ROOT = Path(__file__).resolve().parents[2]

WARM_UP_STEPS = 10


async def step_many(
    server: Server, steps: int, profile: Path | None, paste: bool
) -> dict[str, float]:
    """Open Animate in one session, warm up, then time `steps` next-step clicks.

    With `paste`, first train one of the load test's texts (~20 KB) to V = 500 as its
    sessions do; else step the default run.
    """
    async with connected(server.port) as client:
        await client.rerun()
        if paste:
            await train_pasted(client)
        await client.rerun(page="animate")
        for step in range(1, WARM_UP_STEPS + 1):
            await client.rerun(trigger=keys.ANIMATE_NEXT, until=f"After step {step:,}")
        spy = start_profile(server, profile)
        cpu, wall = server.cpu_seconds(), time.monotonic()
        for step in range(WARM_UP_STEPS + 1, WARM_UP_STEPS + steps + 1):
            run = await client.rerun(trigger=keys.ANIMATE_NEXT, until=f"After step {step:,}")
            if run.shown_s is None:
                raise RuntimeError(f"step {step} ended without its 'After step' label")
        cpu, wall = server.cpu_seconds() - cpu, time.monotonic() - wall
        stop_profile(spy)
    return {
        "steps": steps,
        "server_cpu_ms_per_step": round(1000 * cpu / steps, 1),
        "wall_ms_per_step": round(1000 * wall / steps, 1),
    }


async def train_pasted(client: StreamlitClient) -> None:
    """Train bench/load/load_test.py's first session text to V = 500, as its students do."""
    text = load_test.session_texts(1)[0]
    await client.rerun(values={keys.TRAIN_SOURCE: ("string_value", load_ws.PASTE_LABEL)})
    await client.rerun(
        values={keys.TRAIN_PASTE: ("string_value", text), keys.TRAIN_VOCAB: ("int_value", 500)}
    )
    await client.rerun(trigger=keys.TRAIN_GO, until=run_name("”", load_test.PATTERN, 500))


def start_profile(server: Server, profile: Path | None) -> subprocess.Popen[bytes] | None:
    if profile is None:
        return None
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    command = [spy, "record", "-p", str(server.process.pid), "-f", "raw", "-o", str(profile)]
    process = subprocess.Popen(
        [*command, "--rate", "500", *os.environ.get("STEP_CPU_SPY", "--gil").split()],
        stdout=subprocess.DEVNULL,
    )
    time.sleep(1)  # py-spy attaches
    return process


def stop_profile(spy: subprocess.Popen[bytes] | None) -> None:
    if spy is not None:
        spy.send_signal(2)  # SIGINT: py-spy writes its file and exits
        spy.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--paste", action="store_true", help="step a load-test text's run")
    parser.add_argument("--profile", type=Path, help="record the steps with py-spy here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = {"BPE_EXPLORER_RUNS_DIR": str(Path(folder) / "runs")}
        with running_server(Path(folder) / "server.log", env) as server:
            figures = asyncio.run(step_many(server, args.steps, args.profile, args.paste))
    figures["load_average"] = round(os.getloadavg()[0], 2)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
