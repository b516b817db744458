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
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO, Literal, Protocol, TextIO

from explorer.analysis.compression.metric_counts import MetricCounts
from explorer.analysis.compression.metric_stream import count_blocks
from explorer.analysis.compression.metrics import metrics_at
from explorer.base.numbers import NumberError, whole_number
from explorer.cli_inputs import MAX_STDIN_BYTES, InputError, stdin_too_long, text_file
from explorer.cli_records import FileRows, fairness_records, write_records
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


Loader = Callable[[argparse.Namespace], Tokenizer | LoadedModel]  # reads args.model


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
    """Check every input, then count each file once and print its metrics at every size.

    CSV and JSON rows are written file by file as each is counted (explorer.cli_records);
    a table and --parallel keep every file's rows as columns, then write.
    """
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
    bar = progress_bar(sys.stderr) if sys.stderr.isatty() else None
    streamed = not args.parallel and args.format != "table"
    counted = _counted_files(tokenizer, args.files, sizes, bar, end_bar_each=streamed)
    keys = ["file", *REPORT_KEYS, *(["premium", "gini"] if args.parallel else [])]
    try:
        if args.parallel:
            files = _with_reference(list(counted))
            write_records(
                lambda: fairness_records(files, REPORT_KEYS), args.format, sys.stdout, keys
            )
        elif args.format == "table":
            kept = list(counted)
            write_records(lambda: _records(kept), args.format, sys.stdout, keys)
        else:
            write_records(lambda: _records(counted), args.format, sys.stdout, keys)
    finally:
        if bar is not None:
            bar.close()


def _counted_files(
    tokenizer: Tokenizer,
    names: list[str],
    sizes: list[int],
    bar: ProgressLine | None,
    *,
    end_bar_each: bool = False,
) -> Iterator[FileRows]:
    """Each file's metrics at every size, counted when asked for: one file at a time.

    `end_bar_each`: the rows are written as each file is counted, so the progress line is
    ended first, and the rows do not start on it.
    """
    total = sum(_size_of(name) for name in names)
    done = 0

    def heard(block: str) -> None:
        nonlocal done
        done += len(block.encode("utf-8", "surrogatepass"))
        if bar is not None:
            bar("encoding", min(done, total), total)

    for name in names:
        counts = count_file(tokenizer, name, heard)
        rows = FileRows.of(name, metrics_at(tokenizer, counts, sizes))
        if end_bar_each and bar is not None:
            bar.close()
        yield rows


def _report_model(args: argparse.Namespace, model: LoadedModel) -> None:
    """A real model's report: its own size only (its ids do not follow its merges, so the
    first k merges are no tokenizer of size 256 + k); each file is read whole."""
    if args.sizes is not None and parse_sizes(args.sizes) != [model.vocab_size]:
        raise ReportError(
            f"--sizes: {model.name} is reported at its own size only, {model.vocab_size:,} "
            "ids (a real model's ids do not follow its merges, so it has no smaller sizes)"
        )
    from explorer.cli_models import report_metrics  # a model's report: imported when used

    files = [FileRows.of(name, [report_metrics(model, _whole_text(name))]) for name in args.files]
    keys = ["file", *REPORT_KEYS, *(["premium", "gini"] if args.parallel else [])]
    if args.parallel:
        reference = _with_reference(files)
        write_records(
            lambda: fairness_records(reference, REPORT_KEYS), args.format, sys.stdout, keys
        )
    else:
        write_records(lambda: _records(files), args.format, sys.stdout, keys)


def _whole_text(name: str) -> str:
    """A file's text (or stdin's, within its bound), read whole."""
    if name == "-":
        return "".join(_decoded(sys.stdin.buffer, "stdin", MAX_STDIN_BYTES))
    try:
        with open(name, "rb") as handle:
            return "".join(_decoded(handle, name))
    except OSError as exc:
        raise ReportError(f"cannot read {name}: {exc.strerror or exc}") from None


def _records(files: Iterable[FileRows]) -> Iterator[dict[str, object]]:
    for rows in files:
        yield from rows.records(REPORT_KEYS)


def _with_reference(files: list[FileRows]) -> list[FileRows]:
    """The files, once the first (the reference of every premium) is known to have tokens."""
    if any(tokens == 0 for tokens in files[0].columns["tokens"]):
        raise ReportError(f"{files[0].name} is empty, so there is nothing to compare with")
    return files


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
        return count_blocks(tokenizer, _decoded(sys.stdin.buffer, "stdin", MAX_STDIN_BYTES), heard)
    try:
        with open(name, "rb") as handle:
            return count_blocks(tokenizer, _decoded(handle, name), heard)
    except OSError as exc:
        raise ReportError(f"cannot read {name}: {exc.strerror or exc}") from None


def _decoded(handle: BinaryIO, name: str, limit: int | None = None) -> Iterator[str]:
    """UTF-8 text a block at a time, newlines as they are; a ReportError where it is not,
    or past `limit` bytes (stdin's bound)."""
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    offset = 0  # bytes read so far
    while True:
        raw = handle.read(BLOCK_BYTES)
        if limit is not None and offset + len(raw) > limit:
            raise ReportError(stdin_too_long(limit))
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
    """A regular file (never a FIFO or a device, see explorer.cli_inputs), or "-"."""
    if name == "-":
        return
    try:
        text_file(name, "the text files", stdin_too=True)
    except InputError as exc:
        raise ReportError(str(exc)) from None


def _size_of(name: str) -> int:
    return 0 if name == "-" else Path(name).stat().st_size
