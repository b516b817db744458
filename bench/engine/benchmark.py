"""Benchmark the engine against its anchors and write BENCHMARKS.md.

Not a test. Each measurement runs in a fresh subprocess (so peak memory is its own and
HF reads RAYON_NUM_THREADS at import); figures are medians of --repeat runs, and every
ratio compares figures taken in the same run.

    .venv/bin/python -m bench.engine.benchmark                       # everything (~15 min)
    .venv/bin/python -m bench.engine.benchmark --corpora tinyshakespeare --vocab-sizes 5000 \
        --no-big --no-app                                     # a quick look

Training: ours (train_files, gpt2 pattern, both cores for counting big files) against
Hugging Face `tokenizers` (BPE trainer, ByteLevel pre-tokenizer with its 256-symbol
alphabet; default threads and one thread), and the seeds' naive algorithm (recount every
pair each merge), capped in time and extrapolated linearly from the merges it finished.
Peak memory is the whole process tree's (counting processes included; proportional set
size, so pages forked processes share count once), sampled every 20 ms, or the process's
own high-water mark when that is higher.
Encoding: MB/s with the GPT-2 vocabulary, ours against tiktoken, ids checked identical in
the same run; setup (loading the vocabulary, building lookup tables) is timed apart.
Long runs: texts that are one long pre-token, cold, ours against tiktoken with each
bundled vocabulary (bench/engine/long_runs.py; `--only-long-runs` measures just these and
rewrites only their block of BENCHMARKS.md). Any size: the command line on mix19 ten
times over (191 MB; --big-times 47 for ~900 MB) to V = 1000, and the same merges checked
against one process. The app: bench/browser/app_timing.py in headless Chromium.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.common.markdown_blocks import (
    KEPT_IN_BENCHMARKS,
    LONG_RUNS,
    block,
    commit,
    replace_block,
)
from bench.engine import long_runs
from bench.engine.ratios import (
    TABLE_HEAD,
    Row,
    bench_env,
    cpu_model,
    encode_cli_rows,
    load_average,
    train_rows,
)

ROOT = Path(__file__).resolve().parents[2]

SHARED = ROOT.parent / "shared"
CORPORA = ["tinyshakespeare", "multi_ja_th", "linux_kernel_c", "mix19"]

PEAK = "import resource; rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024"

OURS_TRAIN = f"""
import json, sys, time
sys.path.insert(0, {str(ROOT)!r})
from explorer import train_files
start = time.perf_counter()
result = train_files([{{path!r}}], {{vocab}}, pattern="gpt2", workers=2)
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
from explorer.encoding.pretokenize import GPT2_PATTERN
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
start = time.perf_counter()
tok = load_bundled("gpt2")
tok.prepare_encoding()
setup = time.perf_counter() - start
text = open({{path!r}}, encoding="utf-8", newline="").read()
start = time.perf_counter()
ids = tok.encode(text, disallowed_special=())
seconds = time.perf_counter() - start
{PEAK}
print(json.dumps({{{{"seconds": seconds, "setup": setup, "ids": hash(tuple(ids)), "rss": rss}}}}))
"""

TIKTOKEN_ENCODE = f"""
import json, sys, time
import tiktoken
from tiktoken.load import data_gym_to_mergeable_bpe_ranks
sys.path.insert(0, {str(ROOT)!r})
from explorer.encoding.pretokenize import GPT2_PATTERN
gpt2 = {str(ROOT / "vocabularies" / "gpt2")!r}
start = time.perf_counter()
ranks = data_gym_to_mergeable_bpe_ranks(gpt2 + "/vocab.bpe", gpt2 + "/encoder.json")
enc = tiktoken.Encoding("gpt2", pat_str=GPT2_PATTERN, mergeable_ranks=ranks,
                        special_tokens={{{{"<|endoftext|>": 50256}}}})
