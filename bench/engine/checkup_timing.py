"""How long a vocabulary's check-up takes (explorer.analysis.vocabulary.checkup), and tiktoken's
same loop.

For GPT-2, GPT-4 and GPT-4o (bundled) and a tokenizer trained here on the sample texts:
wall and CPU seconds of `check_up` (every token encoded on its own), the median of
--repeat runs in this process after one untimed warm-up (loading and encoding tables
built), beside tiktoken encoding the same tokens one by one. A benchmark, not a test.

    python -m bench.engine.checkup_timing --repeat 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from explorer.analysis.vocabulary.checkup import check_up
from explorer.encoding.tokenizer import Tokenizer
from explorer.files.bundled import load_bundled
from explorer.training.train import train

ROOT = Path(__file__).resolve().parents[2]

TRAINED_SIZE = 20_000


def timed(work: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall and CPU seconds of `repeat` runs of work()."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def tiktoken_loop(tokenizer: Tokenizer) -> Callable[[], object] | None:
    """tiktoken encoding each UTF-8 token of the tokenizer alone (None: tiktoken missing)."""
    try:
        import tiktoken
    except ImportError:
        return None
    ranks = {tokenizer.vocab[i]: i for i in range(tokenizer.vocab_size)}  # ids as ranks
    encoding = tiktoken.Encoding(
        name="checkup-bench", pat_str=tokenizer.pattern, mergeable_ranks=ranks, special_tokens={}
    )
    texts = []
    for token, i in ranks.items():
        try:
            texts.append((token.decode("utf-8"), i))
        except UnicodeDecodeError:
            continue
    return lambda: sum(encoding.encode_ordinary(text) != [i] for text, i in texts)


def trained_tokenizer() -> Tokenizer:
    samples = sorted((ROOT / "sample_texts").glob("*.txt"))
    text = "\n".join(path.read_text("utf-8") for path in samples)
    return train(text, TRAINED_SIZE, pattern="gpt4").tokenizer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load average at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    print("| tokenizer | tokens | check_up wall (CPU) | unreachable | tiktoken loop |")
    print("|---|---|---|---|---|")
    cases: list[tuple[str, Callable[[], Tokenizer]]] = [
        (name, lambda name=name: load_bundled(name))
        for name in ("gpt2", "cl100k_base", "o200k_base")
    ]
    cases.append((f"trained on sample_texts/ (gpt4) to {TRAINED_SIZE:,}", trained_tokenizer))
    for label, make in cases:
        tokenizer = make()
        report = check_up(tokenizer)  # warm-up: encoding tables built once
        wall, cpu = timed(lambda tokenizer=tokenizer: check_up(tokenizer), args.repeat)
        loop = tiktoken_loop(tokenizer)
        reference = "–" if loop is None else f"{timed(loop, args.repeat)[0]:.2f} s"
        print(
            f"| {label} | {tokenizer.vocab_size:,} | {wall:.2f} s ({cpu:.2f} s) | "
            f"{len(report.unreachable)} | {reference} |"
        )
    print(f"\nload average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
