"""A server's memory for 1, 2 and 4 real models held at once, and a class opening one.

Not a test. Builds a Hugging Face Hub cache from ../shared/reference/open-weight/ in a
temporary folder (harness/hub_cache.py's layout), sets HF_HUB_CACHE and HF_HUB_OFFLINE=1, and
opens the models through the app's own path (ui/session/hub_models.held_model: the file read
by a child Python, the model sent back and held here, in the server's LRU). Each count runs
in a fresh Python, so the figures do not carry over: it prints the process's RSS before
(the app's modules imported) and after holding the models, the model's weight as the LRU
counts it, and the seconds each took. `--class-size N` then has N threads (sessions) open
one model at once and prints the loads made (1 expected).

    .venv/bin/python -m bench.load.hub_models_rss                  # 1, 2 and 4 models
    .venv/bin/python -m bench.load.hub_models_rss --class-size 30 --each
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from harness.hub_cache import LARGE_MODELS, build_hub_cache

HERE = Path(__file__).resolve().parents[2]


def rss_mb() -> float:
    """This process's resident memory now, in MB (/proc/self/status's VmRSS)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def hold(names: list[str]) -> dict[str, object]:
    """Open the models through the app's path in this process; the figures, as a dict."""
    from explorer.models.hub import locate
    from ui.session.hub_models import held_model, model_weight

    gc.collect()
    before = rss_mb()
    rows = []
    for name in names:
        started = time.monotonic()
        model = held_model(locate(name))
        gc.collect()
        rows.append(
            {
                "model": name,
                "ids": model.vocab_size,
                "merges": len(model.merges),
                "seconds": round(time.monotonic() - started, 1),
                "rss_mb": round(rss_mb()),
                "weight_mb": round(model_weight(model) / 2**20),
            }
        )
    return {"before_mb": round(before), "models": rows, "after_mb": round(rss_mb())}


def one_class(name: str, size: int) -> dict[str, object]:
    """`size` sessions (threads) opening one model at once: loads and fetches made."""
    from explorer.models.hub import locate
    from ui.session.hub_models import counts, held_model

    found = locate(name)
    started = time.monotonic()
    threads = [threading.Thread(target=held_model, args=(found,)) for _ in range(size)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"sessions": size, **counts(), "seconds": round(time.monotonic() - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", default="1,2,4", help="models held at once, per run")
    parser.add_argument("--class-size", type=int, default=0, help="sessions opening one model")
    parser.add_argument("--each", action="store_true", help="each model alone, too")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # a fresh Python's own work
    args = parser.parse_args()
    if args.child:
        job = json.loads(args.child)
        if job["class"]:
            print(json.dumps(one_class(job["names"][0], job["class"])))
        else:
            print(json.dumps(hold(job["names"])))
        return
    with tempfile.TemporaryDirectory() as folder:
        build_hub_cache(Path(folder))
        env = {**os.environ, "HF_HUB_CACHE": folder, "HF_HUB_OFFLINE": "1"}
        jobs = [{"names": list(LARGE_MODELS[: int(n)]), "class": 0} for n in args.counts.split(",")]
        if args.each:
            jobs += [{"names": [name], "class": 0} for name in LARGE_MODELS]
        if args.class_size:
            jobs.append({"names": [LARGE_MODELS[1]], "class": args.class_size})
        for job in jobs:
            done = subprocess.run(
                [sys.executable, "-m", "bench.load.hub_models_rss", "--child", json.dumps(job)],
                cwd=HERE,
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            print(done.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
