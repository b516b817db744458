"""What a link may cost the server: training at the link budget, and a hostile link now.

Not a test. Two parts, each in a fresh process so the peak RSS is its own:

1. `engine`: each bundled sample trained in-process at the largest vocab size a link may
   ask of it (ui/session/links/budget.py), with no pattern and with its own preset:
   seconds, peak RSS, the longest token and the bytes a stored run would take.
2. `link`: the app opened by AppTest as a new session from a link (by default issue 21's
   `/?sample=shakespeare&vocab=50000&pattern=none`), with a fresh runs folder: seconds for
   the first page run, peak RSS, the run file written and the vocab size it reached.

    .venv/bin/python -m bench.load.link_budget_costs                 # both parts
    .venv/bin/python -m bench.load.link_budget_costs link --query
    'sample=udhr&vocab=50000&pattern=none'

Prints one line per measurement and a JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qsl

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_QUERY = "sample=shakespeare&vocab=50000&pattern=none"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def engine_point(sample_key: str, pattern: str) -> dict[str, object]:
    """One sample trained at the link budget's vocab size for this pattern (this process)."""
    from explorer import train
    from explorer.files.formats import model_text
    from explorer.files.history_file import history_json
    from ui.session.links.budget import link_vocab_size
    from ui.session.samples import SAMPLES, sample_text

    text = sample_text(sample_key)
    size = link_vocab_size(50_000, len(text.encode("utf-8")), pattern)
    started = time.perf_counter()
    result = train([text], size, pattern=pattern)
    seconds = time.perf_counter() - started
    stored = len(model_text(result.tokenizer)) + len(history_json(result.history))
    return {
        "sample": SAMPLES[sample_key].key,
        "pattern": pattern,
        "vocab_asked": size,
        "vocab_reached": result.tokenizer.vocab_size,
        "seconds": round(seconds, 2),
        "peak_rss_mb": round(peak_rss_mb()),
        "longest_token_bytes": max(len(t) for t in result.tokenizer.vocab.values()),
        "stored_mb": round(stored / 1e6, 1),
    }


def link_point(query: str) -> dict[str, object]:
    """A new session opened by the link, under AppTest, with its own runs folder."""
    from streamlit.testing.v1 import AppTest

    with tempfile.TemporaryDirectory() as folder:
        os.environ["BPE_EXPLORER_RUNS_DIR"] = folder
        before = peak_rss_mb()
        app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=3600)
        for name, value in parse_qsl(query, keep_blank_values=True):
            app.query_params[name] = value
        started = time.perf_counter()
        app.run()
        seconds = time.perf_counter() - started
        files = list(Path(folder).glob("*.run"))
        return {
            "query": query,
            "seconds": round(seconds, 2),
            "peak_rss_mb": round(peak_rss_mb()),
            "rss_before_mb": round(before),
            "run_file_mb": round(sum(f.stat().st_size for f in files) / 1e6, 2),
            "vocab_in_url": app.query_params.get("vocab"),
            "exceptions": len(app.exception),
            "notes": [str(info.value)[:160] for info in app.info],
        }


def in_a_child(*args: str) -> dict[str, object]:
    """Run one measurement in a fresh interpreter; its JSON line back."""
    done = subprocess.run(
        [sys.executable, __file__, *args, "--one"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=3600,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("part", nargs="?", choices=["engine", "link", "both"], default="both")
    parser.add_argument("--query", default=DEFAULT_QUERY)
    parser.add_argument("--sample", default="shakespeare")
    parser.add_argument("--pattern", default="none")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        point = (
            link_point(args.query)
            if args.part == "link"
            else engine_point(args.sample, args.pattern)
        )
        print(json.dumps(point))
        return
    from ui.session.samples import SAMPLES

    results = []
    if args.part in ("engine", "both"):
        for sample in SAMPLES.values():
            for pattern in ("none", sample.pattern):
                point = in_a_child("engine", "--sample", sample.key, "--pattern", pattern)
                print(point, flush=True)
                results.append(point)
    if args.part in ("link", "both"):
        point = in_a_child("link", "--query", args.query)
        print(point, flush=True)
        results.append(point)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
