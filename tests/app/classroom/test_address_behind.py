"""A real server and websocket sessions (harness/ws_client.py): a student's page whose
address is a step behind the class when a question comes follows the class through the
question, the answer and the reveal, and never says "You stepped away".

The class's load bench on three processes showed it after a question: the whole page at
the question's step, then (the answer's run) the step before and "You stepped away". The
teacher had stepped and asked between two of the page's looks, so the rerun the page sent
still carried the step it showed last in its address (`animate_step=`), and the
question's hidden merge gave the step slider a new range: Streamlit took the address's
step over the class's (ui/animate/controls.py `url_binding`)."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from harness import app_server
from harness.class_figures import shown_step
from harness.ws_client import ScriptRun, StreamlitClient, connected
from ui.session import state as keys

TEACHING = re.compile(r"Teaching class (\w{5})")
AWAY = "You stepped away"


def step_of(run: ScriptRun) -> int | None:
    steps = [shown_step(text) for text in run.texts]
    return next((step for step in reversed(steps) if step is not None), None)


async def lesson(port: int) -> list[tuple[str, int | None, bool]]:
    """The student's runs: what asked for each, the step it drew, and whether it said away."""
    drawn: list[tuple[str, int | None, bool]] = []

    def note(what: str, run: ScriptRun) -> None:
        drawn.append((what, step_of(run), bool(run.text_with(AWAY))))

    async with connected(port, source="127.0.5.1") as teacher:
        await teacher.rerun(page="animate")
        found = (TEACHING.search(t) for t in (await teacher.rerun(trigger=keys.CLASS_START)).texts)
        code = next(match.group(1) for match in found if match)
        student: StreamlitClient
        async with connected(port, source="127.0.5.2") as student:
            await student.rerun(page="animate", query=f"class={code}")
            await teacher.rerun(trigger=keys.ANIMATE_NEXT)
            note("follow", await student.rerun())  # the page at step 1, its address too
            await teacher.rerun(trigger=keys.ANIMATE_NEXT)  # step 2 and a question on it,
            await teacher.rerun(trigger=keys.CLASS_ASK)  # before the page looks again
            asked = await student.rerun()
            note("question", asked)
            options = list(asked.widgets[keys.CLASS_ANSWER].options)
            note(
                "pick",
                await student.rerun(values={keys.CLASS_ANSWER: ("string_value", options[0])}),
            )
            note("send", await student.rerun(trigger=keys.CLASS_SEND))
            await teacher.rerun(trigger=keys.CLASS_REVEAL)  # the teacher on to step 3
            await teacher.rerun()
            note("reveal", await student.rerun())
            note("again", await student.rerun())
        await teacher.rerun(trigger=keys.CLASS_END)
    return drawn


def test_a_page_behind_the_class_stays_with_it_through_a_question(tmp_path: Path) -> None:
    env = {"BPE_EXPLORER_RUNS_DIR": str(tmp_path / "runs")}
    server = app_server.start_server(tmp_path / "server.log", env)
    try:
        with ThreadPoolExecutor(1) as thread:  # a loop of its own (see test_class_clients)
            drawn = thread.submit(asyncio.run, lesson(server.port)).result(timeout=600)
    finally:
        app_server.stop_server(server)
    assert not [run for run in drawn if run[2]], drawn  # never "You stepped away"
    assert [step for _, step, _ in drawn] == [1, 2, 2, 2, 3, 3], drawn
