"""Training time: our engine against Hugging Face `tokenizers` in the same run.

Not a test: it prints figures for notes. Each measurement runs in a fresh subprocess
(HF reads RAYON_NUM_THREADS at import), median of --repeat runs.

    python bench/train_vs_hf.py ../shared/corpora/tinyshakespeare.txt --vocab-size 5000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

OURS = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from explorer import train_files
start = time.perf_counter()
result = train_files([{path!r}], {vocab}, pattern="gpt2")
seconds = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"seconds": seconds, "merges": len(result.history.steps), "rss_mib": rss}}))
"""

HF = """
import json, resource, time
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
trainer = trainers.BpeTrainer(vocab_size={vocab}, show_progress=False,
                              initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
start = time.perf_counter()
tok.train([{path!r}], trainer)
seconds = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"seconds": seconds, "merges": tok.get_vocab_size() - 256, "rss_mib": rss}}))
"""


def measure(code: str, threads: str | None) -> dict:
    env = dict(os.environ)
    if threads:
        env["RAYON_NUM_THREADS"] = threads
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def median_of(code: str, repeat: int, threads: str | None = None) -> dict:
    runs = [measure(code, threads) for _ in range(repeat)]
    return {
        "seconds": statistics.median(r["seconds"] for r in runs),
        "merges": runs[0]["merges"],
        "rss_mib": statistics.median(r["rss_mib"] for r in runs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--vocab-size", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| corpus | V | ours s | HF s (default threads) | HF s (1 thread) | ratio | ratio 1t |")
    print("|---|---|---|---|---|---|---|")
    for path in args.files:
        fields = {"root": str(ROOT), "path": str(Path(path).resolve()), "vocab": args.vocab_size}
        ours = median_of(OURS.format(**fields), args.repeat)
        hf = median_of(HF.format(**fields), args.repeat)
        hf1 = median_of(HF.format(**fields), args.repeat, threads="1")
        print(
            f"| {Path(path).name} | {args.vocab_size} | {ours['seconds']:.2f} "
            f"| {hf['seconds']:.2f} | {hf1['seconds']:.2f} "
            f"| {ours['seconds'] / hf['seconds']:.2f}x | {ours['seconds'] / hf1['seconds']:.2f}x |"
        )


if __name__ == "__main__":
    main()
