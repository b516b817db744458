"""Time Animate's pair table per step on tinyshakespeare at vocab size 5000 (issue 12: < 100 ms).

Not a test. Two measures, each printed as medians and p95 in a JSON object:

1. table: the pair table's own work in-process (ui.pair_tables.table_at and the rows the
   page draws), for a cold jump to a step nothing is kept for (split back from the last
   step), and for a step forward from the step before (one `advance`); and the work done
   once per run (counting the corpus, bringing it to the last step);
2. page: the whole Animate page rerun under Streamlit's AppTest with the table shown,
   after a click on the next-step button and after a jump with the step slider (AppTest
   reruns the whole script where the server reruns only the step's fragment, so this is
   an upper bound on the server's time).

    .venv/bin/python bench/pair_table_timing.py [--shared /work/shared] [--steps 20]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from explorer import train  # noqa: E402
from explorer.corpus import count_chunks  # noqa: E402
from explorer.pair_table import sequences_after  # noqa: E402
from ui import pair_tables  # noqa: E402
from ui.animation import pair_text  # noqa: E402
from ui.pair_table_view import table_rows  # noqa: E402

VOCAB_SIZE = 5000
PATTERN = "gpt4"


def summary(samples: list[tuple[float, float]]) -> dict[str, float]:
    """Medians and p95 of (wall, CPU) milliseconds: on a busy machine the CPU time of
    this process is the fairer figure, since the wall clock includes waiting for a core."""
    figures = {}
    for name, values in (("wall", [s[0] for s in samples]), ("cpu", [s[1] for s in samples])):
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
    corpus = pair_tables.Corpus(
        counts, pair_tables.as_tuples(sequences_after(counts, history.merges))
    )
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
    from ui import state as keys
    from ui.run_spec import RunSpec, text_key

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    text = (args.shared / "corpora" / "tinyshakespeare.txt").read_text(encoding="utf-8")
    figures = {**time_tables(text, args.steps), **time_page(text, args.steps)}
    print(json.dumps({"vocab_size": VOCAB_SIZE, "steps": args.steps, **figures}, indent=1))


if __name__ == "__main__":
    main()
