"""What a link's hostile pattern costs a running server: its RSS and each session's wait.

Not a test. Starts the app on a free loopback port, opens one ordinary session (so the
default sample is trained and the server warm), then one new session per link below,
one after the other, each as a visitor who followed the link; prints the server's RSS
(VmRSS) before and after each, its peak (VmHWM), each session's wait, the server's CPU
time meanwhile, and whether the page told the visitor why the link's pattern was not used.
Pass another checkout's folder to measure its code (careful: before issue 21, each
nested-repeat link cost the server 1.4-2.7 GB, the four-level one past 20 GB).

    .venv/bin/python -m bench.load.hostile_links
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

from harness.app_server import Server, proc_status_kib, running_server
from harness.ws_client import connected

ROOT = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]

SLOW = r"(?:[\w\s]|\w\s)+\d"
LINKS = [  # issue 21's: three distinct nested repeats, a four-level one, a slow one twice
    {"sample": "aaabdaaabac", "pattern": "(?:(?:a{100}){100}){1000}"},
    {"sample": "aaabdaaabac", "pattern": "(?:(?:b{100}){100}){1000}"},
    {"sample": "aaabdaaabac", "pattern": "(?:(?:c{100}){100}){1000}"},
    {"sample": "aaabdaaabac", "pattern": "(?:(?:(?:a{100}){100}){100}){100}"},
    {"sample": "shakespeare", "pattern": SLOW},
    {"sample": "shakespeare", "pattern": SLOW},
]


def rss_mb(server: Server, field: str = "VmRSS") -> float:
    return round(proc_status_kib(server.process.pid, field) / 1024, 1)


async def open_links(server: Server) -> dict[str, object]:
    async with connected(server.port) as warm:
        await warm.rerun()
    rows = []
    for link in LINKS:
        before, cpu = rss_mb(server), server.cpu_seconds()
        async with connected(server.port) as visitor:
            started = time.monotonic()
            run = await visitor.rerun(query=urlencode(link))
            waited = round(time.monotonic() - started, 2)
        told = any("pre-tokenizer pattern" in text for text in run.texts)
        rows.append(
            {"link": link, "rss_before_mb": before, "rss_after_mb": rss_mb(server),
             "wait_s": waited, "server_cpu_s": round(server.cpu_seconds() - cpu, 2),
             "notice": told}
        )  # fmt: skip
    return {"rows": rows, "peak_rss_mb": rss_mb(server, "VmHWM")}


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {"BPE_EXPLORER_RUNS_DIR": str(Path(folder) / "runs")}
        with running_server(Path(folder) / "server.log", env) as server:
            figures = asyncio.run(open_links(server))
    print(json.dumps({"code": str(ROOT), **figures}, indent=1))


if __name__ == "__main__":
    main()
