"""The command line: train a tokenizer on files, then encode, decode and inspect with it.

    python -m explorer train corpus.txt --vocab-size 1000 --output tok
    python -m explorer train corpus.txt --vocab-size 1000 --tie-rule lowest-ids --output tok
    python -m explorer encode tok.model notes.txt > ids.txt
    python -m explorer decode tok.model < ids.txt
    python -m explorer info tok.model
    python -m explorer encode gpt2 notes.txt     # a bundled vocabulary: gpt2, cl100k_base, ...
    python -m explorer info tokenizer.json       # any file the app loads (see MODEL_HELP)
    python -m explorer check o200k_base --list unreachable --format json
    python -m explorer encode llama3/tokenizer.json --text "Hello"   # a real model's file
    python -m explorer info tokenizer.model --special '<|begin_of_text|>=128000'

A mistake in the input is one line on stderr starting with "error: " and exit status 1.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NoReturn, TextIO, TypeVar

from explorer.base.forking import usable_cores
from explorer.cli_inputs import (
    InputError,
    no_permission,
    read_input,
    text_file,
    tokenizer_file,
    workers_argument,
)
from explorer.cli_report import ReportError, add_report_command
from explorer.encoding.extra_tokens import SpecialSet
from explorer.encoding.pretokenize import PRESETS, PatternError, preset_name, resolve_pattern
from explorer.encoding.tokenizer import SpecialTokenError, Tokenizer, TokenizerError
from explorer.files.bundled import ALIASES, BUNDLED_NAMES, BundledError, bundled_name, load_bundled
from explorer.files.formats import (
    FormatError,
    decode_utf8,
    model_text,
    read_utf8,
    vocab_lines,
)
from explorer.files.history_file import history_lines, parse_history_for
from explorer.files.limits import MAX_VOCAB_SIZE, vocab_bytes
from explorer.files.loading import AUTO, LoadedTokenizer
from explorer.models.model import LoadedModel
from explorer.models.opening import RankSettings, open_file, parse_specials
from explorer.training.corpus import CorpusError, block_method, parse_word_counts
from explorer.training.history import MergeHistory, StopReason
from explorer.training.tie_rules import DEFAULT_TIE_RULE, TIE_RULE_NAMES, TieRule
from explorer.training.train import TrainingError, TrainingResult, train_files, train_word_counts

PROG = "python -m explorer"


class CliError(ValueError):
    """A command-line mistake, with what to type instead."""


USER_ERRORS = (
    BundledError,
    CliError,
    CorpusError,
    FormatError,
    InputError,
    PatternError,
    ReportError,
    TokenizerError,
    TrainingError,
)
MODEL_HELP = (
    "a tokenizer file: .model, merges JSON, tokenizer.json (with the tokenizer_config.json "
    "beside it), a rank file (.tiktoken, Llama 3's tokenizer.model: pattern from --pattern, "
    "OpenAI's own or a known file by content, else from the name), Mistral's tekken JSON, "
    "or GPT-2's encoder.json with vocab.bpe in the same folder; or a bundled vocabulary: "
    f"{', '.join([*BUNDLED_NAMES, *ALIASES])} (write ./gpt2 for a file of that name); or a "
    "model on the Hugging Face Hub by its name, as hub:Qwen/Qwen3-0.6B (its tokenizer files "
    "are fetched into huggingface_hub's cache, HF_TOKEN read for a gated model)"
)
HUB_PREFIX = "hub:"
Loaded = Tokenizer | LoadedModel  # our own tokenizer, or a real model's (explorer.models)


def main(argv: list[str] | None = None) -> int:
    """Run one command; return the exit status (0 ok, 1 bad input, 2 bad usage)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse has printed its message (or --help)
        return int(exc.code or 0)
    try:
        args.run(args)
    except USER_ERRORS as exc:
        return _fail(str(exc), status=getattr(exc, "status", 1))
    except BrokenPipeError:  # e.g. `... | head`: the reader left, nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        return _fail(f"cannot open{where}: {exc.strerror or exc}")
    except KeyboardInterrupt:
        return _fail("interrupted", status=130)
    except MemoryError:
        return _fail(
            "this machine ran out of memory for this command; give a smaller input "
            "(or fewer --workers)"
        )
    except Exception as exc:  # a bug of ours: still one line, never a traceback
        return _fail(f"unexpected {type(exc).__name__}: {exc} (please report this)")
    return 0


