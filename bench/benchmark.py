"""Benchmark the engine against its anchors and write BENCHMARKS.md.

Not a test. Each measurement runs in a fresh subprocess (so peak memory is its own and
HF reads RAYON_NUM_THREADS at import); figures are medians of --repeat runs, and every
ratio compares figures taken in the same run.

    .venv/bin/python bench/benchmark.py                       # everything (slow: mix19)
    .venv/bin/python bench/benchmark.py --corpora tinyshakespeare --vocab-sizes 5000

Training: ours (train_files, gpt2 pattern) against Hugging Face `tokenizers` (BPE trainer,
ByteLevel pre-tokenizer with its 256-symbol alphabet; default threads and one thread),
and the seeds' naive algorithm (recount every pair each merge), capped in time and
extrapolated linearly from the merges it finished. Encoding: MB/s with the GPT-2
vocabulary, ours against tiktoken, ids checked identical in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPORA = ["tinyshakespeare", "multi_ja_th", "linux_kernel_c", "mix19"]

PEAK = "import resource; rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024"

OURS_TRAIN = f"""
import json, sys, time
sys.path.insert(0, {str(ROOT)!r})
from explorer import train_files
start = time.perf_counter()
result = train_files([{{path!r}}], {{vocab}}, pattern="gpt2")
seconds = time.perf_counter() - start
{PEAK}
print(json.dumps({{{{"seconds": seconds, "merges": len(result.history.steps), "rss": rss}}}}))
"""

HF_TRAIN = f"""
import json, time
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
trainer = trainers.BpeTrainer(vocab_size={{vocab}}, show_progress=False,
                              initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
start = time.perf_counter()
tok.train([{{path!r}}], trainer)
seconds = time.perf_counter() - start
{PEAK}
print(json.dumps({{{{"seconds": seconds, "merges": tok.get_vocab_size() - 256, "rss": rss}}}}))
"""

NAIVE_TRAIN = f"""
import json, sys, time
sys.path.insert(0, {str(ROOT)!r})
from explorer.pretokenize import GPT2_PATTERN
from tests.naive import get_stats, merge, split_text
text = open({{path!r}}, encoding="utf-8", newline="").read()
start = time.perf_counter()
ids = [list(c.encode()) for c in split_text(text, GPT2_PATTERN)]
done = 0
for i in range({{vocab}} - 256):
    if time.perf_counter() - start > {{cap}}:
        break
    stats = {{{{}}}}
    for chunk in ids:
        get_stats(chunk, stats)
    pair = max(stats, key=stats.get)
    ids = [merge(chunk, pair, 256 + i) for chunk in ids]
    done += 1
seconds = time.perf_counter() - start
{PEAK}
print(json.dumps({{{{"seconds": seconds, "merges": done, "rss": rss}}}}))
"""

OURS_ENCODE = f"""
import json, sys, time
sys.path.insert(0, {str(ROOT)!r})
from explorer import load_bundled
tok = load_bundled("gpt2")
text = open({{path!r}}, encoding="utf-8", newline="").read()
start = time.perf_counter()
ids = tok.encode(text, disallowed_special=())
seconds = time.perf_counter() - start
{PEAK}
print(json.dumps({{{{"seconds": seconds, "ids": hash(tuple(ids)), "rss": rss}}}}))
"""

TIKTOKEN_ENCODE = f"""
import json, sys, time
import tiktoken
from tiktoken.load import data_gym_to_mergeable_bpe_ranks
sys.path.insert(0, {str(ROOT)!r})
from explorer.pretokenize import GPT2_PATTERN
gpt2 = {str(ROOT / "vocabularies" / "gpt2")!r}
ranks = data_gym_to_mergeable_bpe_ranks(gpt2 + "/vocab.bpe", gpt2 + "/encoder.json")
enc = tiktoken.Encoding("gpt2", pat_str=GPT2_PATTERN, mergeable_ranks=ranks,
                        special_tokens={{{{"<|endoftext|>": 50256}}}})
text = open({{path!r}}, encoding="utf-8", newline="").read()
start = time.perf_counter()
ids = enc.encode_ordinary(text)
seconds = time.perf_counter() - start
{PEAK}
print(json.dumps({{{{"seconds": seconds, "ids": hash(tuple(ids)), "rss": rss}}}}))
"""


@dataclass
class Figure:
    seconds: float
    rss: float
    extra: dict


def run(code: str, threads: str | None = None) -> dict:
    env = dict(os.environ, TIKTOKEN_CACHE_DIR="")
    if threads:
        env["RAYON_NUM_THREADS"] = threads
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def median(code: str, repeat: int, threads: str | None = None) -> Figure:
    runs = [run(code, threads) for _ in range(repeat)]
    extra = {k: v for k, v in runs[0].items() if k not in ("seconds", "rss")}
    return Figure(
        statistics.median(r["seconds"] for r in runs),
        statistics.median(r["rss"] for r in runs),
        extra,
    )


def training_rows(path: Path, sizes: list[int], repeat: int, naive_cap: float) -> list[str]:
    rows = []
    for vocab in sizes:
        fields = {"path": str(path), "vocab": vocab, "cap": naive_cap}
        ours = median(OURS_TRAIN.format(**fields), repeat)
        hf = median(HF_TRAIN.format(**fields), repeat)
        hf1 = median(HF_TRAIN.format(**fields), repeat, threads="1")
        naive = run(NAIVE_TRAIN.format(**fields))
        merges = ours.extra["merges"]
        naive_s = naive["seconds"] * merges / max(1, naive["merges"])
        capped = "" if naive["merges"] >= merges else f" (extrapolated from {naive['merges']})"
        rows.append(
            f"| {path.stem} | {vocab:,} | {ours.seconds:.2f} | {hf.seconds:.2f} "
            f"| {hf1.seconds:.2f} | **{ours.seconds / hf.seconds:.2f}×** "
            f"| {ours.seconds / hf1.seconds:.2f}× | {naive_s:,.0f}{capped} "
            f"| {ours.rss:,.0f} | {hf.rss:,.0f} | {ours.rss / hf.rss:.2f}× |"
        )
        print(rows[-1], flush=True)
    return rows


def encoding_row(path: Path, repeat: int) -> str:
    size_mb = path.stat().st_size / 1e6
    ours = median(OURS_ENCODE.format(path=str(path)), repeat)
    theirs = median(TIKTOKEN_ENCODE.format(path=str(path)), repeat)
    same = "yes" if ours.extra["ids"] == theirs.extra["ids"] else "**NO**"
    ours_mbs, theirs_mbs = size_mb / ours.seconds, size_mb / theirs.seconds
    row = (
        f"| {path.stem} | {size_mb:.1f} | {ours_mbs:.2f} | {theirs_mbs:.2f} "
        f"| **{ours_mbs / theirs_mbs:.2f}** | {same} | {ours.rss:,.0f} | {theirs.rss:,.0f} |"
    )
    print(row, flush=True)
    return row


def versions() -> str:
    import regex
    import tiktoken
    import tokenizers

    return (
        f"Python {platform.python_version()}, regex {regex.__version__}, "
        f"tokenizers {tokenizers.__version__}, tiktoken {tiktoken.__version__}; "
        f"{os.cpu_count()} cores, {platform.machine()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", nargs="+", default=CORPORA)
    parser.add_argument("--vocab-sizes", nargs="+", type=int, default=[1000, 5000, 20000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--naive-cap", type=float, default=20.0, help="seconds per naive run")
    parser.add_argument("--output", type=Path, default=ROOT / "BENCHMARKS.md")
    args = parser.parse_args()
    paths = [SHARED / "corpora" / f"{name}.txt" for name in args.corpora]
    missing = [p for p in paths if not p.exists()]
    if missing:
        sys.exit(f"error: missing corpora (../shared is beside developer checkouts): {missing}")
    started = time.perf_counter()
    train = [
        row
        for p in paths
        for row in training_rows(p, args.vocab_sizes, args.repeat, args.naive_cap)
    ]
    encode = [encoding_row(p, args.repeat) for p in paths]
    command = " ".join(["python", "bench/benchmark.py", *sys.argv[1:]])
    args.output.write_text(report(train, encode, command, time.perf_counter() - started))
    print(f"wrote {args.output}")


def report(train: list[str], encode: list[str], command: str, seconds: float) -> str:
    return "\n".join(
        [
            "# Benchmarks",
            "",
            f"Machine: {versions()}. Produced by `{command}` in {seconds / 60:.1f} min; "
            "medians of the runs, each in its own process.",
            "",
            "## Training (seconds; peak RSS in MiB)",
            "",
            "| corpus | V | ours | HF | HF 1 thread | ours/HF | ours/HF 1t | naive (s) "
            "| ours MiB | HF MiB | MiB ratio |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
            *train,
            "",
            "## Encoding with the GPT-2 vocabulary (MB/s; peak RSS in MiB)",
            "",
            "| corpus | MB | ours MB/s | tiktoken MB/s | ours/tiktoken | same ids | ours MiB "
            "| tiktoken MiB |",
            "|---|---|---|---|---|---|---|---|",
            *encode,
            "",
        ]
    )


if __name__ == "__main__":
    main()
