"""Load .tiktoken files of tokens a, aa, aaa, ... (issue 21's 19.5 MB upload), each in a
fresh process, through the loader the Train page uses (explorer.files.loading).

Prints a Markdown table: the file's size, its tokens' bytes, whether it loaded, CPU
seconds and peak RSS. A benchmark, not a test.

    python -m bench.engine.rank_file_load --tokens 5400 2045 1000
"""

from __future__ import annotations

import argparse
import base64
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHILD = """
import resource, sys, time
from explorer.files.loading import load_uploads
data = open(sys.argv[1], "rb").read()
cpu = time.process_time()
try:
    load_uploads([("runs.tiktoken", data)])
    outcome = "loaded"
except ValueError as error:
    outcome = "refused: " + str(error)[:60]
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{outcome}|{time.process_time() - cpu:.2f}|{peak:.0f}")
"""


def write_runs(path: Path, tokens: int) -> int:
    """The 256 single bytes, then a * 2 ... a * (tokens + 1); returns the tokens' bytes."""
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    lines += [f"{base64.b64encode(b'a' * k).decode()} {254 + k}" for k in range(2, tokens + 2)]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return 256 + sum(range(2, tokens + 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tokens", type=int, nargs="+", default=[5400, 2045, 1000])
    args = parser.parse_args()
    print("| tokens past 'a' | file MB | token bytes | outcome | CPU s | peak RSS MiB |")
    print("|---:|---:|---:|---|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for tokens in args.tokens:
            path = Path(folder) / f"runs{tokens}.tiktoken"
            token_bytes = write_runs(path, tokens)
            child = subprocess.run(
                [sys.executable, "-c", CHILD, str(path)],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
                timeout=1800,
            )
            outcome, cpu, peak = child.stdout.strip().rsplit("|", 2)
            size = path.stat().st_size / 1e6
            print(f"| {tokens:,} | {size:.1f} | {token_bytes:,} | {outcome} | {cpu} | {peak} |")


if __name__ == "__main__":
    main()