def _fail(message: str, status: int = 1) -> int:
    sys.stderr.write("error: " + " ".join(message.split()) + "\n")
    return status


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Byte-level BPE: train, encode, decode, inspect.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_train(commands.add_parser("train", help="learn merges from text files"))
    encode = commands.add_parser("encode", help="print the ids of a text (stdin by default)")
    encode.add_argument("model", metavar="MODEL", help=MODEL_HELP)
    encode.add_argument("file", nargs="?", metavar="FILE", help="UTF-8 text (default: stdin)")
    encode.add_argument("--text", metavar="TEXT", help="encode this text instead of a file")
    encode.add_argument(
        "--add-special-tokens",
        action="store_true",
        help="a real model's file: add BOS/EOS as its post-processor does (default: none, "
        "as the reference's add_special_tokens=False)",
    )
    add_model_options(encode)
    encode.add_argument(
        "--allowed-special",
        action="append",
        default=[],
        metavar="all|TOKEN",
        help="encode this special token (or all of them) as its id; repeatable",
    )
    encode.set_defaults(run=run_encode)
    decode = commands.add_parser("decode", help="write the bytes of ids (stdin by default)")
    decode.add_argument("model", metavar="MODEL", help=MODEL_HELP)
    decode.add_argument("file", nargs="?", metavar="FILE")
    add_model_options(decode)
    decode.set_defaults(run=run_decode)
    add_report_command(commands, load_from_args, ProgressBar, MODEL_HELP, add_model_options)
    info = commands.add_parser("info", help="describe a model")
    info.add_argument("model", metavar="MODEL", nargs="?", help=MODEL_HELP)
    info.add_argument("--hub", metavar="ORG/NAME", help="a model on the Hugging Face Hub")
    add_model_options(info)
    info.set_defaults(run=run_info)
    _add_check(commands.add_parser("check", help="check a vocabulary: tokens no text yields, ..."))
    return parser


def _add_check(check: argparse.ArgumentParser) -> None:
    from explorer.cli_check import FORMATS, KINDS  # its own module: the command's work

    check.add_argument("model", metavar="TOKENIZER", help=MODEL_HELP)
    check.add_argument("--format", choices=FORMATS, default="table", help="default: table")
    check.add_argument(
        "--list",
        choices=KINDS,
        metavar="KIND",
        help=f"list the tokens of one kind instead of the counts: {', '.join(KINDS)}",
    )
    add_model_options(check)
    check.set_defaults(run=run_check)


def add_model_options(command: argparse.ArgumentParser) -> None:
    """--pattern and --special: what a rank file nobody knows needs (ignored by other files)."""
    command.add_argument(
        "--pattern",
        metavar="NAME|REGEX",
        help=f"a rank file's pre-tokenizer: a preset ({', '.join(PRESETS)}) or a regex "
        "(default: a known file's own, else from the file name)",
    )
    command.add_argument(
        "--special",
        action="append",
        default=[],
        metavar="TOKEN=ID",
        help="a rank file's special token and its id, as '<|begin_of_text|>=128000'; repeatable",
    )
    command.add_argument(
        "--specials-file",
        metavar="FILE",
        help="a rank file's special tokens, one TOKEN=ID a line",
    )


def _add_train(train: argparse.ArgumentParser) -> None:
    train.add_argument("files", nargs="+", metavar="FILE", help="UTF-8 text files")
    train.add_argument("--vocab-size", type=int, required=True, metavar="N")
    train.add_argument(
        "--pattern",
        metavar="NAME|REGEX",
        help=f"pre-tokenizer: a preset ({', '.join(PRESETS)}) or a regex (default gpt4)",
    )
    train.add_argument("--special", action="append", default=[], metavar="TOKEN")
    train.add_argument("--min-frequency", type=int, default=1, metavar="K")
    train.add_argument(
        "--word-counts", action="store_true", help="each FILE is a 'word count' table"
    )
    train.add_argument(
        "--tie-rule",
        choices=TIE_RULE_NAMES,
        default=DEFAULT_TIE_RULE.value,
        help="which pair wins when several have the highest count: the one seen first in "
        "the text (first-occurrence, minbpe's, the default) or the lowest pair of ids "
        "(lowest-ids); recorded in PREFIX.history.json",
    )
    train.add_argument(
        "--workers",
        type=workers_argument,
        default=usable_cores(),
        metavar="N",
        help="processes that count files of 1 MB or more (default and most: one per core)",
    )
    train.add_argument(
        "--output",
        required=True,
        metavar="PREFIX",
        help="writes PREFIX.model, PREFIX.vocab and PREFIX.history.json",
    )
    train.set_defaults(run=run_train_on_files)


