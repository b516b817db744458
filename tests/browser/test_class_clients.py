"""Holding a class, as a hostile visitor would try it (issue 35 §3), told apart by address:
websocket sessions (harness/ws_client.py) on the suite's real server, each from a
loopback address of its own, as a room's devices are on a network.

One address teaches at most two classes (a third is told why, a teacher elsewhere starts
one); one address takes at most four seats in a class (a fifth is told why, a student
elsewhere joins); a device that pressed Leave and opens the link again sits in its own
seat. Each teacher ends their class at the end, so the shared server is left as found.
"""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor

from harness.app_server import Server
from harness.ws_client import ScriptRun, StreamlitClient, connected
from ui.session import state as keys

TEACHING = re.compile(r"Teaching class (\w{5})")
SEATED = re.compile(r"Following the teacher\W*class \w{5} as (.+)")
BOT, TEACHER, FLOOD, STUDENT, RETURNING = (f"127.0.3.{k}" for k in range(1, 6))


def code_of(run: ScriptRun) -> str | None:
    found = (TEACHING.search(text) for text in run.texts)
    return next((match.group(1) for match in found if match), None)


def plain(run: ScriptRun) -> str:
    return re.sub(r"\\(.)", r"\1", " ".join(run.texts))  # Markdown's escapes undone


async def start(client: StreamlitClient) -> ScriptRun:
    await client.rerun(page="animate")
    return await client.rerun(trigger=keys.CLASS_START)


async def join(port: int, code: str, source: str, *, leave: bool = False) -> str:
    """A session opening the join link: the name it sits as, or the page's words."""
    async with connected(port, source=source) as student:
        run = await student.rerun(page="animate", query=f"class={code}")
        found = (SEATED.search(text) for text in run.texts)
        name = next((match.group(1).strip() for match in found if match), None)
        if name is not None and leave:
            await student.rerun(trigger=keys.CLASS_LEAVE)
        return f"seated as {name}" if name is not None else plain(run)


async def attack(port: int) -> dict[str, object]:
    seen: dict[str, object] = {}
    async with (
        connected(port, source=BOT) as first,
        connected(port, source=BOT) as second,
        connected(port, source=BOT) as third,
        connected(port, source=TEACHER) as teacher,
    ):
        codes = [code_of(await start(first)), code_of(await start(second))]
        seen["third"] = plain(await start(third))
        seen["teacher"] = code_of(await start(teacher))
        code = codes[0] or ""
        seen["flood"] = [await join(port, code, FLOOD) for _ in range(5)]
        seen["student"] = await join(port, code, STUDENT)
        seen["left"] = await join(port, code, RETURNING, leave=True)
        seen["again"] = await join(port, code, RETURNING)
        seen["codes"] = codes
        for client in (first, second, teacher):
            await client.rerun(trigger=keys.CLASS_END)
    return seen


def test_one_address_holds_two_classes_and_four_seats(streamlit_server: Server) -> None:
    # subtle: its own thread, since a Playwright test before it leaves an event loop running
    with ThreadPoolExecutor(1) as thread:
        seen = thread.submit(asyncio.run, attack(streamlit_server.port)).result(timeout=600)
    assert all(seen["codes"]), seen  # type: ignore[union-attr]
    assert "your address already teaches 2 classes" in str(seen["third"])
    assert seen["teacher"], seen  # a teacher from another address is not kept out
    flood = seen["flood"]
    assert isinstance(flood, list)
    assert [str(result).startswith("seated") for result in flood] == [True] * 4 + [False]
    assert "your address already holds 4 seats in this class" in flood[4]
    assert str(seen["student"]).startswith("seated")
    assert seen["again"] == seen["left"] and str(seen["left"]).startswith("seated")
