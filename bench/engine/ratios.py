"""Ratios against the anchors on a shared machine: interleaved runs, CPU and wall time.

Not a test. `bench/engine/benchmark.py` runs each tool's repeats one after another, so a burst
of load from other work lands on one side; here the runs alternate (ours, theirs, ours,
...), each in a fresh process, and every figure is a median of --repeat runs with its
spread (min-max). Two clocks: wall time, what a user waits for (unreliable when the
machine is loaded), and CPU time (user + system of the process and its children), which
load barely moves but which counts a parallel tool's threads together. The load average
is printed with each row, and the CPU model at the top, so runs on two machines can be
told apart.

Bytecode: every process runs with Python's bytecode cache on (in a temporary folder,
PYTHONPYCACHEPREFIX) after one unmeasured warm-up run, as an installed package or a
second run from a checkout has it. This team's shells set PYTHONDONTWRITEBYTECODE, under
which each start compiles the engine's ~25 modules from source: ~40 ms of CPU that HF and
tiktoken (compiled extension modules, bytecode written at install) never pay.

    .venv/bin/python -m bench.engine.ratios train --corpora tinyshakespeare --vocab-sizes 5000
    .venv/bin/python -m bench.engine.ratios train-cli      # whole process: CLI vs HF train + save
    .venv/bin/python -m bench.engine.ratios encode         # in-process encode vs tiktoken
    .venv/bin/python -m bench.engine.ratios encode-cli     # whole process on 5 MB
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
CORPORA = ["tinyshakespeare", "multi_ja_th", "linux_kernel_c", "mix19"]

OURS_TRAIN = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from explorer import train_files
def children():  # the counting processes' CPU time, which process_time leaves out
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
wall, cpu = time.perf_counter(), time.process_time() + children()
result = train_files([{path!r}], {vocab}, pattern="gpt2", workers=2)
print(json.dumps({{"wall": time.perf_counter() - wall,
                  "cpu": time.process_time() + children() - cpu}}))
"""

HF_TRAIN = """
import json, sys, time
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
trainer = trainers.BpeTrainer(vocab_size={vocab}, show_progress=False,
                              initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
wall, cpu = time.perf_counter(), time.process_time()
tok.train([{path!r}], trainer)
print(json.dumps({{"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}}))
if len(sys.argv) > 1:
    tok.save(sys.argv[1])
"""

OURS_ENCODE = """
import json, sys, time
sys.path.insert(0, {root!r})
from explorer import load_bundled
tok = load_bundled({name!r})
tok.prepare_encoding()
text = open({path!r}, encoding="utf-8", newline="").read()
wall, cpu = time.perf_counter(), time.process_time()
ids = tok.encode(text, disallowed_special=())
print(json.dumps({{"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                  "ids": hash(tuple(ids))}}))
"""

# tiktoken's Encoding from the same bundled files, with the pattern and special tokens
# written into the script (importing explorer for them would add its imports to theirs)
TIKTOKEN_ENCODE = """
import json, sys, time
import tiktoken
from tiktoken.load import data_gym_to_mergeable_bpe_ranks, load_tiktoken_bpe
files = {files!r}
if len(files) == 2:
    ranks = data_gym_to_mergeable_bpe_ranks(files[1], files[0])
else:
    ranks = load_tiktoken_bpe(files[0])
enc = tiktoken.Encoding({name!r}, pat_str={pattern!r}, mergeable_ranks=ranks,
                        special_tokens={specials!r})
text = open({path!r}, encoding="utf-8", newline="").read()
wall, cpu = time.perf_counter(), time.process_time()
ids = enc.encode_ordinary(text)
if len(sys.argv) > 1:
    sys.stdout.write(" ".join(map(str, ids)) + "\\n")
else:
    print(json.dumps({{"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                      "ids": hash(tuple(ids))}}))
"""
VOCABULARIES = ["gpt2", "cl100k_base", "o200k_base"]


def vocabulary_fields(name: str) -> dict[str, Any]:
    """What the two encode scripts need of a bundled vocabulary: its files, pattern, specials."""
    sys.path.insert(0, str(ROOT))
    from explorer.files.bundled import BUNDLED, VOCABULARY_DIR

    spec = BUNDLED[name]
    files = [str(VOCABULARY_DIR / path) for path, _ in spec.files]
    return {"name": name, "files": files, "pattern": spec.pattern, "specials": spec.special_tokens}