def run_train_on_files(args: argparse.Namespace) -> None:
    """`train`, once every FILE is a regular file: never a folder, a FIFO or a device."""
    for name in args.files:
        text_file(name, "the text files")
    run_train(args)


def run_train(args: argparse.Namespace) -> None:
    prefix = Path(args.output)
    if not prefix.parent.is_dir():
        raise CliError(f"--output {args.output}: the folder {prefix.parent} does not exist")
    if args.pattern == "":
        raise CliError(
            "--pattern is empty; give --pattern none for no pre-tokenization, a preset "
            f"({', '.join(PRESETS)}) or a regex"
        )
    pattern = args.pattern or ("none" if args.word_counts else "gpt4")
    # Fails now, not after training, for a pattern or special token the .model cannot hold.
    model_text(Tokenizer(pattern=resolve_pattern(pattern), special_tokens=args.special))
    tokens = args.vocab_size + len(set(args.special))
    if tokens > MAX_VOCAB_SIZE:  # the .model would be refused by info, encode and check
        raise CliError(
            f"--vocab-size {args.vocab_size:,}: the tokenizer would hold {tokens:,} tokens, "
            f"and the explorer reads tokenizers of up to {MAX_VOCAB_SIZE:,} (its own files "
            "too); give a smaller --vocab-size"
        )
    paths = [Path(f"{prefix}{suffix}") for suffix in OUTPUT_SUFFIXES]
    for path in paths:
        if path.is_dir():
            raise CliError(f"--output {args.output}: {path} is a folder, not a file")
    if not args.word_counts and block_method(pattern) == "whole" and resolve_pattern(pattern):
        sys.stderr.write(
            "note: no bound on how far this pattern's matches look could be proved, so "
            "each file is matched whole (exact, but memory grows with the file)\n"
        )
    bar = ProgressBar(sys.stderr)
    try:
        result = _train(args, pattern, bar)
    finally:
        bar.close()
    tokenizer, history = result.tokenizer, result.history
    check_room(prefix.parent, output_bytes(history))
    texts = [[model_text(tokenizer)], vocab_lines(tokenizer), history_lines(history)]
    write_all(paths, texts)
    if history.stop_reason is StopReason.TOKEN_BYTES_REACHED:
        sys.stderr.write(f"note: {history.stop_sentence()}\n")
    sys.stderr.write(_summary(result, paths) + "\n")


OUTPUT_SUFFIXES = (".model", ".vocab", ".history.json")
ROOM_TO_SPARE = 64 << 20  # what the disk keeps free after the files are written


def output_bytes(history: MergeHistory) -> int:
    """About how many bytes `train` writes: the .vocab spells each merge's token and its
    two parts, the history each token in hex, and each merge's line of numbers in all three.

    >>> from explorer.training.train import train
    >>> output_bytes(train("aaabdaaabac", 259, pattern="none").history)
    1660
    """
    token_bytes = vocab_bytes(history.merges)
    return 4 * token_bytes + 200 * len(history.steps)


def check_room(folder: Path, size: int) -> None:
    """Refuse, before anything is written, files the disk has no room for (keeping
    ROOM_TO_SPARE free)."""
    free = shutil.disk_usage(folder).free
    if size + ROOM_TO_SPARE > free:
        raise CliError(
            f"--output: the files would take about {size / 1e6:,.1f} MB and {folder} has "
            f"{free / 1e6:,.1f} MB free; nothing was written. Free some room or write elsewhere."
        )


def write_all(paths: list[Path], texts: list[Iterable[str]]) -> None:
    """Write each text (given whole, or as pieces written one after another, so a large
    file is never held whole) to its path, all or none: temporary names first, renamed
    at the end. A failure on the way removes what was written, so a failed run leaves no
    half-set.
    """
    temporary = [path.with_name(f".{path.name}.{os.getpid()}.tmp") for path in paths]
    done: list[Path] = []
    try:
        for text, path in zip(texts, temporary):
            with path.open("w", encoding="utf-8", newline="") as sink:
                sink.writelines([text] if isinstance(text, str) else text)
        for path, final in zip(temporary, paths):
            os.replace(path, final)
            done.append(final)
    except BaseException:
        for path in [*temporary, *done]:
            path.unlink(missing_ok=True)
        raise


