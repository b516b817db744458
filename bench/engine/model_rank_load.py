"""Load real rank files and tekken JSON through `explorer.models.reading.read_model`, each in a
fresh process, beside the reference library's own load of the same file in another fresh process.

For each file: wall and CPU seconds of the load, peak RSS of the process after it (Python and
the imports included), the reference's figures, the ratio, and the CPU seconds to list every
merge (`len(model.merges)`, found lazily: the lineage and the Vocabulary page ask for it,
encoding never does). The last row is the worst shape at MAX_RANKED_BYTES: tokens a, aa, aaa, ...
A benchmark, not a test.

    python -m bench.engine.model_rank_load
"""

from __future__ import annotations

import argparse
import base64
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPEN_WEIGHT = ROOT.parent / "shared" / "reference" / "open-weight"
OURS = """
import resource, sys, time
from explorer.models.reading import read_model
data = open(sys.argv[1], "rb").read()
wall, cpu = time.perf_counter(), time.process_time()
model = read_model(sys.argv[1].rsplit("/", 1)[-1], data, pattern=sys.argv[2])
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
merges = time.process_time()
count = len(model.merges)
merges = time.process_time() - merges
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{wall:.2f}|{cpu:.2f}|{peak:.0f}|{count}|{merges:.2f} ({after:.0f})|{model.vocab_size}")
"""
REFERENCE = """
import resource, sys, time
path, kind = sys.argv[1], sys.argv[2]
wall, cpu = time.perf_counter(), time.process_time()
if kind == "tekken":
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer
    Tekkenizer.from_file(path)
else:
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe
    tiktoken.Encoding("x", pat_str=r"\\s+|\\S+", mergeable_ranks=load_tiktoken_bpe(path),
                      special_tokens={})
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{wall:.2f}|{cpu:.2f}|{peak:.0f}")
"""
FILES = [
    ("Llama 3 tokenizer.model", OPEN_WEIGHT / "llama3" / "tokenizer.model", "ranks"),
    ("Mistral tekken_240911.json", OPEN_WEIGHT / "mistral" / "tekken_240911.json", "tekken"),
    ("cl100k_base.tiktoken", ROOT / "vocabularies" / "cl100k_base.tiktoken", "ranks"),
    ("o200k_base.tiktoken", ROOT / "vocabularies" / "o200k_base.tiktoken", "ranks"),
]


def _child(code: str, *args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if done.returncode != 0:
        return ["—"] * 6 + [done.stderr.strip().splitlines()[-1][:60]]
    return done.stdout.strip().split("|")


def write_runs(path: Path, token_bytes: int) -> None:
    """The 256 single bytes, then a * 2, a * 3, ... up to about `token_bytes` bytes in all."""
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    total, length = 256, 2
    while total + length <= token_bytes:
        lines.append(f"{base64.b64encode(b'a' * length).decode()} {len(lines)}")
        total, length = total + length, length + 1
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.parse_args()
    print(
        "| file | ids | load s (CPU s) | peak RSS MiB | reference s (CPU s) | ratio | "
        "reference RSS MiB | merges | merges listed: CPU s (peak RSS MiB) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        worst = Path(folder) / "runs.tiktoken"
        write_runs(worst, 2 << 20)
        for label, path, kind in [*FILES, ("a, aa, aaa, ... (2 MiB)", worst, "ranks")]:
            if not path.exists():
                print(f"| {label} | not here | | | | | | | |")
                continue
            pattern = "gpt2" if path == worst else ""
            wall, cpu, peak, merges, listed, ids, *_ = _child(OURS, str(path), pattern)
            ref_wall, ref_cpu, ref_peak, *_ = _child(REFERENCE, str(path), kind)
            ratio = f"{float(wall) / float(ref_wall):.2f}" if "—" not in (wall, ref_wall) else "—"
            print(
                f"| {label} | {ids} | {wall} ({cpu}) | {peak} | {ref_wall} ({ref_cpu}) | "
                f"{ratio} | {ref_peak} | {merges} | {listed} |"
            )


if __name__ == "__main__":
    main()
