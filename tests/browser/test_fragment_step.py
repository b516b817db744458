"""A step on Animate reruns the step's fragment, not the page (the cost a room of thirty pays).

Spoken over Streamlit's websocket protocol (harness/ws_client.py) to the suite's real
server, since AppTest cannot run a fragment on its own: the run a click starts must
name the fragment, draw the step's narration and passages, and leave the sidebar and
the page's title and passage box alone.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from harness.app_server import Server
from harness.ws_client import connected
from ui.session import state as keys

CLASSIC = "sample=aaabdaaabac&vocab=259&pattern=none"


async def step_twice(port: int) -> tuple[list, list]:
    async with connected(port) as client:
        await client.rerun(query=CLASSIC)
        page = await client.rerun(page="animate", query=CLASSIC)
        first = await client.rerun(trigger=keys.ANIMATE_NEXT, until="After step 1")
        second = await client.rerun(trigger=keys.ANIMATE_NEXT, until="After step 2")
    return [page, first, second], [first.fragment_ids, second.fragment_ids]


def test_a_step_click_reruns_only_the_step_fragment(streamlit_server: Server) -> None:
    # subtle: its own thread, since a Playwright test before it leaves an event loop running
    with ThreadPoolExecutor(1) as thread:
        runs = thread.submit(asyncio.run, step_twice(streamlit_server.port)).result(timeout=300)
    (page, first, second), fragments = runs
    assert not page.fragment_ids  # opening the page runs all of it
    assert all(ids for ids in fragments) and fragments[0] == fragments[1]
    for run, step in [(first, 1), (second, 2)]:
        assert run.text_with(f"Step {step}:"), run.texts  # the narration
        assert run.text_with(f"After step {step}"), run.texts  # the passages
        assert keys.SIDEBAR_RUN not in run.widgets  # the sidebar was not redrawn
        assert keys.ANIMATE_PASSAGE not in run.widgets  # nor the passage box above
        assert not run.text_with("Animate merges")  # nor the page's title
    # the page itself drew all of those
    assert keys.SIDEBAR_RUN in page.widgets and keys.ANIMATE_PASSAGE in page.widgets
