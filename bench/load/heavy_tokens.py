"""Heavy neighbours and the queue: another visitor's step while three visitors send 20 MB
to Tokens, and a newcomer's wait while one visitor tries to fill the job queue.

Not a test. Starts the app on a free loopback port (harness/app_server.py) and speaks
Streamlit's websocket protocol (harness/ws_client.py); every connection is to 127.0.0.1.

- tokens: a neighbour steps through Animate (the default run, THINK_S between clicks, a
  new session every STEPS_PER_SESSION steps): STEPS_ALONE steps alone, then as many as it
  can while three visitors each send TEXTS_EACH texts of random words (20 MiB each, a
  new one each time) as the Tokens page's text. It prints the neighbour's step p50 /
  p95 / max (seconds from click to the step's label) alone and meanwhile, the heavy
  visitors' seconds per view, the server's CPU seconds and peak RSS (children not
  included).
- queue: one visitor, from 127.0.0.5, keeps FILL_TABS tabs training 1 MB pastes to
  vocab 3,000 (~12 s each in a child), starting the next as soon as one ends or is
  refused. A newcomer, from 127.0.0.9, presses Train on a 300 KB paste (vocab 300, a child
  too) and again every RETRY_S while refused, for at most NEWCOMER_LIMIT_S; it prints the
  newcomer's wait, its tries and the sentences both were shown.

    .venv/bin/python -m bench.load.heavy_tokens              # this checkout
    .venv/bin/python -m bench.load.heavy_tokens /work/main   # another checkout's code
    .venv/bin/python -m bench.load.heavy_tokens --case queue
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

from bench.load.heavy_neighbour import corpus, summary
from harness import app_server
from harness.ws_client import StreamlitClient, connected
from ui.session import state as keys
from ui.session.run_spec import run_name

HERE = Path(__file__).resolve().parents[2]
STEPS_ALONE, MAX_STEPS, STEPS_PER_SESSION, THINK_S = 30, 20_000, 1_000, 0.25
TOKENS_MB, HEAVY_VISITORS, TEXTS_EACH = 20, 3, 2
FILL_TABS, FILL_KB, FILL_VOCAB, FILL_TEXTS = 5, 1_000, 3_000, 12
NEWCOMER_KB, NEWCOMER_VOCAB, RETRY_S, NEWCOMER_LIMIT_S = 300, 300, 5.0, 240.0
FILLER, NEWCOMER = "127.0.0.5", "127.0.0.9"
PASTE_LABEL = "Paste text"
VIEW_TIMEOUT_S = 600


def words(kilobytes: int, seed: int) -> str:
    """Random words, cut at a space after `kilobytes` KB."""
    text = corpus(1 + kilobytes // 1024, seed).decode()[: kilobytes * 1000]
    return text[: text.rfind(" ")]


# --- tokens: three visitors send 20 MB ----------------------------------------------------


async def neighbour_steps(port: int, done: asyncio.Event | None, steps: list[float]) -> None:
    """Step through Animate until `done` is set (STEPS_ALONE steps without one), in a new
    session every STEPS_PER_SESSION steps (the default run has 2,000 merges)."""
    while len(steps) < MAX_STEPS:
        async with connected(port) as client:
            await client.rerun()
            await client.rerun(page="animate")
            for step in range(1, STEPS_PER_SESSION + 1):
                if len(steps) >= STEPS_ALONE if done is None else done.is_set():
                    return
                run = await client.rerun(trigger=keys.ANIMATE_NEXT, until=f"After step {step:,}")
                if run.shown_s is None:
                    raise RuntimeError(f"step {step} ended without its 'After step' label")
                steps.append(run.shown_s)
                await asyncio.sleep(THINK_S)


async def tokens_visitor(port: int, texts: list[str], views: list[float]) -> None:
    """Send these texts to the Tokens page, one view after another."""
    async with connected(port) as client:
        await client.rerun()
        await client.rerun(page="tokens")
        for text in texts:
            started = time.monotonic()
            run = await client.rerun(
                values={keys.TOKENS_TEXT: ("string_value", text)}, timeout=VIEW_TIMEOUT_S
            )
            views.append(time.monotonic() - started)
            if not run.text_with("Characters"):
                raise RuntimeError(f"the Tokens view showed no counts: {run.texts[:10]}")


async def tokens_case(server: app_server.Server) -> dict[str, object]:
    port = server.port
    # made before: making one takes seconds, when this loop could not answer a ping
    texts = [
        [corpus(TOKENS_MB, 100 * visitor + k).decode() for k in range(TEXTS_EACH)]
        for visitor in range(HEAVY_VISITORS)
    ]
    alone: list[float] = []
    await neighbour_steps(port, None, alone)
    cpu = server.cpu_seconds()
    done, during, views = asyncio.Event(), list[float](), list[float]()

    async def heavies() -> None:
        try:
            await asyncio.gather(*(tokens_visitor(port, own, views) for own in texts))
        finally:
            done.set()

    await asyncio.gather(heavies(), neighbour_steps(port, done, during))
    return {
        "alone": summary(alone),
        "with_three_20mb_tokens_visitors": summary(during),
        "tokens_view_s": sorted(round(v, 1) for v in views),
        "server_cpu_s": round(server.cpu_seconds() - cpu, 1),
        "server_peak_rss_mb": round(server.peak_rss_bytes() / 2**20),
    }


# --- queue: one visitor tries to fill it ----------------------------------------------------


async def open_train(client: StreamlitClient) -> None:
    """The Train page, set to paste a text."""
    await client.rerun()
    await client.rerun(page="train")
    await client.rerun(values={keys.TRAIN_SOURCE: ("string_value", PASTE_LABEL)})


async def press_train(client: StreamlitClient, text: str, vocab: int) -> str:
    """Train this paste; what the run ended with: "trained" or the sentence shown."""
    await client.rerun(
        values={keys.TRAIN_PASTE: ("string_value", text), keys.TRAIN_VOCAB: ("int_value", vocab)}
    )
    run = await client.rerun(trigger=keys.TRAIN_GO, timeout=VIEW_TIMEOUT_S)
    if run.text_with(run_name("”", "gpt4", vocab)):
        return "trained"
    return run.text_with("Training stopped") or "neither trained nor stopped"


async def filler_tab(
    port: int, texts: list[str], stop: asyncio.Event, said: dict[str, int]
) -> None:
    """One of the filling visitor's tabs: train, and again as soon as it ends."""
    async with connected(port, source=FILLER) as client:
        await open_train(client)
        for text in texts:
            if stop.is_set():
                break
            outcome = (await press_train(client, text, FILL_VOCAB))[:110]
            said[outcome] = said.get(outcome, 0) + 1
            await asyncio.sleep(0.2)


