"""How long the first sessions of a freshly started server wait, with the preload on.

Not a test. A class starts the server (scripts/run.sh sets BPE_EXPLORER_PRELOAD=1) and
the students arrive at once. This starts the app on a free loopback port with the
preload on, opens one session (which starts the preload), then eight more one after the
other on the pages a class opens first, and prints the seconds each waited for its page
and the server's CPU while they ran. Pass another checkout's folder to time its code.

    .venv/bin/python -m bench.load.first_sessions
    .venv/bin/python -m bench.load.first_sessions /path/to/another/checkout

Measured at 00735ff (the preload in a child Python) against its parent (the preload in a
thread of the server), two runs each, alternating: the first session's page 0.66-0.77 s
against 1.2-4.6 s; the next eight sessions at most 0.49 s against up to 3.2 s; the
server's CPU while they ran 0.8-1.0 s against 0.8-4.6 s (less when the old preload had
finished before them). With the three children started at once (for Compare, which
needs all three: its deep link under load went from 7.7 s back to 5.3-5.8 s, p95), the
next eight sessions waited at most 0.54-0.79 s, the first 0.88 s.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

from harness.app_server import Server, running_server
from harness.ws_client import connected

ROOT = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]

PAGES = ("", "tokens", "animate", "vocabulary", "", "tokens", "animate", "train")


async def first_sessions(server: Server) -> dict[str, object]:
    async with connected(server.port) as first:
        started = time.monotonic()
        await first.rerun()  # the landing page; its run starts the preload
        first_s = time.monotonic() - started
        cpu = server.cpu_seconds()
        waits = []
        for page in PAGES:
            async with connected(server.port) as session:
                started = time.monotonic()
                await session.rerun()
                if page:
                    await session.rerun(page=page)
                waits.append(round(time.monotonic() - started, 2))
        return {
            "first_session_s": round(first_s, 2),
            "next_sessions_s": waits,
            "server_cpu_s": round(server.cpu_seconds() - cpu, 2),
        }


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {"BPE_EXPLORER_RUNS_DIR": str(Path(folder) / "runs"), "BPE_EXPLORER_PRELOAD": "1"}
        with running_server(Path(folder) / "server.log", env) as server:
            figures = asyncio.run(first_sessions(server))
    print(json.dumps({"code": str(ROOT), **figures}))


if __name__ == "__main__":
    main()
