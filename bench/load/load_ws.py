"""bench/load/load_test.py's sessions and deep links over Streamlit's websocket protocol.

The same script as the Chromium mode, spoken to the server directly (harness/ws_client.py):
no frontend is parsed, laid out or painted, so the server has the machine to itself.
Times run from sending a request to the message that answers it, read as it arrives:

- a training: from the rerun request carrying the Train button's trigger to the
  "Tokenizer: “first words…” · gpt4 · 500" heading (`train_s`), and to the end of the run that
  follows the page's `st.rerun()` (`train_settled_s`);
- a step: from the request carrying the next-step trigger to the "After step N" label
  (`step_s`), and to the run's `script_finished` (`step_settled_s`);
- a deep link: from opening the websocket to the end of the page's first run, with the
  page's title among its elements.

A browser would also draw what arrives; the Chromium mode's figures include that.
"""

from __future__ import annotations

import asyncio
import html
import time
from typing import TYPE_CHECKING

from bench.load.load_records import DeepLink, Gate, Student
from harness.ws_client import connected
from ui.session import state as keys
from ui.session.run_spec import run_name

if TYPE_CHECKING:
    from harness.app_server import Server

PASTE_LABEL = "Paste text"  # the train_source radio's label for "paste" (pages/train.py)


def error_text(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}"


async def student(
    server: Server,
    me: Student,
    text: str,
    lengths: list[tuple[int, int]],
    vocab: int,
    gate: Gate,
    pattern: str,
    think: float,
) -> None:
    """Open the app, paste `text`, train at the gate, then step `len(lengths)` times."""
    arrived = False
    try:
        started = time.monotonic()
        async with connected(server.port) as client:
            await client.rerun()
            me.open_s = time.monotonic() - started
            await client.rerun(values={keys.TRAIN_SOURCE: ("string_value", PASTE_LABEL)})
            run = await client.rerun(
                values={
                    keys.TRAIN_PASTE: ("string_value", text),
                    keys.TRAIN_VOCAB: ("int_value", vocab),
                }
            )
            if run.widgets[keys.TRAIN_GO].disabled:
                raise RuntimeError(f"Train stayed disabled: {run.text_with('document')!r}")
            gate.arrive()
            arrived = True
            await gate.wait()
            # the heading's end: markdown escapes its first words ("Session 2\\. …")
            heading = run_name("”", pattern, vocab)
            run = await client.rerun(trigger=keys.TRAIN_GO, until=heading)
            me.train_s, me.train_settled_s = run.shown_s, run.finished_s
            me.sidebar_run = run.widgets[keys.SIDEBAR_RUN].raw_value
            await client.rerun(page="animate")
            for step, (before, after) in enumerate(lengths, start=1):
                await asyncio.sleep(think)
                run = await client.rerun(trigger=keys.ANIMATE_NEXT, until=f"After step {step:,}")
                if run.shown_s is None:
                    raise RuntimeError(f"step {step} ended without its 'After step' label")
                me.step_s.append(run.shown_s)
                me.step_settled_s.append(run.finished_s or 0.0)
                shown = html.unescape(run.text_with(f"Step {step}:"))
                if f"shrinks from {before:,} to {after:,} tokens" not in shown:
                    me.mismatches.append(f"step {step}: {shown[:200]!r}")
        me.finished = True
    except Exception as exc:
        me.error = error_text(exc)
    finally:
        if not arrived:
            gate.arrive()


async def open_deep_link(server: Server, me: DeepLink) -> None:
    """Open `me.link` as a new session's first request, as a browser opening the URL does."""
    path, _, query = me.link.partition("?")
    try:
        started = time.monotonic()
        async with connected(server.port) as client:
            me.connected_s = time.monotonic() - started
            run = await client.rerun(page=path, query=query, until=me.title)
            me.seconds = time.monotonic() - started
            headings = [text for kind, text in zip(run.kinds, run.texts) if kind == "heading"]
            me.shown_title = headings[0] if headings else None
            me.exceptions = run.kinds.count("exception")
    except Exception as exc:
        me.error = error_text(exc)


async def open_default_run(server: Server) -> None:
    """One session opens the app (which trains the default run) and leaves."""
    async with connected(server.port) as client:
        await client.rerun()
