"""Time Compare's "Two tokenizers, merge by merge" for a 20,000-token run against GPT-4o.

Not a test. Trains tinyshakespeare (from ../shared/corpora, or --corpus) to vocab size
20,000, then times, in-process, the work the section does, with GPT-4o cut to the run's
size (the default) and in full (199,742 merges): the comparison itself, the scatter's
and the tables' data, one table's CSV; then the whole Compare page under AppTest.

    .venv/bin/python -m bench.engine.compare_pair_timing [--corpus PATH] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

from explorer import load_bundled, train
from explorer.analysis.diffs.merge_diff import merge_diff, merge_tokens
from ui.compare.pair.merges import lone_frame, scatter_frame

ROOT = Path(__file__).resolve().parents[2]

CORPUS = ROOT.parent / "shared" / "corpora" / "tinyshakespeare.txt"


def best(work: Callable[[], object], repeat: int) -> float:
    """The fastest of `repeat` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def section_times(run_tokens: list[bytes], other: list[bytes], repeat: int) -> dict[str, float]:
    diff = merge_diff(run_tokens, other)
    return {
        "merges_compared_b": len(other),
        "merge_tokens_s": best(
            lambda: merge_tokens(load_bundled("o200k_base"), 256 + len(other)), repeat
        ),
        "merge_diff_s": best(lambda: merge_diff(run_tokens, other), repeat),
        "scatter_frame_s": best(lambda: scatter_frame(diff), repeat),
        "tables_s": best(lambda: (lone_frame(diff.only_a), lone_frame(diff.only_b)), repeat),
        "csv_only_b_s": best(
            lambda: lone_frame(diff.only_b).to_csv(index=False), repeat
        ),  # on click
        "shared": len(diff.shared),
    }


def page_time(text: str, run_size: int) -> dict[str, float]:
    """The Compare page under AppTest with the 20k run current and GPT-4o as B."""
    from streamlit.testing.v1 import AppTest

    from ui.session.run_spec import RunSpec, text_key

    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=600)
    app.run()
    spec = RunSpec("tiny · gpt4 · 20k", "tinyshakespeare", text_key((text,)), run_size, "gpt4")
    app.session_state["runs"] = {**app.session_state["runs"], spec.name: spec}
    app.session_state["texts"] = {**app.session_state["texts"], spec.text_key: (text,)}
    app.session_state["pending_run"] = spec.name
    app.session_state["compare_section"] = "Two tokenizers"  # Compare runs its open tab only
    app.switch_page("pages/compare.py")
    app.run()  # trains (cached) and loads every vocabulary
    times = {}
    app.selectbox(key="compare_pair_b").set_value("GPT-4o · o200k_base")
    start = time.perf_counter()
    app.run()
    times["page_gpt4o_cut_first_s"] = time.perf_counter() - start
    start = time.perf_counter()
    app.run()
    times["page_gpt4o_cut_again_s"] = time.perf_counter() - start
    app.toggle(key="compare_pair_full").set_value(True)
    start = time.perf_counter()
    app.run()
    times["page_gpt4o_full_first_s"] = time.perf_counter() - start
    start = time.perf_counter()
    app.run()
    times["page_gpt4o_full_again_s"] = time.perf_counter() - start
    assert not app.exception, app.exception
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-page", action="store_true", help="skip the AppTest timing")
    args = parser.parse_args()
    text = args.corpus.read_text(encoding="utf-8")
    run = train(text, 20_000, pattern="gpt4").tokenizer
    run_tokens = merge_tokens(run)
    gpt4o = load_bundled("o200k_base")
    result: dict[str, object] = {"run_merges": len(run_tokens)}
    result["cut"] = section_times(run_tokens, merge_tokens(gpt4o, run.vocab_size), args.repeat)
    result["full"] = section_times(run_tokens, merge_tokens(gpt4o), args.repeat)
    if not args.no_page:
        result["page"] = page_time(text, 20_000)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
