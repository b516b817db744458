"""What a class's idle followers cost: N students polling the class's version.

A student's page runs an element-less fragment every FOLLOW_SECONDS
(ui/classroom/session.py) that reads the class's version and returns at once when it
has not moved. This starts a real server on 127.0.0.1, one teacher who starts a class
and N students who join it (harness/ws_client.py's websocket sessions), then, while the
teacher does nothing, has each student send that fragment's rerun as a browser does (the
server's `auto_rerun` message names the fragment and its interval; --interval another),
INTERVAL seconds after the last came back, and reports the server's CPU per poll and in
all. The 60-student lesson itself is bench/classroom/class_load.py.

    python -m bench.classroom.class_poll --students 60 --seconds 15   # at the app's own interval
    python -m bench.classroom.class_poll --students 60 --interval 0.5  # or another

--poll step polls the page's step fragment instead (the one that draws the step: the
first fragment whose elements arrive), as if it were the poller itself
(`st.fragment(run_every=...)` on the step fragment, the design docs/streamlit-internals.md
weighs against the follow fragment's rerun of it).

--redis keeps the classes in a redis-server of its own (BPE_EXPLORER_REDIS_URL, as
`scripts/run.sh --processes` does), and the line adds that server's CPU.

Last line: `60 idle followers every I s: P polls in T s, server CPU C % of one core, M ms a poll`
(with --redis, then `; Redis CPU R % of one core`)
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from harness import app_server
from harness.redis_server import RedisServer
from harness.ws_client import StreamlitClient, connected, device_address
from ui.server.streamlit_internals import ForwardMsg

HERE = Path(__file__).resolve().parents[2]

JOIN_SECONDS = 60  # every student joined (and drew the page once) within this


class FragmentSpy:
    """The socket, passing everything through, noting the fragment the server reruns on a
    timer (`auto_rerun`): the follow fragment, for a student."""

    def __init__(self, socket: object) -> None:
        self.socket = socket
        self.fragment: str | None = None
        self.interval = 0.0  # its run_every, in seconds: the browser's timer
        self.drawing: str | None = None  # the first fragment that draws: the step's

    async def recv(self) -> bytes:
        raw = await self.socket.recv()  # type: ignore[attr-defined]
        message = ForwardMsg()
        message.ParseFromString(raw)
        if message.WhichOneof("type") == "auto_rerun":
            self.fragment = message.auto_rerun.fragment_id
            self.interval = message.auto_rerun.interval
        elif message.WhichOneof("type") == "delta" and message.delta.HasField("new_element"):
            self.drawing = self.drawing or message.delta.fragment_id or None
        return bytes(raw)

    async def send(self, data: bytes) -> None:
        await self.socket.send(data)  # type: ignore[attr-defined]


async def poll(client: StreamlitClient, fragment: str) -> int:
    """One timer tick of the follow fragment, as the browser sends it: the elements drawn."""
    message = client.request(None)
    message.rerun_script.fragment_id = fragment
    await client.socket.send(message.SerializeToString())
    return len((await client.read_run(time.monotonic(), None)).kinds)


async def student(
    port: int,
    code: str,
    joined: asyncio.Event,
    start: list[float],
    polls: list[int],
    which: str = "follow",
    drawn: list[int] | None = None,
    source: str | None = None,
) -> None:
    drawn = [] if drawn is None else drawn
    client: StreamlitClient
    async with connected(port, source=source) as client:  # a device of its own
        spy = FragmentSpy(client.socket)
        client.socket = spy  # type: ignore[assignment]
        await client.rerun(page="animate", query=f"class={code}")
        for _ in range(100):  # the auto_rerun message comes with the run
            if spy.fragment is not None:
                break
            await asyncio.sleep(0.05)
        if spy.fragment is None:
            raise RuntimeError("the student's page has no follow fragment")
        polled = spy.drawing if which == "step" else spy.fragment
        if polled is None:
            raise RuntimeError("the student's page has no step fragment")
        polls.append(0)
        start[2] = start[2] or spy.interval  # the app's own timer, unless one was given
        await joined.wait()
        while time.monotonic() < start[1]:
            await asyncio.sleep(start[2])
            drawn.append(await poll(client, polled))
            polls.append(1)


async def measure(
    server: app_server.Server,
    students: int,
    interval: float,
    seconds: float,
    which: str,
    store_cpu: Callable[[], float] | None = None,
) -> str:
    teacher: StreamlitClient
    async with connected(server.port) as teacher:
        await teacher.rerun(page="animate")
        run = await teacher.rerun(trigger="class_start")
        found = (re.search(r"Teaching class (\w{5})", text) for text in run.texts)
        code = next(match.group(1) for match in found if match)
        joined, start, polls, drawn = (
            asyncio.Event(),
            [0.0, 0.0, interval],
            list[int](),
            list[int](),
        )
        tasks = [
            asyncio.create_task(
                student(server.port, code, joined, start, polls, which, drawn, device_address(k))
            )
            for k in range(students)
        ]
        deadline = time.monotonic() + JOIN_SECONDS
        while len(polls) < students and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        start[0], start[1] = time.monotonic(), time.monotonic() + seconds
        cpu = server.cpu_seconds()
        store_before = store_cpu() if store_cpu else 0.0
        joined.set()
        await asyncio.gather(*tasks)
        wall = time.monotonic() - start[0]
        used = server.cpu_seconds() - cpu
        store_used = store_cpu() - store_before if store_cpu else None
        count = sum(polls)
    polled = " (polling the step fragment)" if which == "step" else ""
    elements = sorted(drawn)[len(drawn) // 2] if drawn else 0
    return (
        f"{students} idle followers{polled} every {start[2]} s: {count:,} polls in {wall:.1f} s, "
        f"server CPU {100 * used / wall:.1f} % of one core, "
        f"{1000 * used / max(1, count):.2f} ms a poll ({elements} elements drawn)"
        + ("" if store_used is None else f"; Redis CPU {100 * store_used / wall:.1f} % of one core")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument(
        "--interval", type=float, default=0.0, help="seconds between polls (0: the app's own)"
    )
    parser.add_argument("--seconds", type=float, default=15, help="how long to measure")
    parser.add_argument(
        "--poll", choices=("follow", "step"), default="follow", help="the fragment each tick reruns"
    )
    parser.add_argument(
        "--redis", action="store_true", help="the classes in a redis-server of the bench's own"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = {"BPE_EXPLORER_RUNS_DIR": str(Path(folder) / "runs")}
        redis = RedisServer.start(Path(folder) / "redis", aof=True) if args.redis else None
        if redis is not None:
            env["BPE_EXPLORER_REDIS_URL"] = redis.url
        try:
            with app_server.running_server(Path(folder) / "server.log", env) as server:
                measured = measure(
                    server,
                    args.students,
                    args.interval,
                    args.seconds,
                    args.poll,
                    redis.cpu_seconds if redis else None,
                )
                print(asyncio.run(measured))
        finally:
            if redis is not None:
                redis.stop()


if __name__ == "__main__":
    main()
