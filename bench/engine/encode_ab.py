"""Encoding throughput in one process, ours and tiktoken's taking turns: a ratio load barely moves.

Not a test. `bench.engine.ratios encode` times each tool in fresh processes; on a machine
other work keeps busy, a burst lands on one side. Here both live in one process (ours:
`load_bundled(name).encode`, which goes through tiktoken where it is exact; theirs:
tiktoken's Encoding built from the same files), and their calls alternate on each text,
so load hits both alike. Reported: CPU and wall medians and ours/theirs; ids compared.

    .venv/bin/python -m bench.engine.encode_ab --repeat 5
    .venv/bin/python -m bench.engine.encode_ab --vocabularies gpt2 --corpora mix19
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.engine.ratios import (
    CORPORA,
    VOCABULARIES,
    corpus_path,
    cpu_model,
    load_average,
    vocabulary_fields,
)


def tiktoken_encoding(name: str) -> Any:
    """tiktoken's Encoding of a bundled vocabulary, read by tiktoken from the same files."""
    import tiktoken
    from tiktoken.load import data_gym_to_mergeable_bpe_ranks, load_tiktoken_bpe

    fields = vocabulary_fields(name)
    files = fields["files"]
    if len(files) == 2:
        ranks = data_gym_to_mergeable_bpe_ranks(files[1], files[0])
    else:
        ranks = load_tiktoken_bpe(files[0])
    return tiktoken.Encoding(
        name, pat_str=fields["pattern"], mergeable_ranks=ranks, special_tokens=fields["specials"]
    )


def timed(encode: Callable[[str], list[int]], text: str) -> tuple[float, float, list[int]]:
    wall, cpu = time.perf_counter(), time.process_time()
    ids = encode(text)
    return time.perf_counter() - wall, time.process_time() - cpu, ids


def row(name: str, corpus: str, repeat: int, ours: Any, theirs: Any) -> str:
    with open(corpus_path(corpus), encoding="utf-8", newline="") as file:
        text = file.read()
    runs: dict[str, list[tuple[float, float]]] = {"ours": [], "theirs": []}
    ids: dict[str, list[int]] = {}
    for _ in range(repeat):
        for side, encode in (
            ("ours", lambda t: ours.encode(t, disallowed_special=())),
            ("theirs", theirs.encode_ordinary),
        ):
            wall, cpu, ids[side] = timed(encode, text)
            runs[side].append((wall, cpu))
    same = ids["ours"] == ids["theirs"]
    megabytes = len(text.encode("utf-8")) / 1e6

    def median(side: str, index: int) -> float:
        return statistics.median(run[index] for run in runs[side])

    return (
        f"| {name}, {corpus}{'' if same else ' (IDS DIFFER)'} | {megabytes:.1f} "
        f"| {megabytes / median('ours', 1):.1f} | {megabytes / median('theirs', 1):.1f} "
        f"| **{median('theirs', 1) / median('ours', 1):.2f}** "
        f"| {median('theirs', 0) / median('ours', 0):.2f} | {load_average()} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocabularies", nargs="+", default=VOCABULARIES, choices=VOCABULARIES)
    parser.add_argument("--corpora", nargs="+", default=["mix19", "multi_ja_th"], choices=CORPORA)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"CPU: {cpu_model()}; load average {load_average()}\n")
    print(
        "| vocabulary, corpus | MB | ours MB/s (CPU) | tiktoken MB/s (CPU) "
        "| throughput ours/tiktoken, CPU | the same, wall | load |"
    )
    print("|---|---|---|---|---|---|---|")
    from explorer import load_bundled

    for name in args.vocabularies:
        ours, theirs = load_bundled(name), tiktoken_encoding(name)
        ours.prepare_encoding()
        for corpus in args.corpora:
            print(row(name, corpus, args.repeat, ours, theirs), flush=True)


if __name__ == "__main__":
    main()
