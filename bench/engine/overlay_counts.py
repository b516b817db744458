"""Time the overlay's work for one run and one text: the encode (counts, a block at a time)
and every metric at the chart's and table's sizes. Not a test; prints one line per run.

    .venv/bin/python -m bench.engine.overlay_counts --mb 1
    .venv/bin/python -m bench.engine.overlay_counts --mb 20

The text is the Shakespeare sample and the 26 UDHR languages, repeated to the size asked;
the runs are a 20,000 trained on them (gpt4 pattern) and GPT-4o's o200k_base.
"""

from __future__ import annotations

import argparse
import time

from explorer import load_bundled, train
from explorer.analysis.compression.block_counts import counts_in_blocks
from explorer.analysis.compression.metrics import metrics_at
from ui.compare.overlay.chart import log_sizes
from ui.compare.overlay.section import CHART_POINTS
from ui.compare.overlay.table import TABLE_SIZES
from ui.session.samples import sample_text, udhr_texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0, help="megabytes of text (MiB)")
    args = parser.parse_args()
    base = sample_text("shakespeare") + "\n".join(udhr_texts().values())
    size = int(args.mb * 2**20)
    text = (base * (size // len(base) + 1))[:size]
    corpus = sample_text("shakespeare") + sample_text("udhr")
    runs = {
        "trained gpt4 20k": train(corpus, 20_000, pattern="gpt4").tokenizer,
        "o200k_base": load_bundled("o200k_base"),
    }
    for name, tokenizer in runs.items():
        started = time.perf_counter()
        counts = counts_in_blocks(tokenizer, text)
        counted = time.perf_counter()
        full = 256 + len(tokenizer.merges)
        sizes = sorted(
            {*log_sizes(256, full, CHART_POINTS), *TABLE_SIZES} & set(range(256, full + 1))
        )
        metrics_at(tokenizer, counts, sizes)
        done = time.perf_counter()
        print(
            f"{name} ({full:,}) on {args.mb:g} MB: encode and counts {counted - started:.2f} s, "
            f"five metrics at {len(sizes)} sizes {done - counted:.2f} s"
        )


if __name__ == "__main__":
    main()