def _train(args: argparse.Namespace, pattern: str, bar: ProgressBar) -> TrainingResult:
    specials, min_count, tie_rule = args.special, args.min_frequency, TieRule(args.tie_rule)
    if not args.word_counts:
        return train_files(
            args.files,
            args.vocab_size,
            pattern=pattern,
            special_tokens=specials,
            min_count=min_count,
            workers=args.workers,  # workers_argument: 1 to the machine's cores
            progress=bar,
            tie_rule=tie_rule,
        )
    counts = _word_counts(args.files)
    result = train_word_counts(
        counts,
        args.vocab_size,
        special_tokens=specials,
        min_count=min_count,
        progress=bar,
        tie_rule=tie_rule,
    )
    # The words came already split; the pattern is what will split new text when encoding.
    tokenizer = Tokenizer(
        result.tokenizer.merges,
        pattern=resolve_pattern(pattern),
        special_tokens=args.special,
        trained=True,
    )
    return TrainingResult(tokenizer, result.history)


def _word_counts(paths: list[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for path in paths:
        try:
            table = parse_word_counts(read_utf8(path))
        except CorpusError as exc:
            raise CorpusError(f"{path}: {exc}") from None
        for word, count in table.items():
            counts[word] = counts.get(word, 0) + count
    return counts


def _summary(result: TrainingResult, paths: list[Path]) -> str:
    history = result.history
    rule = history.tie_rule
    ties = "" if rule is DEFAULT_TIE_RULE else f"; ties went to {rule.winner_phrase} ({rule})"
    return (
        f"learned {len(history.steps):,} merges (vocab size {result.tokenizer.vocab_size:,}) "
        f"in {history.seconds:.1f} s; stopped because {history.stop_reason.describe()}{ties}; "
        f"wrote {', '.join(map(str, paths))}"
    )


def load_tokenizer(model: str, settings: RankSettings | None = None) -> Loaded:
    """MODEL on the command line: a bundled vocabulary's name, else a tokenizer file's path.

    Our own formats give our Tokenizer; a real model's file a LoadedModel
    (explorer.models.opening decides which).
    """
    if bundled_name(model) is not None:
        return load_bundled(model)
    if model.startswith(HUB_PREFIX):  # a real model by its Hub name, fetched into the cache
        from explorer.models.hub import open_hub_model

        return open_hub_model(model.removeprefix(HUB_PREFIX)).opened.model
    if not Path(model).exists():
        raise CliError(
            f"cannot open {model}: no such file, and not a bundled vocabulary "
            f"({', '.join([*BUNDLED_NAMES, *ALIASES])})"
        )
    path = tokenizer_file(model)  # a regular file within the limit, before it is read
    try:
        opened = open_file(path, settings=settings or RankSettings())
    except PermissionError:
        raise InputError(no_permission(model)) from None
    if isinstance(opened, LoadedTokenizer):
        return opened.tokenizer
    return opened if isinstance(opened, Tokenizer) else opened.model


def load_from_args(args: argparse.Namespace) -> Loaded:
    """MODEL with the command's --pattern, --special and --specials-file."""
    return load_tokenizer(args.model, rank_settings(args))


def rank_settings(args: argparse.Namespace) -> RankSettings:
    """What the user gave for a rank file nobody knows."""
    items = list(args.special)
    if args.specials_file:
        path = text_file(args.specials_file, "special tokens (--specials-file)")
        items += read_utf8(path).splitlines()
    pattern = args.pattern
    if pattern == "":
        raise CliError(f"--pattern is empty; give a preset ({', '.join(PRESETS)}) or a regex")
    if pattern is not None:
        resolve_pattern(pattern)  # a PatternError now, before the file is read
    where = "--specials-file line" if args.specials_file else "--special"
    return RankSettings(pattern or AUTO, parse_specials(items, where))


def run_encode(args: argparse.Namespace) -> None:
    loaded = load_from_args(args)
    if args.text is not None and args.file is not None:
        raise CliError("give the text either as FILE or with --text, not both")
    text = (
        args.text if args.text is not None else decode_utf8(*_read_input(args.file, "a text file"))
    )
    if isinstance(loaded, Tokenizer):
        if args.add_special_tokens:
            raise CliError(
                "--add-special-tokens adds a real model's BOS/EOS; our own tokenizers add "
                "none (use --allowed-special to encode special-token text as its id)"
            )
        _encode_ours(loaded, text, args.allowed_special)
        return
    if args.allowed_special:
        raise CliError(
            f"--allowed-special is for our own tokenizers; {loaded.name} encodes its added "
            "and special tokens' text as its own library does"
        )
    from explorer.cli_models import ids_line  # a model's commands: imported when used

    ids = loaded.encode(text, add_special_tokens=args.add_special_tokens)
    sys.stdout.write(ids_line(ids) + "\n")


def _encode_ours(tokenizer: Tokenizer, text: str, allowed_special: list[str]) -> None:
    allowed = _allowed_specials(tokenizer, allowed_special)
    # imported here: multiprocessing is for encode alone
    from explorer.encoding.parallel_encode import ids_text

    try:
        line = ids_text(tokenizer, text, allowed)
    except SpecialTokenError as exc:
        if exc.token is None:
            raise
        raise CliError(
            f"the text contains the special token {exc.token!r}; pass --allowed-special "
            f"{shlex.quote(exc.token)} (or --allowed-special all) to encode it as its id"
        ) from None
    sys.stdout.write(line + "\n")


def _allowed_specials(tokenizer: Tokenizer, names: list[str]) -> SpecialSet:
    if "all" in names:
        return "all"
    unknown = [name for name in names if name not in tokenizer.special_tokens]
    if unknown:
        known = ", ".join(map(repr, tokenizer.special_tokens)) or "none"
        raise CliError(
            f"--allowed-special {unknown[0]!r} is not a special token of this model "
            f"(its special tokens: {known})"
        )
    return set(names)


def run_decode(args: argparse.Namespace) -> None:
    loaded = load_from_args(args)
    data, name = _read_input(args.file, "a file of ids")
    if not isinstance(loaded, Tokenizer):
        from explorer.cli_models import decode_ids

        ids = _read_ids(data, name, f"(ids of {loaded.name})")
        try:
            text = decode_ids(loaded, ids, name)
        except ValueError as exc:
            raise CliError(str(exc)) from None
        sys.stdout.buffer.write(text.encode("utf-8", "surrogatepass"))
        sys.stdout.buffer.flush()
        return
    tokenizer = loaded
    ids = _read_ids(data, name, f"(ids 0-{tokenizer.vocab_size - 1} and its special tokens)")
    sys.stdout.buffer.write(tokenizer.decode_bytes(ids))
    sys.stdout.buffer.flush()


def _read_ids(data: bytes, name: str, which: str) -> list[int]:
    """Whole numbers separated by spaces; a CliError names the first item that is not."""
    ids: list[int] = []
    for position, word in enumerate(data.split(), start=1):
        if not word.isdigit() or len(word) > 18:  # int() refuses over 4,300 digits
            shown = word.decode("utf-8", "replace")
            shown = shown if len(shown) <= 40 else f"{shown[:20]}...({len(shown):,} characters)"
            raise CliError(
                f"item {position} of {name}, {shown!r}, is not a token id of this model "
                f"{which}; decode reads whole numbers separated by spaces"
            )
        ids.append(int(word))
    return ids


def run_info(args: argparse.Namespace) -> None:
    if (args.model is None) == (args.hub is None):
        raise CliError("info takes a MODEL or --hub ORG/NAME (one of the two)")
    if args.hub is not None:
        args.model = f"{HUB_PREFIX}{args.hub}"
    loaded = load_from_args(args)
    if not isinstance(loaded, Tokenizer):
        from explorer.cli_models import info_lines

        sys.stdout.write("\n".join(info_lines(loaded, args.model)) + "\n")
        return
    tokenizer = loaded
    merges = len(tokenizer.merges)
    name = preset_name(tokenizer.pattern)
    if name == "none":
        pattern = "pattern: none (no pre-tokenization: each text is one chunk)"
    else:
        pattern = f"pattern ({f'{name} preset' if name else 'custom'}): {tokenizer.pattern}"
    lines = [
        *([f"bundled vocabulary: {bundled_name(args.model)}"] if bundled_name(args.model) else []),
        f"vocab size: {tokenizer.vocab_size} (256 bytes + {merges} merges)",
        f"merges: {merges}",
        pattern,
        *([] if tokenizer.bytes_in_order else ["bytes: ids 0-255 in GPT-2's byte order"]),
        f"special tokens: {len(tokenizer.special_tokens)}",
        *(f"  {token!r} {i}" for token, i in tokenizer.special_tokens.items()),
        *_tie_rule_lines(args.model, tokenizer),
        "numbering: ids 0-255 are the bytes and merge k (from 1) makes id 255 + k, so a "
        "token's id tells its merge",
    ]
    sys.stdout.write("\n".join(lines) + "\n")


def run_check(args: argparse.Namespace) -> None:
    from explorer.cli_check import check_up, counts_text, list_text

    loaded = load_from_args(args)
    if not isinstance(loaded, Tokenizer):
        _check_model(args, loaded)
        return
    tokenizer = loaded
    history = _history_beside(args.model, tokenizer)
    report = _with_terminal_bar(lambda bar: check_up(tokenizer, history, progress=bar))
    if args.list is None:
        sys.stdout.write(counts_text(report, args.format) + "\n")
        return
    try:
        text = list_text(tokenizer, report, args.list, args.format)
    except ValueError as exc:  # intermediate-only tokens of a tokenizer with no history
        raise CliError(f"--list {args.list}: {exc}") from None
    sys.stdout.write(text + "\n")


def _check_model(args: argparse.Namespace, model: LoadedModel) -> None:
    from explorer.cli_models import check_counts_text, check_list_text
    from explorer.models.model_checkup import model_check_up

    report = _with_terminal_bar(lambda bar: model_check_up(model, progress=bar))
    if args.list is None:
        sys.stdout.write(check_counts_text(report, args.format) + "\n")
        return
    try:
        text = check_list_text(model, report, args.list, args.format)
    except ValueError as exc:
        raise CliError(f"--list {args.list} does not apply to a model's file: {exc}") from None
    sys.stdout.write(text + "\n")


def _history_beside(model: str, tokenizer: Tokenizer) -> MergeHistory | None:
    """PREFIX.history.json beside a PREFIX.model, when there is one."""
    path = Path(model)
    history_path = path.with_suffix(".history.json")
    if path.suffix != ".model" or not history_path.is_file():
        return None
    return parse_history_for(
        tokenizer, read_utf8(history_path), model_name=str(path), history_name=str(history_path)
    )


def _tie_rule_lines(model: str, tokenizer: Tokenizer) -> list[str]:
    """The tie rule a .model was trained with, from the history written beside it.

    minbpe's .model has no line its reader would skip, so the rule lives in
    PREFIX.history.json (an old history without one was trained with the default).
    """
    path = Path(model)
    history_path = path.with_suffix(".history.json")
    if path.suffix != ".model" or not history_path.is_file():
        return []
    history = parse_history_for(
        tokenizer, read_utf8(history_path), model_name=str(path), history_name=str(history_path)
    )
    return [f"tie rule: {history.tie_rule} (from {history_path.name})"]


def _read_input(file: str | None, what: str) -> tuple[bytes, str]:
    """The bytes of FILE, or of stdin (at most MAX_STDIN_BYTES) when there is none."""
    return read_input(file, what)


Result = TypeVar("Result")


def _with_terminal_bar(work: Callable[[ProgressBar | None], Result]) -> Result:
    """work(bar), with a progress bar on stderr when it is a terminal (None otherwise)."""
    bar = ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    try:
        return work(bar)
    finally:
        if bar is not None:
            bar.close()


class ProgressBar:
    """progress(phase, done, total) drawn on one line with \\r, at most ~10 times a second."""

    def __init__(self, stream: TextIO, *, width: int = 30, interval: float = 0.1) -> None:
        self.stream, self.width, self.interval = stream, width, interval
        self.phase, self.last, self.drawn = "", 0.0, 0

    def __call__(self, phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if phase == self.phase and done < total and now - self.last < self.interval:
            return
        self.phase, self.last = phase, now
        fraction = done / total if total else 1.0
        filled = round(self.width * fraction)
        line = (
            f"{phase:<9} [{'#' * filled}{'.' * (self.width - filled)}] "
            f"{fraction:4.0%}  {done:,}/{total:,}"
        )
        self.stream.write("\r" + line.ljust(self.drawn))
        self.stream.flush()
        self.drawn = len(line)

    def close(self) -> None:
        """End the bar's line, if one was drawn."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = 0
