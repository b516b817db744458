"""Time Animate's pair table per step on tinyshakespeare at vocab size 5000 (issue 12: < 100 ms).

Not a test. Two measures, each printed as medians and p95 in a JSON object:

1. table: the pair table's own work in-process (ui.animate.pair_table.tables.table_at and the
   rows the page draws), for a cold jump to a step nothing is kept for (split back from the last
   step), and for a step forward from the step before (one `advance`); and the work done
   once per run (counting the corpus, bringing it to the last step);
2. page: the whole Animate page rerun under Streamlit's AppTest with the table shown,
   after a click on the next-step button and after a jump with the step slider (AppTest
   reruns the whole script where the server reruns only the step's fragment, so this is
   an upper bound on the server's time);
3. server: a real `streamlit run` server, spoken to over its websocket
   (harness/ws_client.py) as a browser does: from the rerun request of a click on the
   next-step button, or of a jump with the slider, to the run's script_finished message
   (the step's fragment alone, with the table; loopback, no browser).

    .venv/bin/python -m bench.engine.pair_table_timing [--shared /work/shared] [--steps 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from explorer import train
from explorer.analysis.pairs.pair_table import chunks_touched, sequences_after
from explorer.training.corpus import count_chunks
from ui.animate.pair_table import tables as pair_tables
from ui.animate.pair_table.view import table_rows
from ui.views.token_text import pair_text

ROOT = Path(__file__).resolve().parents[2]

VOCAB_SIZE = 5000
PATTERN = "gpt4"


def summary(samples: list[tuple[float, float]]) -> dict[str, float]:
    """Medians and p95 of (wall, CPU) milliseconds: on a busy machine the CPU time of
    this process is the fairer figure, since the wall clock includes waiting for a core."""
    figures = {}
    for name, values in (("wall", [s[0] for s in samples]), ("cpu", [s[1] for s in samples])):
        if any(value != value for value in values):  # NaN: not measured
            continue
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        figures[f"{name}_median_ms"] = round(statistics.median(ordered), 1)
        figures[f"{name}_p95_ms"] = round(p95, 1)
    return figures


class Clock:
    """Wall and process CPU time from creation to `stop()`, in ms."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def stop(self) -> tuple[float, float]:
        return (
            (time.perf_counter() - self.wall) * 1000,
            (time.process_time() - self.cpu) * 1000,
        )


def time_tables(text: str, steps: int) -> dict[str, dict[str, float]]:
    result = train(text, VOCAB_SIZE, pattern=PATTERN)
    history, tokenizer = result.history, result.tokenizer
    clock = Clock()
    counts = count_chunks([text], PATTERN)
    merges = tuple(history.merges)
    last = pair_tables.as_tuples(sequences_after(counts, merges))
    corpus = pair_tables.Corpus(counts, last, merges, chunks_touched(last, merges))
    once = clock.stop()  # per run, kept by corpus_cached
    chosen = random.Random(12).sample(range(1, len(history.steps) - 1), steps)
    cold, forward = [], []
    for run, step in enumerate(chosen):
        key = f"bench-{run}"  # nothing kept for this run: a cold jump
        for kind, at in (("cold", step), ("forward", step + 1)):
            clock = Clock()
            table = pair_tables.table_at(key, corpus, history, at, 10)
            table_rows(table, lambda pair: pair_text(tokenizer, pair), at, True)
            elapsed = clock.stop()
            (cold if kind == "cold" else forward).append(elapsed)
            assert table.winner.pair == history.steps[at].pair
    return {
        "table_once_per_run": summary([once]),
        "table_cold_jump": summary(cold),
        "table_step_forward": summary(forward),
    }


