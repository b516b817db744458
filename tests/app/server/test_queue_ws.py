"""The job queue, over Streamlit's websocket: one visitor filling it from several tabs is
refused a third place, and gives its latest to a newcomer from another address, whose
training then runs before that visitor's second.

A real server on 127.0.0.1 (one slot, two waiting places); each tab is a websocket
session (harness/ws_client.py) coming from a loopback address of its own visitor, so the
server sees 127.0.0.5 for the one filling the queue and 127.0.0.9 for the newcomer.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

from harness.app_server import Server, running_server
from harness.ws_client import ScriptRun, StreamlitClient, connected
from ui.server.child_jobs import QUEUE_VARIABLE, SLOTS_VARIABLE
from ui.session import state as keys
from ui.session.run_spec import run_name

FILLER, NEWCOMER = "127.0.0.5", "127.0.0.9"
PASTE_LABEL = "Paste text"
WAIT_S = 90  # a bound on every wait below


class ProgressClient(StreamlitClient):
    """A session that also keeps what its progress bars say, as they say it."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.progress: list[str] = []
        self.changed = asyncio.Event()

    def read_delta(self, message: Any, run: ScriptRun, until: str | None, t0: float) -> None:
        super().read_delta(message, run, until, t0)
        element = message.delta.new_element
        if message.delta.WhichOneof("type") == "new_element" and element.HasField("progress"):
            self.progress.append(element.progress.text)
            self.changed.set()

    async def heard(self, needle: str) -> None:
        """Wait until a progress bar has said `needle`."""
        while not any(needle in text for text in self.progress):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), WAIT_S)


def words(kilobytes: int, seed: int) -> str:
    """Random words: a text no cache has, long enough (over 256 KB) to train in a child."""
    rng = random.Random(seed)
    return " ".join(
        "".join(rng.choices("abcdefghij", k=rng.randint(2, 7))) for _ in range(kilobytes * 200)
    )


@asynccontextmanager
async def tab(server: Server, address: str) -> AsyncIterator[ProgressClient]:
    """A session from `address` on the Train page, pasting text."""
    async with connected(server.port, ProgressClient, source=address) as client:
        await client.rerun()
        await client.rerun(page="train")
        await client.rerun(values={keys.TRAIN_SOURCE: ("string_value", PASTE_LABEL)})
        yield client


def train(client: ProgressClient, text: str, vocab: int) -> asyncio.Task[ScriptRun]:
    """Press Train on this text (the run ends when the training does, or is refused)."""

    async def go() -> ScriptRun:
        run = await client.rerun(
            values={
                keys.TRAIN_PASTE: ("string_value", text),
                keys.TRAIN_VOCAB: ("int_value", vocab),
            }
        )
        assert not run.widgets[keys.TRAIN_GO].disabled
        return await client.rerun(trigger=keys.TRAIN_GO, timeout=WAIT_S)

    return asyncio.ensure_future(go())


async def fill_then_arrive(server: Server) -> None:
    async with AsyncExitStack() as tabs:
        filler = [await tabs.enter_async_context(tab(server, FILLER)) for _ in range(4)]
        newcomer = await tabs.enter_async_context(tab(server, NEWCOMER))
        texts = [words(400, seed) for seed in range(4)]
        long_jobs = [train(filler[0], texts[0], 30_000)]
        await filler[0].heard("Counting chunks")  # the slot: it trains for minutes
        for place, client in enumerate(filler[1:3], start=1):
            long_jobs.append(train(client, texts[place], 30_000))
            await client.heard(f"Waiting for the server: {place} job")  # the two places
        long_jobs.append(train(filler[3], texts[3], 30_000))  # a fourth tab of his
        refused = await asyncio.wait_for(long_jobs[3], WAIT_S)
        assert refused.text_with("you already have 3 jobs running or waiting")
        quick = train(newcomer, words(300, 99), 300)
        given_way = await asyncio.wait_for(long_jobs[2], WAIT_S)  # his latest gives way
        assert given_way.text_with("this job gave its place in the queue to another visitor")
        await newcomer.heard("1 job ahead")  # only his running one: it overtook his second
        long_jobs[0].cancel()
        await filler[0].socket.close()  # a closed tab: the server ends its child
        finished = await asyncio.wait_for(quick, WAIT_S)
        assert finished.text_with(run_name("”", "gpt4", 300)), finished.texts[:20]  # trained
        assert not long_jobs[1].done()  # his second still waits (or has just begun)
        long_jobs[1].cancel()


def test_one_visitor_cannot_hold_the_queue_against_a_newcomer(tmp_path: Path) -> None:
    env = {
        SLOTS_VARIABLE: "1",
        QUEUE_VARIABLE: "2",
        "BPE_EXPLORER_RUNS_DIR": "off",
    }
    # subtle: in a thread of its own, as the other websocket tests: a worker that ran the
    # browser tests first has Playwright's event loop running in this one
    with running_server(tmp_path / "server.log", env) as server, ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, fill_then_arrive(server)).result(timeout=600)
