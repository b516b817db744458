"""Time every metric of explorer/analysis/compression/metrics.py for a 20,000-token run on ~1 MB of
text.

Not a test. Trains --train (default ../shared/corpora/tinyshakespeare.txt, 1.1 MB) to
vocab size 20,000 with the gpt4 pattern, then, best of --repeat on --text (default the
same file), times:

1. the plain encode alone (what any curve of this text must pay), on a tokenizer with
   empty caches each time (a second encode of the same text reuses cached pieces);
2. `count_text`: that encode plus the walk of each distinct token-in-context's tree;
3. `metrics_at` for all 19,745 sizes 256..20,000 from those counts, and for five sizes.

    .venv/bin/python -m bench.engine.metrics_timing [--shared ../shared] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from explorer import Tokenizer, train
from explorer.analysis.compression.metrics import count_text, metrics_at

ROOT = Path(__file__).resolve().parents[2]

VOCAB_SIZE = 20_000
TABLE_SIZES = [1_000, 2_000, 5_000, 10_000, 20_000]


Timing = tuple[float, float]  # (wall, CPU) seconds: on a shared machine CPU is steadier


def best_of(repeat: int, work: Callable[[], object]) -> tuple[Timing, object]:
    """The fastest of `repeat` runs, wall and CPU seconds, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return min(times), result


def cold(tok: Tokenizer) -> Tokenizer:
    """The same tokenizer with empty encode caches and its lookup tables built (untimed)."""
    fresh = Tokenizer(tok.merges, pattern=tok.pattern, trained=True)
    fresh.prepare_encoding()
    return fresh


def best_cold(repeat: int, tok: Tokenizer, work: Callable[[Tokenizer], object]) -> Timing:
    """The fastest of `repeat` runs of work on a cold copy of the tokenizer (wall, CPU)."""
    times = []
    for _ in range(repeat):
        fresh = cold(tok)
        wall, cpu = time.perf_counter(), time.process_time()
        work(fresh)
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return min(times)


def shown(timing: Timing) -> str:
    return f"{timing[0]:.3f} s wall, {timing[1]:.3f} s CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--train", type=Path, default=None)
    parser.add_argument("--text", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    corpus = args.train or args.shared / "corpora" / "tinyshakespeare.txt"
    text_path = args.text or corpus
    start = time.perf_counter()
    tok = train(corpus.read_bytes().decode("utf-8"), VOCAB_SIZE, pattern="gpt4").tokenizer
    print(f"trained {corpus.name} to {VOCAB_SIZE:,} in {time.perf_counter() - start:.2f} s")
    text = text_path.read_bytes().decode("utf-8")
    tok.prepare_encoding()
    encode_s = best_cold(args.repeat, tok, lambda fresh: fresh.encode_ordinary(text))
    count_s = best_cold(args.repeat, tok, lambda fresh: count_text(fresh, text))
    counts = count_text(tok, text)
    ids = tok.encode_ordinary(text)
    every = range(256, VOCAB_SIZE + 1)
    every_s, curve = best_of(args.repeat, lambda: metrics_at(tok, counts, every))
    table_s, table = best_of(args.repeat, lambda: metrics_at(tok, counts, TABLE_SIZES))
    size_mb = len(text.encode()) / 1e6
    print(f"text: {text_path.name}, {size_mb:.2f} MB, {len(ids):,} tokens at {VOCAB_SIZE:,}")
    total = (count_s[0] + every_s[0], count_s[1] + every_s[1])
    print(f"encode alone:                     {shown(encode_s)}")
    print(f"count_text (encode + trees):      {shown(count_s)}")
    print(f"metrics at all {len(curve):,} sizes:    {shown(every_s)}")
    print(f"metrics at {len(table)} sizes:               {shown(table_s)}")
    print(f"all metrics at every size, total: {shown(total)}")
    last = curve[-1]
    print(
        f"at {last.size:,}: {last.bytes_per_token:.3f} bytes/token, fertility "
        f"{last.fertility:.3f}, continued {last.continued_words:.3f}, Rényi "
        f"{last.renyi_efficiency:.3f}, vocab used {last.vocab_used:.3f}"
    )


if __name__ == "__main__":
    main()
