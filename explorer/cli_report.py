"""`python -m explorer report`: every metric of explorer.analysis.compression.metrics per file and
size.

    python -m explorer report gpt2 notes.txt
    python -m explorer report tok.model a.txt b.txt --sizes 1000,5000 --format csv
    python -m explorer report o200k_base notes.txt --sizes all --format json > curve.json

Files are read as bytes, a block at a time, decoded as UTF-8 with no newline
translation, and counted as they come (explorer.analysis.compression.metric_stream): memory holds a
block and the counts, not the file. With --parallel (translations of one text, the
reference first, e.g. sample_texts/udhr/en.txt then the others) each row also has its
premium against the first file (Petrov et al. 2023, whole text) and the Gini of tokens
per byte across the files at that size. Progress goes to stderr when it is a terminal. A
mistake in the input is one line on stderr and exit status 2 (`ReportError.status`).
"""

from __future__ import annotations

import argparse
import codecs
import csv
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, Literal, Protocol, TextIO

from explorer.analysis.compression.fairness import gini
from explorer.analysis.compression.metric_counts import MetricCounts
from explorer.analysis.compression.metric_stream import count_blocks
from explorer.analysis.compression.metrics import SizeMetrics, metrics_at
from explorer.base.numbers import NumberError, whole_number
from explorer.cli_models import report_metrics
from explorer.encoding.tokenizer import Tokenizer
from explorer.models.model import LoadedModel

REPORT_KEYS = (
    "size",
    "bytes_per_token",
    "fertility",
    "continued_words",
    "renyi_efficiency",
    "vocab_used",
)
DEFAULT_SIZES = (1_000, 2_000, 5_000, 10_000, 20_000)  # those the tokenizer has, and its own
BLOCK_BYTES = 1 << 20
FORMATS = ("table", "csv", "json")


class ProgressLine(Protocol):
    """A progress bar on one line: called with (phase, done, total), closed at the end."""

    def __call__(self, phase: str, done: int, total: int) -> None: ...

    def close(self) -> None: ...


class ReportError(ValueError):
    """Input the report cannot use; the command line exits with `status`."""

    status = 2


Loader = Callable[[argparse.Namespace], "Tokenizer | LoadedModel"]  # reads args.model


def add_report_command(
    commands: argparse._SubParsersAction,  # type: ignore[type-arg]
    load_tokenizer: Loader,
    progress_bar: Callable[[TextIO], ProgressLine],
    model_help: str,
    add_model_options: Callable[[argparse.ArgumentParser], None] | None = None,
) -> None:
    """The `report` subcommand; the caller lends its tokenizer loader and progress bar, and
    the options a real model's file may need."""
    report = commands.add_parser(
        "report",
        help="fertility, Rényi efficiency and more, per file and vocab size",
        description="Words are whitespace-separated (as str.split() splits); a token that "
        "spans several words counts for each. Rényi efficiency uses alpha 2.5 and |V| = the "
        "vocab size (256 + merges).",
    )
    report.add_argument("model", metavar="TOKENIZER", help=model_help)
    report.add_argument("files", nargs="+", metavar="TEXT_FILE", help="UTF-8 text; - is stdin")
    report.add_argument(
        "--sizes",
        metavar="N,N,...|all",
        help="vocab sizes (256 + merges) to report; 'all' is every size (default: "
        f"{', '.join(f'{s:,}' for s in DEFAULT_SIZES)} where the tokenizer has them, "
        "and its full size)",
    )
    report.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help=f"default: table; CSV and JSON keys: file, {', '.join(REPORT_KEYS)}",
    )
    report.add_argument(
        "--parallel",
        action="store_true",
        help="the files are one text in several languages, the first the reference: add "
        "each file's premium (its tokens ÷ the first file's) and the Gini of tokens per "
        "byte across the files, at each size",
    )
    if add_model_options is not None:
        add_model_options(report)

    def run(args: argparse.Namespace) -> None:
        run_report(args, load_tokenizer, progress_bar)

    report.set_defaults(run=run)


def run_report(
    args: argparse.Namespace,
    load_tokenizer: Loader,
    progress_bar: Callable[[TextIO], ProgressLine],
) -> None:
    """Check every input, then count each file once and print its metrics at every size."""
    for name in args.files:
        _check_readable(name)
    if args.parallel and len(args.files) < 2:
        raise ReportError("--parallel compares files with the first one: give two or more")
    requested = parse_sizes(args.sizes)
    try:
        tokenizer = load_tokenizer(args)
    except (ValueError, OSError) as exc:
        raise ReportError(str(exc)) from None
    if not isinstance(tokenizer, Tokenizer):
        _report_model(args, tokenizer)
        return
    sizes = chosen_sizes(requested, 256 + len(tokenizer.merges), args.model)
    total = sum(_size_of(name) for name in args.files)
    bar = progress_bar(sys.stderr) if sys.stderr.isatty() else None
    rows: list[tuple[str, SizeMetrics]] = []
    done = 0
    try:
        for name in args.files:

            def heard(block: str) -> None:
                nonlocal done
                done += len(block.encode("utf-8", "surrogatepass"))
                if bar is not None:
                    bar("encoding", min(done, total), total)

            counts = count_file(tokenizer, name, heard)
            rows += [(name, m) for m in metrics_at(tokenizer, counts, sizes)]
    finally:
        if bar is not None:
            bar.close()
    records = [{"file": name, **{k: getattr(m, k) for k in REPORT_KEYS}} for name, m in rows]
    if args.parallel:
        records = with_fairness(records, rows, len(sizes))
    write_records(records, args.format, sys.stdout)


