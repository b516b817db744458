"""Two real Streamlit servers sharing one Redis and one runs folder, as
`scripts/run.sh --processes` runs them: a teacher on one, a student on the other
(websocket sessions, harness/ws_client.py). The student opens the class's link on the
other server, finds its tokenizer in the shared folder, follows the teacher's step and
answers; then the student's server is killed (SIGKILL) and their link, opened on the
live server, seats them where they were, their answer kept."""

from __future__ import annotations

import asyncio
import re
import signal
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qs

from harness import app_server
from harness.class_figures import shown_step
from harness.redis_server import RedisServer
from harness.ws_client import ScriptRun, StreamlitClient, connected
from ui.session import state as keys

TEACHING = re.compile(r"Teaching class (\w{5})")
SEATED = re.compile(r"Following the teacher\W*class (\w{5}) as (.+)")


def seated_as(run: ScriptRun) -> tuple[str, str] | None:
    found = (SEATED.search(text) for text in run.texts)
    match = next((match for match in found if match), None)
    return None if match is None else (match.group(1), match.group(2).strip())


def step_of(run: ScriptRun) -> int | None:
    steps = [shown_step(text) for text in run.texts]
    return next((step for step in reversed(steps) if step is not None), None)


async def lesson(first: app_server.Server, second: app_server.Server) -> dict[str, object]:
    seen: dict[str, object] = {}
    async with connected(first.port, source="127.0.4.1") as teacher:
        await teacher.rerun(page="animate")
        run = await teacher.rerun(trigger=keys.CLASS_START)
        found = (TEACHING.search(text) for text in run.texts)
        code = next(match.group(1) for match in found if match)
        student: StreamlitClient
        async with connected(second.port, source="127.0.4.2") as student:
            joined = await student.rerun(page="animate", query=f"class={code}")
            seen["joined"] = seated_as(joined)
            seen["query"] = parse_qs(student.query_string)
            for _ in range(2):
                await teacher.rerun(trigger=keys.ANIMATE_NEXT)
            seen["followed"] = step_of(await student.rerun())  # the follow's rerun
            await teacher.rerun(trigger=keys.CLASS_ASK)
            asked = await student.rerun()
            options = list(asked.widgets[keys.CLASS_ANSWER].options)  # the radio's, as shown
            await student.rerun(values={keys.CLASS_ANSWER: ("string_value", options[1])})
            sent = await student.rerun(trigger=keys.CLASS_SEND)
            seen["sent"] = any("Your answer is in" in text for text in sent.texts)
            second.process.send_signal(signal.SIGKILL)  # the student's server dies
            second.process.wait(timeout=30)
        async with connected(first.port, source="127.0.4.2") as again:  # the link, elsewhere
            back = await again.rerun(page="animate", query=student.query_string)
            seen["back"] = seated_as(back)
            seen["back_step"] = step_of(back)
            seen["kept"] = any("Your answer is in" in text for text in back.texts)
        await teacher.rerun(trigger=keys.CLASS_END)
    return seen


def test_a_class_across_two_servers_survives_one_killed(tmp_path: Path) -> None:
    from tests.app.classroom.conftest import require_redis

    require_redis()
    redis = RedisServer.start(tmp_path / "redis", aof=True)
    env = {"BPE_EXPLORER_REDIS_URL": redis.url, "BPE_EXPLORER_RUNS_DIR": str(tmp_path / "runs")}
    servers: list[app_server.Server] = []
    try:
        servers = [app_server.start_server(tmp_path / f"server{k}.log", env) for k in range(2)]
        with ThreadPoolExecutor(1) as thread:  # a loop of its own (see test_class_clients)
            seen = thread.submit(asyncio.run, lesson(*servers)).result(timeout=600)
    finally:
        for server in servers:
            app_server.stop_server(server)
        redis.stop()
    assert seen["joined"] is not None, seen  # the run came from the shared folder
    code, name = seen["joined"]  # type: ignore[misc]
    query = seen["query"]
    assert query["class"] == [code] and query["seat"], query  # type: ignore[index]
    assert seen["followed"] == 2, seen
    assert seen["sent"], seen
    assert seen["back"] == (code, name), seen  # the same seat, on the live server
    assert seen["back_step"] == 2 and seen["kept"], seen
