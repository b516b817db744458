"""A real model's Vocabulary page, on the server: the index, its queries, what reaches the
browser, and the check-up (issue 36 §2: search, sort and the check-up at 200k-262k ids
without sending the whole vocabulary).

For each open-weight tokenizer.json in ../shared/reference/open-weight, in this process:
- index: `VocabIndex.of(model)` (built once per model and server), CPU and wall seconds;
- queries: a search ("ing", longest first), a kind (base symbols), a far page by merge
  rank: the first run's milliseconds, then the median of --repeat more (the index keeps
  its last searches sorted, so a page's second look and the next page cost nothing);
- sent: one page of rows as JSON against the whole table as JSON, bytes;
- check-up (with --checkup): `model_check_up`, CPU and wall seconds.
A benchmark, not a test; the load average is printed beside the figures.

    python -m bench.engine.model_vocabulary --models qwen3 gemma3 --checkup
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPEN_WEIGHT = ROOT.parent / "shared" / "reference" / "open-weight"


def timed(function):  # type: ignore[no-untyped-def]
    cpu, wall = time.process_time(), time.perf_counter()
    result = function()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def measure(name: str, repeat: int, checkup: bool) -> None:
    from explorer.models.hf_model import read_tokenizer_json
    from explorer.models.model_checkup import model_check_up
    from explorer.models.vocab_index import VocabIndex

    folder = OPEN_WEIGHT / name
    model = read_tokenizer_json(
        (folder / "tokenizer.json").read_text("utf-8"),
        config_text=(folder / "tokenizer_config.json").read_text("utf-8"),
    )
    index, cpu, wall = timed(lambda: VocabIndex.of(model))
    print(f"{name}: {len(index):,} ids · index CPU {cpu:.2f} s, wall {wall:.2f} s")
    queries = {
        "search 'ing', longest first": lambda: index.query("ing", sort="length, longest first"),
        "kind: base symbols": lambda: index.query("", kind="base"),
        "page 2,000 by merge rank": lambda: index.query("", sort="merge rank", page=2000),
    }
    for label, query in queries.items():
        first = timed(query)[2] * 1000  # the search itself; then it is kept sorted
        again = [timed(query)[2] * 1000 for _ in range(repeat)]
        print(f"  {label}: {first:.0f} ms, then {statistics.median(again):.1f} ms (kept)")
    page = index.query("")
    one_page = len(json.dumps([asdict(row) for row in page.rows]))
    whole = len(json.dumps([asdict(index.row(i)) for i in range(len(index))]))
    print(f"  sent: one page {one_page:,} bytes; the whole table would be {whole:,} bytes")
    if checkup:
        report, cpu, wall = timed(lambda: model_check_up(model))
        print(f"  check-up CPU {cpu:.1f} s, wall {wall:.1f} s: {report.counts()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["qwen3", "gemma3"])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--checkup", action="store_true")
    args = parser.parse_args()
    if not OPEN_WEIGHT.exists():
        sys.exit(f"{OPEN_WEIGHT} is not here (../shared is beside developer checkouts)")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name in args.models:
        measure(name, args.repeat, args.checkup)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