setup = time.perf_counter() - start
text = open({{path!r}}, encoding="utf-8", newline="").read()
start = time.perf_counter()
ids = enc.encode_ordinary(text)
seconds = time.perf_counter() - start
{PEAK}
print(json.dumps({{{{"seconds": seconds, "setup": setup, "ids": hash(tuple(ids)), "rss": rss}}}}))
"""


BIG_TRAIN = """
import subprocess, sys, time
start = time.perf_counter()
subprocess.run([sys.executable, "-m", "explorer", "train", {path!r}, "--vocab-size", "1000",
                "--pattern", "gpt2", "--workers", "{workers}", "--output", {prefix!r}],
               check=True, cwd={root!r}, stderr=subprocess.DEVNULL)
seconds = time.perf_counter() - start
import json, resource
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({{"seconds": seconds, "rss": rss}}))
"""


@dataclass
class Figure:
    seconds: float  # the median
    rss: float
    extra: dict
    low: float = 0.0  # the fastest and slowest run: the spread across repeats
    high: float = 0.0

    def spread(self) -> str:
        return f"{self.seconds:.2f} ({self.low:.2f}–{self.high:.2f})"


def run(code: str, threads: str | None = None) -> dict:
    """Run code in a fresh process; its JSON result, with `rss` = peak MiB of the whole tree."""
    env = bench_env(TIKTOKEN_CACHE_DIR="")  # bytecode cached, as a user's second run has it
    if threads:
        env["RAYON_NUM_THREADS"] = threads
    process = subprocess.Popen(
        [sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True
    )
    peak_kib = 0
    while process.poll() is None:
        peak_kib = max(peak_kib, _tree_pss_kib(process.pid))
        time.sleep(0.02)
    out = process.stdout.read() if process.stdout else ""
    if process.returncode:
        raise RuntimeError(f"a measurement failed (exit {process.returncode}):\n{code}")
    result = json.loads(out.strip().splitlines()[-1])
    result["rss"] = max(result["rss"], peak_kib / 1024)
    return result


def _tree_pss_kib(pid: int) -> int:
    """Memory of a process and all its descendants now: the sum of their proportional set
    sizes (a page shared by forked processes is counted once in all); 0 once gone."""
    total = 0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            rollup = Path(f"/proc/{current}/smaps_rollup").read_text()
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        for line in rollup.splitlines():
            if line.startswith("Pss:"):
                total += int(line.split()[1])
        pending.extend(int(child) for child in children)
    return total


def median(code: str, repeat: int, threads: str | None = None) -> Figure:
    return medians({"only": (code, threads)}, repeat)["only"]


def medians(codes: dict[str, tuple[str, str | None]], repeat: int) -> dict[str, Figure]:
    """Each (code, threads) `repeat` times, taking turns, so that load from other work on
    a shared machine falls on every tool alike; a figure per name."""
    runs: dict[str, list[dict]] = {name: [] for name in codes}
    for _ in range(repeat):
        for name, (code, threads) in codes.items():
            runs[name].append(run(code, threads))
    return {name: _figure(found) for name, found in runs.items()}


def _figure(runs: list[dict]) -> Figure:
    extra = {k: v for k, v in runs[0].items() if k not in ("seconds", "rss")}
    if "setup" in runs[0]:
        extra["setup"] = statistics.median(r["setup"] for r in runs)
    seconds = [r["seconds"] for r in runs]
    return Figure(
        statistics.median(seconds),
        statistics.median(r["rss"] for r in runs),
        extra,
        min(seconds),
        max(seconds),
    )


@dataclass
class Training:
    corpus: str
    vocab: int
    ours: Figure
    hf: Figure
    hf1: Figure
    naive_seconds: float
    naive_merges: int
    merges: int

    def row(self) -> str:
        capped = (
            "" if self.naive_merges >= self.merges else f" (extrapolated from {self.naive_merges})"
        )
        return (
            f"| {self.corpus} | {self.vocab:,} | {self.ours.spread()} | {self.hf.spread()} "
            f"| {self.hf1.seconds:.2f} | **{self.ours.seconds / self.hf.seconds:.2f}×** "
            f"| {self.ours.seconds / self.hf1.seconds:.2f}× | {self.naive_seconds:,.0f}{capped} "
            f"| {self.ours.rss:,.0f} | {self.hf.rss:,.0f} | {self.ours.rss / self.hf.rss:.2f}× |"
        )


def training(path: Path, sizes: list[int], repeat: int, naive_cap: float) -> list[Training]:
    results = []
    for vocab in sizes:
        fields = {"path": str(path), "vocab": vocab, "cap": naive_cap}
        found = medians(
            {
                "ours": (OURS_TRAIN.format(**fields), None),
                "hf": (HF_TRAIN.format(**fields), None),
                "hf1": (HF_TRAIN.format(**fields), "1"),
            },
            repeat,
        )
        ours, hf, hf1 = found["ours"], found["hf"], found["hf1"]
        naive = run(NAIVE_TRAIN.format(**fields))
        merges = ours.extra["merges"]
        naive_s = naive["seconds"] * merges / max(1, naive["merges"])
        results.append(Training(path.stem, vocab, ours, hf, hf1, naive_s, naive["merges"], merges))
        print(results[-1].row(), flush=True)
    return results


@dataclass
class Encoding:
    corpus: str
    size_mb: float
    ours: Figure
    theirs: Figure

    @property
    def ratio(self) -> float:
        return self.theirs.seconds / self.ours.seconds

    def row(self) -> str:
        same = "yes" if self.ours.extra["ids"] == self.theirs.extra["ids"] else "**NO**"
        return (
            f"| {self.corpus} | {self.size_mb:.1f} | {self.size_mb / self.ours.seconds:.2f} "
            f"({self.size_mb / self.ours.high:.2f}–{self.size_mb / self.ours.low:.2f}) "
            f"| {self.size_mb / self.theirs.seconds:.2f} | **{self.ratio:.2f}** | {same} "
            f"| {self.ours.extra['setup']:.2f} | {self.theirs.extra['setup']:.2f} "
            f"| {self.ours.rss:,.0f} | {self.theirs.rss:,.0f} |"
        )


def encoding(path: Path, repeat: int) -> Encoding:
    found = medians(
        {
            "ours": (OURS_ENCODE.format(path=str(path)), None),
            "theirs": (TIKTOKEN_ENCODE.format(path=str(path)), None),
        },
        repeat,
    )
    ours, theirs = found["ours"], found["theirs"]
    result = Encoding(path.stem, path.stat().st_size / 1e6, ours, theirs)
    print(result.row(), flush=True)
    return result


def big_run(times: int = 10) -> dict:
    """The command line on mix19 `times` over, on both cores and on one: time, memory, merges."""
    source = SHARED / "corpora" / "mix19.txt"
    with tempfile.TemporaryDirectory() as folder:
        big = Path(folder) / f"mix19x{times}.txt"
        data = source.read_bytes()
        with big.open("wb") as handle:
            for _ in range(times):
                handle.write(data)
        figures = {}
        for workers in (2, 1):
            prefix = str(Path(folder) / f"w{workers}")
            code = BIG_TRAIN.format(path=str(big), workers=workers, prefix=prefix, root=str(ROOT))
            figures[workers] = run(code)
            figures[workers]["model"] = Path(prefix + ".model").read_bytes()
            print(
                f"mix19 x {times}, {workers} worker(s): {figures[workers]['seconds']:.1f} s, "
                f"{figures[workers]['rss']:,.0f} MiB",
                flush=True,
            )
        return {
            "times": times,
            "mb": big.stat().st_size / 1e6,
            "two": figures[2],
            "one": figures[1],
            "same": figures[2]["model"] == figures[1]["model"],
        }


def app_figures(shared: Path) -> dict | None:
    """bench/browser/app_timing.py's figures (headless Chromium), or None when it cannot run."""
    script = ROOT / "bench" / "app_timing.py"
    done = subprocess.run(
        [sys.executable, str(script), "--shared", str(shared)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode:
        print(f"app timing failed:\n{done.stderr[-2000:]}", flush=True)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def versions() -> str:
    import regex
    import tiktoken
    import tokenizers

    return (
        f"Python {platform.python_version()}, regex {regex.__version__}, "
        f"tokenizers {tokenizers.__version__}, tiktoken {tiktoken.__version__}; "
        f"{cpu_model()}, {os.cpu_count()} cores, {platform.machine()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", nargs="+", default=CORPORA)
    parser.add_argument("--vocab-sizes", nargs="+", type=int, default=[1000, 5000, 20000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--naive-cap", type=float, default=20.0, help="seconds per naive run")
    parser.add_argument("--no-big", action="store_true", help="skip the 191 MB command line run")
    parser.add_argument("--no-app", action="store_true", help="skip the Chromium timings")
    parser.add_argument(
        "--no-whole", action="store_true", help="skip the whole-process (command line) ratios"
    )
    parser.add_argument(
        "--big-times", type=int, default=10, help="mix19 repeated this many times for the big run"
    )
    parser.add_argument(
        "--no-long-runs", action="store_true", help="skip bench/engine/long_runs.py"
    )
    parser.add_argument(
        "--only-long-runs", action="store_true", help="measure only the long runs (~3 min)"
    )
    parser.add_argument("--output", type=Path, default=ROOT / "BENCHMARKS.md")
    args = parser.parse_args()
    if args.only_long_runs:
        write_long_runs(args.output, args.repeat)
        return
    paths = [SHARED / "corpora" / f"{name}.txt" for name in args.corpora]
    missing = [p for p in paths if not p.exists()]
    if missing:
        sys.exit(f"error: missing corpora (../shared is beside developer checkouts): {missing}")
    started, load_at_start = time.perf_counter(), load_average()
    trained = [t for p in paths for t in training(p, args.vocab_sizes, args.repeat, args.naive_cap)]
    encoded = [encoding(p, args.repeat) for p in paths]
    whole: list[Row] = []
    if not args.no_whole:
        whole = train_rows(args.corpora, args.vocab_sizes, args.repeat, cli=True)
        whole += encode_cli_rows(5, args.repeat, ["gpt2"])
    big = None if args.no_big else big_run(args.big_times)
    app = None if args.no_app else app_figures(SHARED)
    command = " ".join(["python", "bench/engine/benchmark.py", *sys.argv[1:]])
    elapsed = time.perf_counter() - started
    loads = f"{load_at_start} at the start, {load_average()} at the end"
    text = report(trained, encoded, whole, big, app, command, elapsed, loads)
    args.output.write_text(text + kept_blocks(args.output))
    print(f"wrote {args.output}")
    if not args.no_long_runs:
        write_long_runs(args.output, args.repeat)


def write_long_runs(path: Path, repeat: int) -> None:
    """Measure the long runs and put their section into `path`, leaving the rest as it is."""
    load_at_start = load_average()
    rows = long_runs.measure(repeat)
    command = " ".join(["python", "bench/engine/benchmark.py", *sys.argv[1:]])
    loads = f"{load_at_start} at the start, {load_average()} at the end"
    body = long_runs.section(rows, command, commit(), loads)
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    path.write_text(replace_block(old, LONG_RUNS, body), encoding="utf-8")
    print(f"wrote the long runs into {path}")


def kept_blocks(path: Path) -> str:
    """The blocks other scripts wrote into the old file (bench/load/load_test.py's room of
    thirty)."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    kept = [found for name in KEPT_IN_BENCHMARKS if (found := block(old, name)) is not None]
    return "".join(f"\n{found}\n" for found in kept)


def report(
    trained: list[Training],
    encoded: list[Encoding],
    whole: list[Row],
    big: dict | None,
    app: dict | None,
    command: str,
    seconds: float,
    loads: str,
) -> str:
    lines = [
        "# Benchmarks",
        "",
        f"Machine: {versions()}. Produced by `{command}` at commit {commit()} in "
        f"{seconds / 60:.1f} min; load average (1, 5, 15 min) {loads}. Medians of the "
        "runs, each in its own process, the tools taking turns; seconds are shown as "
        "median (fastest–slowest). Ratios compare figures of this run.",
        "",
        "## Targets",
        "",
        "| target | figure | met |",
        "|---|---|---|",
        *target_rows(trained, encoded, whole, big, app),
        "",
        "## Training in-process (seconds; peak RSS in MiB)",
        "",
        "Ours counts chunks of files of 1 MB or more on both cores, as HF's default uses both;",
        "HF 1 thread is beside it. Naive: the seeds' algorithm, capped and extrapolated.",
        "",
        "| corpus | V | ours | HF | HF 1 thread | ours/HF | ours/HF 1t | naive (s) "
        "| ours MiB | HF MiB | MiB ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        *(t.row() for t in trained),
        "",
        "## Encoding with the GPT-2 vocabulary (MB/s; setup in seconds; peak RSS in MiB)",
        "",
        "Setup: ours loads the bundled files and builds the lookup tables encoding uses;",
        "tiktoken reads the same files and builds its Encoding. Throughput excludes setup.",
        "",
        "| corpus | MB | ours MB/s | tiktoken MB/s | ours/tiktoken | same ids | ours setup "
        "| tiktoken setup | ours MiB | tiktoken MiB |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *(e.row() for e in encoded),
        "",
    ]
    if whole:
        lines += [
            "## Whole process: what a command-line user waits for",
            "",
            "Ours: `python -m explorer train FILE --vocab-size V --pattern gpt2 --workers 2 "
            "--output tok` (writes the .model, .vocab and the full history); HF: a script "
            "that imports `tokenizers`, trains as above and saves tokenizer.json. Encoding: "
            "`python -m explorer encode gpt2 FILE` against a script that builds tiktoken's "
            "Encoding from the same files and prints the ids alike, on mix19's first 5 MB. "
            "Seconds of wall time, median (fastest–slowest); ratios ours/theirs; CPU is user "
            "+ system of the process and its children (a parallel tool's threads add up). "
            "Bytecode is cached, as for an installed package (see bench/engine/ratios.py).",
            "",
            TABLE_HEAD.format(what="corpus, V", theirs="theirs"),
            *(row.text for row in whole),
            "",
        ]
    if big is not None:
        lines += [
            f"## Any size: the command line on mix19 {big['times']} times over",
            "",
            f"`python -m explorer train mix19x{big['times']}.txt --vocab-size 1000 --pattern gpt2` "
            f"({big['mb']:.0f} MB; writes the .model, .vocab and the full history):",
            "",
            "| workers | seconds | peak MiB (all processes) |",
            "|---|---|---|",
            f"| 2 | {big['two']['seconds']:.1f} | {big['two']['rss']:,.0f} |",
            f"| 1 | {big['one']['seconds']:.1f} | {big['one']['rss']:,.0f} |",
            "",
            f"Same merges on two cores as on one: {'yes' if big['same'] else '**NO**'} "
            "(the .model files are byte-identical).",
            "",
        ]
    if app is not None:
        lines += [
            "## The app (headless Chromium, bench/browser/app_timing.py)",
            "",
            "| measurement | median | p95 |",
            "|---|---|---|",
            *app_rows(app),
            "",
            "<details><summary>All figures (JSON)</summary>",
            "",
            "```json",
            json.dumps(app, indent=2),
            "```",
            "",
            "</details>",
            "",
        ]
    return "\n".join(lines)


APP_FIGURES = [  # (label, key prefix, unit); bench/browser/app_timing.py says what each spans
    (
        "click Train → coloured tokens (tinyshakespeare, V=5,000; fresh server)",
        "train_to_tokens_cold",
        "s",
    ),
    ("one animation step: click → the new step visible in the browser", "step_browser_ms", "ms"),
    (
        "one animation step: the whole page script (Streamlit AppTest)",
        "step_apptest_rerun_ms",
        "ms",
    ),
    ("one animation step: the page's own work (encode, HTML, charts)", "step_server_ms", "ms"),
]


def app_rows(app: dict) -> list[str]:
    rows = []
    for label, prefix, unit in APP_FIGURES:
        median_key = f"{prefix}_median_s" if unit == "s" else f"{prefix}_median"
        if median_key in app:
            p95 = app.get(f"{prefix}_p95", "")
            rows.append(
                f"| {label} | {app[median_key]} {unit} | {f'{p95} {unit}' if p95 else ''} |"
            )
    return rows


def target_rows(
    trained: list[Training],
    encoded: list[Encoding],
    whole: list[Row],
    big: dict | None,
    app: dict | None,
) -> list[str]:
    def find(corpus: str, vocab: int) -> Training | None:
        return next((t for t in trained if t.corpus == corpus and t.vocab == vocab), None)

    rows = []
    for t in trained:  # issue 15: at every V, ≤ 0.8× on prose and code, ≤ 1.0× on ja + th
        limit = 1.0 if t.corpus == "multi_ja_th" else 0.8
        ratio = t.ours.seconds / t.hf.seconds
        rows.append(
            _target(
                f"training {t.corpus} V={t.vocab:,} ≤ {limit}× HF", f"{ratio:.2f}×", ratio <= limit
            )
        )
    for row in whole:
        limit = 1.6 if "MB" in row.label else 1.0
        rows.append(
            _target(f"whole process {row.label} ≤ {limit}×", f"{row.wall:.2f}×", row.wall <= limit)
        )
    for e in encoded:
        rows.append(
            _target(
                f"encoding {e.corpus} ≥ 0.5 tiktoken, same ids",
                f"{e.ratio:.2f}",
                e.ratio >= 0.5 and e.ours.extra["ids"] == e.theirs.extra["ids"],
            )
        )
    worst = max(trained, key=lambda t: t.ours.rss / t.hf.rss, default=None)
    if worst is not None:
        ratio = worst.ours.rss / worst.hf.rss
        rows.append(
            _target(
                "training peak memory ≤ 1.1× HF (worst row)",
                f"{ratio:.2f}× ({worst.corpus}, V={worst.vocab:,})",
                ratio <= 1.1,
            )
        )
    if big is not None:
        two = big["two"]
        limit_s = 120 if big["mb"] > 500 else 60
        rows.append(
            _target(
                f"{big['mb']:.0f} MB to V=1000: ≤ {limit_s} s, ≤ 1 GiB, same merges",
                f"{two['seconds']:.1f} s, {two['rss']:,.0f} MiB",
                two["seconds"] <= limit_s and two["rss"] <= 1024 and big["same"],
            )
        )
    if app is not None:
        for key, label, limit in (
            ("train_to_tokens_cold_median_s", "app: click Train → coloured tokens ≤ 3 s", 3.0),
            (
                "step_apptest_rerun_ms_median",
                "app: server time of one animation step ≤ 100 ms",
                100.0,
            ),
            (
                "step_browser_ms_median",
                "app: one step, click → visible in Chromium ≤ 100 ms",
                100.0,
            ),
        ):
            if key in app:
                rows.append(_target(label, f"{app[key]:.2f}", app[key] <= limit))
    return rows


def _target(label: str, figure: str, met: bool) -> str:
    return f"| {label} | {figure} | {'yes' if met else '**no**'} |"


if __name__ == "__main__":
    main()
