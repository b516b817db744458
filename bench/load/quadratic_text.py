"""Peak memory and time of the quadratic text on the command line and through the Train page.

Not a test. The text is issue 35's: X + newline + X, X 60,000 random letters (seeded),
trained with gpt4 to vocab 50,000. The command line runs in a subprocess under `ulimit
-v` (CAP_KB); the Train page runs in this process through Streamlit's AppTest (the
training itself goes to a child Python, as on a server). Peak RSS is getrusage's: this
process for the page's server side, the largest child for the CLI and the training child.

    .venv/bin/python -m bench.load.quadratic_text --part cli
    .venv/bin/python -m bench.load.quadratic_text --part app
    .venv/bin/python -m bench.load.quadratic_text --part app --letters 20000  # 40 KB

Last line: `cli: ...` or `app: ...` with seconds, peak RSS and how training ended.
"""

from __future__ import annotations

import argparse
import random
import resource
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
CAP_KB = 1_500_000
VOCAB = 50_000


def quadratic_text(letters: int, seed: int = 35) -> str:
    rng = random.Random(seed)
    x = "".join(rng.choice(string.ascii_lowercase) for _ in range(letters))
    return f"{x}\n{x}"


def children_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def own_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cli(text: str) -> str:
    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder) / "quadratic.txt"
        corpus.write_text(text, encoding="utf-8")
        command = f'ulimit -v {CAP_KB}; exec "$@"'
        args = [sys.executable, "-m", "explorer", "train", str(corpus), "--vocab-size"]
        started = time.perf_counter()
        done = subprocess.run(
            ["bash", "-c", command, "cli", *args, str(VOCAB), "--output", f"{folder}/q"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - started
        written = sum(p.stat().st_size for p in Path(folder).glob("q.*"))
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    return (
        f"cli: {seconds:.1f} s, peak RSS {children_peak_mb():,.0f} MB (cap {CAP_KB // 1000} MB), "
        f"exit {done.returncode}, wrote {written / 1e6:,.1f} MB; {last[:160]}"
    )


def app(text: str) -> str:
    page = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=600)
    page.run()
    page.switch_page("pages/train.py")
    page.run()
    page.radio(key="train_source").set_value("paste").run()
    page.text_area(key="train_paste").input(text)
    page.number_input(key="train_vocab").set_value(VOCAB)
    page.run()
    started = time.perf_counter()
    page.button(key="train_go").click().run()
    seconds = time.perf_counter() - started
    warnings = [w.value for w in page.warning if "stopped" in str(w.value)]
    ended = warnings[0][:100] if warnings else f"no stop warning; errors: {page.error}"
    return (
        f"app: {seconds:.1f} s from the click to the page, peak RSS {own_peak_mb():,.0f} MB "
        f"(this process: the page's server side), {children_peak_mb():,.0f} MB (largest "
        f"child: the training); {ended}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--letters", type=int, default=60_000)
    parser.add_argument("--part", choices=("cli", "app"), required=True)
    args = parser.parse_args()
    text = quadratic_text(args.letters)
    print(f"text: {len(text.encode()):,} bytes, vocab {VOCAB:,}")
    # one part a run: a child forked from a large process counts its pages until exec
    print(cli(text) if args.part == "cli" else app(text), flush=True)


if __name__ == "__main__":
    main()
