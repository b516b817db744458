"""Train on text with no letters (digits and commas) beside prose of the same size.

Prints a Markdown table: seconds and peak RSS of `python -m explorer train` on each.
A benchmark, not a test. Needs the developers' ../shared corpora for the prose.

    python -m bench.engine.no_cut_text --megabytes 60 --vocab-size 1000 --workers 1
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROSE = ROOT.parent / "shared" / "corpora" / "mix19.txt"


def digits_and_commas(path: Path, size: int) -> None:
    """A numeric CSV: rows of integers and decimals, separated by commas, one row a line."""
    rng = random.Random(14)
    with path.open("w", encoding="utf-8", newline="") as out:
        written = 0
        while written < size:
            row = ",".join(str(rng.randint(0, 10 ** rng.randint(1, 7))) for _ in range(8))
            row += f",{rng.random():.6f}\n"
            out.write(row)
            written += len(row)


def prose(path: Path, size: int) -> None:
    """mix19.txt repeated to the size (a corpus the tests already use)."""
    data = PROSE.read_bytes()
    with path.open("wb") as out:
        for _ in range(size // len(data)):
            out.write(data)
        out.write(data[: size % len(data)].decode("utf-8", "ignore").encode("utf-8"))


def train(path: Path, vocab_size: int, workers: int, output: Path) -> tuple[float, float]:
    """Seconds and peak RSS (MiB) of training in a fresh process."""
    command = [sys.executable, "-m", "explorer", "train", str(path)]
    command += ["--vocab-size", str(vocab_size), "--workers", str(workers)]
    command += ["--output", str(output)]
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    seconds = time.perf_counter() - started
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=60)
    parser.add_argument("--vocab-size", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    size = args.megabytes * 1_000_000
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name, make in (("digits and commas", digits_and_commas), ("prose (mix19)", prose)):
            path = Path(folder) / "corpus.txt"
            make(path, size)
            # each run in its own child: RUSAGE_CHILDREN's peak is then that child's
            seconds, mib = _in_fresh_parent(path, args.vocab_size, args.workers, folder)
            rows.append(
                f"| {name} | {path.stat().st_size / 1e6:.0f} MB | {seconds:.1f} | {mib:.0f} |"
            )
            path.unlink()
    print("| text | size | seconds | peak RSS (MiB) |")
    print("|---|---|---|---|")
    print("\n".join(rows))


def _in_fresh_parent(path: Path, vocab_size: int, workers: int, folder: str) -> tuple[float, float]:
    """Run `train` from a new Python process, so that the peak is this run's alone."""
    code = (
        "import sys; from bench.engine.no_cut_text import train; "
        "from pathlib import Path; "
        "print(*train(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), Path(sys.argv[5])))"
    )
    output = Path(folder) / "out"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            "",  # sys.argv[1], unused: the child imports bench from cwd
            str(path),
            str(vocab_size),
            str(workers),
            str(output),
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    seconds, mib = done.stdout.split()
    return float(seconds), float(mib)


if __name__ == "__main__":
    main()
