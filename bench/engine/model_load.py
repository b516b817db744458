"""Real models' tokenizer.json files: load time and peak memory, encode and trace speed.

For each open-weight file in ../shared/reference/open-weight (issue 34, §6), in a fresh
child process each:
- load: `read_tokenizer_json` (checks, merge table, the `tokenizers` library's own reading),
  wall and CPU seconds and peak RSS, beside the library's `Tokenizer.from_file` alone
  ("from_file s", its wall seconds);
- encode: the 26 UDHR texts, ours (which is the library underneath) against the library
  called directly, runs interleaved and the best of --repeat each, as MB/s and a ratio
  taken in the same child;
- trace: the same texts through our merge-by-merge replay (`HfModel.trace`), which the
  library cannot show, as MB/s.
A benchmark, not a test; the machine's load average is printed beside the figures.

    python -m bench.engine.model_load
    python -m bench.engine.model_load --models llama3 gemma3 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
MODELS = ("llama3", "qwen3", "deepseek_v3", "gemma3", "llama2")

LOAD = """
import resource, sys, time
folder = sys.argv[1]
wall, cpu = time.perf_counter(), time.process_time()
if sys.argv[2] == "ours":
    from explorer.models.hf_model import read_tokenizer_json
    text = open(folder + "/tokenizer.json", encoding="utf-8").read()
    config = open(folder + "/tokenizer_config.json", encoding="utf-8").read()
    model = read_tokenizer_json(text, config_text=config)
    size = model.vocab_size
else:
    from tokenizers import Tokenizer
    size = Tokenizer.from_file(folder + "/tokenizer.json").get_vocab_size()
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{size}|{wall:.2f}|{cpu:.2f}|{peak:.0f}")
"""

SPEED = """
import sys, time
from pathlib import Path
from tokenizers import Tokenizer
from explorer.models.hf_model import read_tokenizer_json
folder, udhr, repeat = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
texts = [path.read_text("utf-8") for path in sorted(udhr.glob("*.txt"))]
megabytes = sum(len(text.encode("utf-8")) for text in texts) / 1e6
text = open(folder + "/tokenizer.json", encoding="utf-8").read()
ours = read_tokenizer_json(text)
theirs = Tokenizer.from_file(folder + "/tokenizer.json")

def timed(run):
    start = time.perf_counter()
    run()
    return time.perf_counter() - start

def ours_encode():
    return [ours.encode(t) for t in texts]

def theirs_encode():
    return [theirs.encode(t, add_special_tokens=False).ids for t in texts]

assert ours_encode() == theirs_encode()
ours.trace(texts[0][:100])  # the lazy tables (pair ranks, the splitter) built first
# interleaved, best of each: a busy machine slows both alike
pairs = [(timed(ours_encode), timed(theirs_encode)) for _ in range(repeat)]
ours_s, theirs_s = min(p[0] for p in pairs), min(p[1] for p in pairs)
start = time.perf_counter()
traced = [ours.trace(t).ids for t in texts]
trace_s = time.perf_counter() - start
assert traced == theirs_encode()
print(f"{len(texts)}|{megabytes:.2f}|{megabytes / ours_s:.2f}|{megabytes / theirs_s:.2f}|"
      f"{theirs_s / ours_s:.2f}|{megabytes / trace_s:.3f}|{trace_s:.1f}")
"""


def child(code: str, *args: str) -> list[str]:
    """Run `code` in a fresh Python; its one printed line, split on '|'."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    )
    return done.stdout.strip().splitlines()[-1].split("|")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=MODELS)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    base = SHARED / "reference" / "open-weight"
    if not base.exists():
        print(f"{base} is not here (../shared is only beside developer checkouts)")
        return
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| file | ids | our load s (CPU s) | peak RSS MiB | from_file s | its RSS MiB |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in args.models:
        folder = str(base / name)
        ids, wall, cpu, peak = child(LOAD, folder, "ours")
        _, their_wall, _, their_peak = child(LOAD, folder, "theirs")
        print(f"| {name} | {int(ids):,} | {wall} ({cpu}) | {peak} | {their_wall} | {their_peak} |")
    print(f"\nEncode on the UDHR in 26 languages (best of {args.repeat}), our trace once:\n")
    print("| file | texts | MB | ours MB/s | tokenizers MB/s | ratio | trace MB/s | trace s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.models:
        row = child(SPEED, str(base / name), str(SHARED / "udhr"), str(args.repeat))
        print(f"| {name} | " + " | ".join(row) + " |")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