async def newcomer(port: int) -> dict[str, object]:
    """Press Train, and again every RETRY_S while refused: the wait until trained."""
    text = words(NEWCOMER_KB, 7)
    tries, shown, started = 0, [], time.monotonic()
    async with connected(port, source=NEWCOMER) as client:
        await open_train(client)
        while time.monotonic() - started < NEWCOMER_LIMIT_S:
            tries += 1
            outcome = await press_train(client, text, NEWCOMER_VOCAB)
            if outcome == "trained":
                break
            shown.append(outcome)
            await asyncio.sleep(RETRY_S)
    trained = outcome == "trained"
    return {
        "wait_s": round(time.monotonic() - started, 1) if trained else None,
        "tries": tries,
        "told_first": shown[0] if shown else None,
    }


async def queue_case(server: app_server.Server) -> dict[str, object]:
    stop, said = asyncio.Event(), {}  # type: ignore[var-annotated]
    texts = [  # more than the time allows: NEWCOMER_LIMIT_S over ~12 s a training
        [words(FILL_KB, 1_000 * tab + k) for k in range(FILL_TEXTS)] for tab in range(FILL_TABS)
    ]
    fillers = [asyncio.ensure_future(filler_tab(server.port, own, stop, said)) for own in texts]
    await asyncio.sleep(8)  # every tab has pressed Train: the slot and the places are his
    try:
        found = await newcomer(server.port)
    finally:
        stop.set()
        for task in fillers:
            task.cancel()
        await asyncio.gather(*fillers, return_exceptions=True)
    return {"newcomer": found, "filler_outcomes": said}


async def cases(server: app_server.Server, which: str) -> dict[str, object]:
    client: StreamlitClient
    async with connected(server.port) as client:  # the first session trains the default run
        await client.rerun()
    figures: dict[str, object] = {}
    if which in ("tokens", "both"):
        figures["tokens"] = await tokens_case(server)
    if which in ("queue", "both"):
        figures["queue"] = await queue_case(server)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=str(HERE), help="the checkout to serve")
    parser.add_argument("--case", choices=("tokens", "queue", "both"), default="both")
    args = parser.parse_args()
    app_server.ROOT = Path(args.root).resolve()
    with tempfile.TemporaryDirectory() as folder:
        env = {"BPE_EXPLORER_RUNS_DIR": "off"}
        with app_server.running_server(Path(folder) / "server.log", env) as server:
            figures = asyncio.run(cases(server, args.case))
    print(json.dumps({"code": str(app_server.ROOT), **figures}, indent=1))


if __name__ == "__main__":
    main()