@dataclass
class Run:
    wall: float
    cpu: float
    rss_mib: float
    extra: dict


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (platform's answer where there is none)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def run_process(argv: list[str], env: dict[str, str] | None = None) -> Run:
    """Run argv to the end: its wall time, CPU time and peak RSS (from wait4's rusage)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT, env=env
    )
    out = process.stdout.read() if process.stdout else b""
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise RuntimeError(f"failed (exit {process.returncode}): {argv}")
    lines = out.decode().strip().splitlines()
    extra = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, extra)


_PYCACHE = tempfile.mkdtemp(prefix="bench-pycache-")


def bench_env(**extra: str) -> dict[str, str]:
    """The environment of every measured process: this checkout first, bytecode cached."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(ROOT), PYTHONPYCACHEPREFIX=_PYCACHE, **extra)
    return env


def interleaved(makers: dict[str, Callable[[], Run]], repeat: int) -> dict[str, list[Run]]:
    """Each maker `repeat` times, taking turns, so load from elsewhere hits all alike.

    One unmeasured run of each first: it writes the bytecode and warms the file cache.
    """
    for make in makers.values():
        make()
    runs: dict[str, list[Run]] = {name: [] for name in makers}
    for _ in range(repeat):
        for name, make in makers.items():
            runs[name].append(make())
    return runs


def summary(values: list[float]) -> str:
    """Median and spread: '1.23 (1.10-1.40)'."""
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def ratio(ours: list[float], theirs: list[float]) -> float:
    return statistics.median(ours) / statistics.median(theirs)


@dataclass
class Row:
    """One compared measurement: its table row and its ratios (ours/theirs)."""

    label: str
    text: str
    wall: float
    cpu: float
    rss: float


def report(label: str, runs: dict[str, list[Run]], load_before: str) -> Row:
    """One table row: both tools' wall seconds, and ours/theirs in wall, CPU and RSS."""
    ours, theirs = runs["ours"], runs["theirs"]
    wall = ratio([r.wall for r in ours], [r.wall for r in theirs])
    cpu = ratio([r.cpu for r in ours], [r.cpu for r in theirs])
    rss = ratio([r.rss_mib for r in ours], [r.rss_mib for r in theirs])
    row = (
        f"| {label} | {summary([r.wall for r in ours])} | {summary([r.wall for r in theirs])} "
        f"| **{wall:.2f}×** | {cpu:.2f}× | {rss:.2f}× | {load_before} → {load_average()} |"
    )
    print(row, flush=True)
    return Row(label, row, wall, cpu, rss)


TABLE_HEAD = (
    "| {what} | ours wall | {theirs} wall | wall ratio | CPU ratio | RSS ratio | load |\n"
    "|---|---|---|---|---|---|---|"
)


def corpus_path(name: str) -> Path:
    return SHARED / "corpora" / f"{name}.txt"


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def train_rows(corpora: list[str], sizes: list[int], repeat: int, cli: bool) -> list[Row]:
    """Ours against HF `tokenizers`, in-process (the training call) or whole process
    (`python -m explorer train ... --output`, every file written, against HF train + save)."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name in corpora:
            for vocab in sizes:
                fields = {"root": str(ROOT), "path": str(corpus_path(name)), "vocab": vocab}
                out = str(Path(folder) / "tok")
                if cli:
                    ours = [sys.executable, "-m", "explorer", "train", fields["path"]]
                    ours += ["--vocab-size", str(vocab), "--pattern", "gpt2"]
                    ours += ["--workers", "2", "--output", out]
                    theirs = [*python(HF_TRAIN.format(**fields)), out + ".json"]
                else:
                    ours = python(OURS_TRAIN.format(**fields))
                    theirs = python(HF_TRAIN.format(**fields))
                load = load_average()
                runs = interleaved(
                    {
                        "ours": lambda a=ours: run_process(a, bench_env()),
                        "theirs": lambda a=theirs: run_process(a, bench_env()),
                    },
                    repeat,
                )
                if not cli:  # the call alone, as each process timed it
                    for run in [*runs["ours"], *runs["theirs"]]:
                        run.wall, run.cpu = run.extra["wall"], run.extra["cpu"]
                rows.append(report(f"{name}, {vocab:,}", runs, load))
    return rows


def encode_rows(corpora: list[str], repeat: int, vocabularies: list[str]) -> list[Row]:
    """Ours against tiktoken in-process: the encode call alone, on a fresh tokenizer."""
    env = bench_env(TIKTOKEN_CACHE_DIR="")
    rows = []
    for vocabulary in vocabularies:
        for name in corpora:
            fields: dict[str, Any] = {"root": str(ROOT), "path": str(corpus_path(name))}
            fields.update(vocabulary_fields(vocabulary))
            load = load_average()
            runs = interleaved(
                {
                    "ours": lambda f=fields: run_process(python(OURS_ENCODE.format(**f)), env),
                    "theirs": lambda f=fields: run_process(
                        python(TIKTOKEN_ENCODE.format(**f)), env
                    ),
                },
                repeat,
            )
            same = runs["ours"][0].extra["ids"] == runs["theirs"][0].extra["ids"]
            for run in [*runs["ours"], *runs["theirs"]]:
                run.wall, run.cpu = run.extra["wall"], run.extra["cpu"]
            label = f"{vocabulary}, {name}{'' if same else ' (IDS DIFFER)'}"
            rows.append(report(label, runs, load))
    return rows


def encode_cli_rows(megabytes: int, repeat: int, vocabularies: list[str]) -> list[Row]:
    """`python -m explorer encode NAME FILE` against a script that builds tiktoken's
    Encoding from the same files and prints the ids the same way; outputs compared."""
    env = bench_env(TIKTOKEN_CACHE_DIR="")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "text.txt"
        data = corpus_path("mix19").read_bytes()[: megabytes * 1_000_000]
        path.write_bytes(data.decode("utf-8", "ignore").encode("utf-8"))
        for vocabulary in vocabularies:
            fields = {"root": str(ROOT), "path": str(path), **vocabulary_fields(vocabulary)}
            ours = [sys.executable, "-m", "explorer", "encode", vocabulary, str(path)]
            theirs = [*python(TIKTOKEN_ENCODE.format(**fields)), "print"]
            same = _output(ours, env) == _output(theirs, env)
            load = load_average()
            runs = interleaved(
                {
                    "ours": lambda a=ours: run_process(a, env),
                    "theirs": lambda a=theirs: run_process(a, env),
                },
                repeat,
            )
            label = f"{vocabulary}, mix19's first {megabytes} MB{'' if same else ' (IDS DIFFER)'}"
            rows.append(report(label, runs, load))
    return rows


def _output(argv: list[str], env: dict[str, str]) -> bytes:
    return subprocess.run(argv, capture_output=True, cwd=ROOT, env=env, check=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["train", "train-cli", "encode", "encode-cli"])
    parser.add_argument("--corpora", nargs="+", default=CORPORA[:3])
    parser.add_argument("--vocab-sizes", nargs="+", type=int, default=[1000, 5000, 20000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--megabytes", type=int, default=5)
    parser.add_argument("--vocabularies", nargs="+", default=VOCABULARIES, choices=VOCABULARIES)
    args = parser.parse_args()
    print(f"CPU: {cpu_model()}, {os.cpu_count()} cores; load average {load_average()}")
    if args.what in ("train", "train-cli"):
        what = "whole process" if args.what == "train-cli" else "in-process (the training call)"
        print(f"\nTraining, {what}: seconds, median (min-max); ours/HF\n")
        print(TABLE_HEAD.format(what="corpus, V", theirs="HF"))
        train_rows(args.corpora, args.vocab_sizes, args.repeat, args.what == "train-cli")
    elif args.what == "encode":
        print("\nEncoding, in-process (the encode call): seconds; ours/tiktoken\n")
        print(TABLE_HEAD.format(what="vocabulary, corpus", theirs="tiktoken"))
        encode_rows(args.corpora, args.repeat, args.vocabularies)
    else:
        print(f"\nEncoding {args.megabytes} MB, whole process (ids written to stdout)\n")
        print(TABLE_HEAD.format(what="vocabulary, text", theirs="tiktoken"))
        encode_cli_rows(args.megabytes, args.repeat, args.vocabularies)


if __name__ == "__main__":
    main()