def time_page(text: str, steps: int) -> dict[str, dict[str, float]]:
    from tests.app_support import open_app
    from ui.session import state as keys
    from ui.session.run_spec import RunSpec, text_key

    app = open_app("animate")
    texts = (text,)
    spec = RunSpec("tiny", "tinyshakespeare.txt", text_key(texts), VOCAB_SIZE, PATTERN)
    app.session_state[keys.RUNS] = {**app.session_state[keys.RUNS], spec.name: spec}
    app.session_state[keys.TEXTS] = {**app.session_state[keys.TEXTS], spec.text_key: texts}
    app.session_state[keys.PENDING_RUN] = spec.name
    app.run(timeout=300)  # trains once
    last = int(app.slider(key=keys.ANIMATE_STEP).max)
    forward, jump = [], []
    for step in random.Random(7).sample(range(1, last - 1), steps):
        clock = Clock()
        app.slider(key=keys.ANIMATE_STEP).set_value(step).run()
        jump.append(clock.stop())
        clock = Clock()
        app.button(key=keys.ANIMATE_NEXT).click().run()
        forward.append(clock.stop())
        assert not app.exception and len(app.dataframe) == 1
    return {"page_cold_jump": summary(jump), "page_step_forward": summary(forward)}


async def slide(client: Any, key: str, value: int, until: str) -> Any:
    """Move a slider inside a fragment, as the browser does: the fragment reruns alone."""
    from ui.server.streamlit_internals import WidgetState

    client.values[key] = WidgetState(double_array_value={"data": [value]})
    message = client.request(None)
    message.rerun_script.fragment_id = client.fragments[key]
    started = time.monotonic()
    await client.socket.send(message.SerializeToString())
    return await asyncio.wait_for(client.read_run(started, until), 120)


async def time_server(text: str, steps: int) -> dict[str, dict[str, float]]:
    """Steps on a real server, the run stored on its disk and opened by its key."""
    from explorer.files.formats import model_text
    from explorer.files.history_file import history_json
    from harness.app_server import running_server
    from harness.ws_client import connected
    from ui.session import run_store
    from ui.session import state as keys
    from ui.session.run_spec import RunSpec, text_key

    texts = (text,)
    spec = RunSpec("tiny", "tinyshakespeare.txt", text_key(texts), VOCAB_SIZE, PATTERN)
    result = train(text, VOCAB_SIZE, pattern=PATTERN)
    stored = run_store.StoredRun(
        spec.as_dict(), texts, model_text(result.tokenizer), history_json(result.history)
    )
    last = len(result.history.steps)
    with tempfile.TemporaryDirectory() as folder:
        config = run_store.StoreConfig(Path(folder) / "runs", 10**9)
        run_store.save(config, spec.store_key, stored)
        env = {run_store.DIR_VARIABLE: str(config.folder)}
        with running_server(Path(folder) / "server.log", env=env) as server:
            async with connected(server.port) as client:
                query = f"run={spec.store_key}"
                await client.rerun(query=query)
                await client.rerun(page="animate", query=f"{query}&animate_step=1")
                forward, jump = [], []
                for step in random.Random(5).sample(range(2, last - 2), steps):
                    run = await slide(client, keys.ANIMATE_STEP, step, f"After step {step:,}")
                    assert run.shown_s is not None and run.fragment_ids, run.texts[:5]
                    jump.append((run.finished_s * 1000, float("nan")))
                    run = await client.rerun(
                        trigger=keys.ANIMATE_NEXT, until=f"After step {step + 1:,}"
                    )
                    assert run.shown_s is not None and run.fragment_ids
                    assert "dataframe" in run.kinds, run.kinds  # the table was drawn
                    forward.append((run.finished_s * 1000, float("nan")))
    return {"server_cold_jump": summary(jump), "server_step_forward": summary(forward)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    text = (args.shared / "corpora" / "tinyshakespeare.txt").read_text(encoding="utf-8")
    figures = asyncio.run(time_server(text, args.steps))
    figures |= {**time_tables(text, args.steps), **time_page(text, args.steps)}
    print(json.dumps({"vocab_size": VOCAB_SIZE, "steps": args.steps, **figures}, indent=1))


if __name__ == "__main__":
    main()