def _report_model(args: argparse.Namespace, model: LoadedModel) -> None:
    """A real model's report: its own size only (its ids do not follow its merges, so the
    first k merges are no tokenizer of size 256 + k); each file is read whole."""
    if args.sizes is not None and parse_sizes(args.sizes) != [model.vocab_size]:
        raise ReportError(
            f"--sizes: {model.name} is reported at its own size only, {model.vocab_size:,} "
            "ids (a real model's ids do not follow its merges, so it has no smaller sizes)"
        )
    rows = []
    for name in args.files:
        text = "".join(_decoded(sys.stdin.buffer, "stdin")) if name == "-" else _read_text(name)
        rows.append((name, report_metrics(model, text)))
    records = [{"file": name, **{k: getattr(m, k) for k in REPORT_KEYS}} for name, m in rows]
    if args.parallel:
        records = with_fairness(records, rows, 1)
    write_records(records, args.format, sys.stdout)


def _read_text(name: str) -> str:
    try:
        with open(name, "rb") as handle:
            return "".join(_decoded(handle, name))
    except OSError as exc:
        raise ReportError(f"cannot read {name}: {exc.strerror or exc}") from None


def with_fairness(
    records: list[dict[str, object]], rows: list[tuple[str, SizeMetrics]], per_file: int
) -> list[dict[str, object]]:
    """Each record with its premium against the first file's and the Gini at its size.

    `rows` are file by file, each with the same `per_file` sizes in the same order.
    """
    reference = [metrics for _, metrics in rows[:per_file]]
    if any(m.tokens == 0 for m in reference):
        raise ReportError(f"{rows[0][0]} is empty, so there is nothing to compare with")
    ginis = [
        gini([m.tokens / m.text_bytes for _, m in rows[i::per_file] if m.text_bytes])
        for i in range(per_file)
    ]
    return [
        {
            **record,
            "premium": m.tokens / reference[i % per_file].tokens,
            "gini": ginis[i % per_file],
        }
        for i, (record, (_, m)) in enumerate(zip(records, rows))
    ]


def parse_sizes(text: str | None) -> list[int] | Literal["all"] | None:
    """`--sizes`: whole numbers separated by commas, 'all', or None for the default."""
    if text is None or text.strip() == "all":
        return None if text is None else "all"
    sizes = []
    for part in text.split(","):
        try:
            sizes.append(whole_number(part.strip(), "a vocab size in --sizes", 256, 10**9))
        except NumberError as exc:
            raise ReportError(f"{exc} (a vocab size counts the 256 bytes)") from None
    return list(dict.fromkeys(sizes))


def chosen_sizes(requested: list[int] | Literal["all"] | None, full: int, model: str) -> list[int]:
    """The sizes to report for a tokenizer of vocab size `full` (256 + its merges)."""
    if requested == "all":
        return list(range(256, full + 1))
    if requested is None:
        return [s for s in DEFAULT_SIZES if s < full] + [full]
    too_big = [s for s in requested if s > full]
    if too_big:
        raise ReportError(
            f"--sizes {too_big[0]:,} is larger than {model}, which has vocab sizes 256 to "
            f"{full:,} (256 bytes and {full - 256:,} merges)"
        )
    return list(requested)


def count_file(tokenizer: Tokenizer, name: str, heard: Callable[[str], None]) -> MetricCounts:
    """The counts of one file (or stdin for '-'), read and decoded a block at a time."""
    if name == "-":
        return count_blocks(tokenizer, _decoded(sys.stdin.buffer, "stdin"), heard)
    try:
        with open(name, "rb") as handle:
            return count_blocks(tokenizer, _decoded(handle, name), heard)
    except OSError as exc:
        raise ReportError(f"cannot read {name}: {exc.strerror or exc}") from None


def _decoded(handle: BinaryIO, name: str) -> Iterator[str]:
    """UTF-8 text a block at a time, newlines as they are; a ReportError where it is not."""
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    offset = 0  # bytes read so far
    while True:
        raw = handle.read(BLOCK_BYTES)
        held = len(decoder.getstate()[0])  # the start of a character cut by the last read
        try:
            yield decoder.decode(raw, final=not raw)
        except UnicodeDecodeError as exc:
            where = offset - held + exc.start
            raise ReportError(
                f"{name} is not UTF-8 text: byte {where:,} cannot be decoded; save it as UTF-8"
            ) from None
        if not raw:
            return
        offset += len(raw)


def _check_readable(name: str) -> None:
    if name == "-":
        return
    path = Path(name)
    if not path.exists():
        raise ReportError(f"cannot open {name}: no such file")
    if path.is_dir():
        raise ReportError(f"{name} is a folder; give the text files in it")


def _size_of(name: str) -> int:
    return 0 if name == "-" else Path(name).stat().st_size


def write_records(records: list[dict[str, object]], form: str, out: TextIO) -> None:
    """Print records as an aligned table, CSV or a JSON list (keys: file, REPORT_KEYS, ...)."""
    keys = list(records[0]) if records else ["file", *REPORT_KEYS]
    if form == "json":
        out.write(json.dumps(records, indent=1, ensure_ascii=False) + "\n")
    elif form == "csv":
        writer = csv.DictWriter(out, fieldnames=keys, lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
    else:
        out.write(_table(keys, records))


def _table(header: list[str], records: list[dict[str, object]]) -> str:
    cells = [header] + [[_cell(r[k]) for k in header] for r in records]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = [
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
        for row in cells
    ]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
