"""The full merge history as JSON, so a corpus trained on the command line can be explored.

Every MergeStep field is kept (token bytes as hex), with the stop reason, the tie rule,
the corpus length before merging, the final token usage, the seconds taken and the
corpus size. One step per line keeps big histories diffable. A file without a tie rule
(written before there was a choice) reads as minbpe's, the only rule there was.

    >>> from explorer.training.train import train
    >>> history = train("aaabdaaabac", 258, pattern="none").history
    >>> text = history_json(history)
    >>> text.splitlines()[1:3]
    ['  "format": "bpe-merge-explorer history",', '  "version": 1,']
    >>> parse_history_json(text) == history
    True
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from explorer.base.arguments import ArgumentTypeError, path_argument, text_argument
from explorer.encoding.tokenizer import Tokenizer
from explorer.files.formats import FormatError, merge_problem, read_utf8
from explorer.files.json_text import load_json
from explorer.files.limits import (
    MAX_VOCAB_BYTES,
    check_vocab_bytes,
    check_vocab_size,
    read_id,
    shown,
)
from explorer.training.history import MergeHistory, MergeStep, StopReason
from explorer.training.tie_rules import DEFAULT_TIE_RULE, TIE_RULE_NAMES, TieRule

FORMAT_NAME = "bpe-merge-explorer history"
FORMAT_VERSION = 1
_STEP_FIELDS = ("rank", "left", "right", "new_id", "token", "count", "merged", "length_after")


class HistoryFileError(FormatError):
    """A history file that cannot be used: alone, ambiguous, or another tokenizer's."""


def history_json(history: MergeHistory) -> str:
    """The history as JSON text: a header of whole-run fields, then one line per step."""
    return "".join(history_lines(history))


def history_lines(history: MergeHistory) -> Iterator[str]:
    """history_json line by line (each with its line break), to stream to a file; refuses
    (FormatError) a history its reader would refuse: too many merges or token bytes."""
    check_vocab_size(256 + len(history.steps), "a history of this run")
    check_vocab_bytes(history.merges, "a history of this run")
    header: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "stop_reason": history.stop_reason.value,
        "tie_rule": history.tie_rule.value,
        "initial_length": history.initial_length,
        "corpus_bytes": history.corpus_bytes,
        "seconds": history.seconds,
        "token_usage": {str(i): n for i, n in sorted(history.token_usage.items())},
    }
    yield "{\n"
    for key, value in header.items():
        yield f"  {json.dumps(key)}: {json.dumps(value)},\n"
    if not history.steps:
        yield '  "steps": []\n}\n'
        return
    yield '  "steps": [\n'
    last = len(history.steps) - 1
    for rank, step in enumerate(history.steps):
        yield f"    {_step_json(step)}{',' if rank < last else ''}\n"
    yield "  ]\n}\n"


def least_history_bytes(history: MergeHistory) -> int:
    """Bytes history_json takes at least, before it is built: each token in hex.

    >>> from explorer.training.train import train
    >>> least_history_bytes(train("aaabdaaabac", 258, pattern="none").history)
    10
    """
    return 2 * sum(len(step.token) for step in history.steps)


def parse_history_json(text: str, *, source: str = "history JSON") -> MergeHistory:
    """Read history JSON; a malformed file raises FormatError naming the key at fault."""
    data = load_json(text_argument(text, "text"), source)
    reader = _Reader(source)
    data = reader.expect(data, dict, "", "a JSON object {...}")
    _check_format(reader, data)
    records = reader.get(data, "steps", list, "a list of steps")
    check_vocab_size(256 + len(records), source, merges=len(records))
    return MergeHistory(
        steps=_steps(reader, records),
        stop_reason=_stop_reason(reader, data),
        initial_length=reader.whole(data, "initial_length"),
        token_usage=_usage(reader, reader.get(data, "token_usage", dict, "an object {id: count}")),
        seconds=float(reader.get(data, "seconds", (int, float), "a number of seconds")),
        corpus_bytes=reader.whole(data, "corpus_bytes"),
        tie_rule=_tie_rule(reader, data),
    )


def save_history(history: MergeHistory, path: str | Path) -> Path:
    """Write history JSON as UTF-8; return the path."""
    if not isinstance(history, MergeHistory):
        raise ArgumentTypeError(
            "history must be a MergeHistory (e.g. train(...).history), "
            f"not {type(history).__name__}"
        )
    path = Path(path_argument(path, "path"))
    path.write_bytes(history_json(history).encode("utf-8"))
    return path


def load_history(path: str | Path) -> MergeHistory:
    path_argument(path, "path")
    return parse_history_json(read_utf8(path), source=str(path))


def parse_history_for(
    tokenizer: Tokenizer, history_text: str, *, model_name: str, history_name: str
) -> MergeHistory:
    """The history in `history_text`, checked against the tokenizer's merges.

    Raises FormatError (malformed history, naming the key at fault) or
    HistoryFileError (another tokenizer's history).
    """
    history = parse_history_json(history_text, source=history_name)
    problem = history_mismatch(tokenizer, history, model_name, history_name)
    if problem:
        raise HistoryFileError(problem)
    return history


def history_mismatch(
    tokenizer: Tokenizer, history: MergeHistory, model_name: str, history_name: str
) -> str:
    """Why a history is not the tokenizer's own ("" when it is): the first merge that differs.

    >>> from explorer.training.train import train
    >>> mine = train("aaabdaaabac", 259, pattern="none")
    >>> history_mismatch(mine.tokenizer, mine.history, "t.model", "t.history.json")
    ''
    >>> other = Tokenizer([(97, 97), (256, 98), (97, 98)])
    >>> print(history_mismatch(other, mine.history, "t.model", "u.history.json").split(". ")[0])
    u.history.json belongs to another tokenizer: its merge 2 is (256, 97), t.model's is (256, 98)
    """
    fix = f"Upload the history written together with {model_name}."
    steps = history.merges
    for rank, (theirs, ours) in enumerate(zip(steps, tokenizer.merges)):
        if theirs != ours:
            return (
                f"{history_name} belongs to another tokenizer: its merge {rank + 1} is {theirs}, "
                f"{model_name}'s is {ours}. {fix}"
            )
    if len(steps) != len(tokenizer.merges):
        return (
            f"{history_name} has {len(steps):,} merges but {model_name} has "
            f"{len(tokenizer.merges):,}: they come from different training runs. {fix}"
        )
    return ""


def _step_json(step: MergeStep) -> str:
    """`json.dumps(_step_record(step))`, formatted directly: every field is a whole number
    or hex, so nothing needs escaping, and json.dumps was 80% of writing the history
    (tinyshakespeare to V = 20,000: 0.14 s -> 0.06 s).

    >>> step = MergeStep(0, 97, 98, 256, b"ab", 5, 5, 10, ties=((97, 99),))
    >>> _step_json(step) == json.dumps(_step_record(step))
    True
    """
    ties = ", ".join(f"[{left}, {right}]" for left, right in step.ties)
    return (
        f'{{"rank": {step.rank}, "left": {step.left}, "right": {step.right}, '
        f'"new_id": {step.new_id}, "token": "{step.token.hex()}", "count": {step.count}, '
        f'"merged": {step.merged}, "length_after": {step.length_after}, "ties": [{ties}]}}'
    )


def _step_record(step: MergeStep) -> dict[str, Any]:
    record: dict[str, Any] = {name: getattr(step, name) for name in _STEP_FIELDS}
    record["token"] = step.token.hex()
    record["ties"] = [list(pair) for pair in step.ties]
    return record


class _Reader:
    """Typed access to parsed JSON; errors name the key path, e.g. `steps[3].token`."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> FormatError:
        return FormatError(f"{self.source}{', ' + where if where else ''}: {message}")

    def expect(self, value: Any, kind: type | tuple[type, ...], where: str, what: str) -> Any:
        if not isinstance(value, kind) or isinstance(value, bool):
            raise self.fail(where, f"expected {what}, got {shown(value)}")
        return value

    def get(
        self, obj: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str, at: str = ""
    ) -> Any:
        where = f"{at}.{key}" if at else key
        if key not in obj:
            raise self.fail(at, f"missing key {key!r} ({what})")
        return self.expect(obj[key], kind, where, what)

    def whole(self, obj: dict[str, Any], key: str, at: str = "") -> int:
        value = self.get(obj, key, int, "a whole number", at)
        if value < 0:
            raise self.fail(f"{at}.{key}" if at else key, f"expected 0 or more, got {value}")
        return int(value)


def _check_format(reader: _Reader, data: dict[str, Any]) -> None:
    if data.get("format") != FORMAT_NAME:
        raise reader.fail(
            "format",
            f"expected {FORMAT_NAME!r}, got {shown(data.get('format'))}. Is this a merge history "
            "file?",
        )
    version = data.get("version")
    if version != FORMAT_VERSION:
        raise reader.fail(
            "version", f"version {shown(version)} is not supported (this reads {FORMAT_VERSION})"
        )


def _stop_reason(reader: _Reader, data: dict[str, Any]) -> StopReason:
    value = reader.get(data, "stop_reason", str, "a stop reason")
    try:
        return StopReason(value)
    except ValueError:
        known = ", ".join(reason.value for reason in StopReason)
        raise reader.fail("stop_reason", f"expected one of {known}, got {shown(value)}") from None


def _tie_rule(reader: _Reader, data: dict[str, Any]) -> TieRule:
    if "tie_rule" not in data:
        return DEFAULT_TIE_RULE
    value = reader.get(data, "tie_rule", str, "a tie rule")
    try:
        return TieRule(value)
    except ValueError:
        known = ", ".join(TIE_RULE_NAMES)
        raise reader.fail("tie_rule", f"expected one of {known}, got {shown(value)}") from None


def _usage(reader: _Reader, usage: dict[str, Any]) -> dict[int, int]:
    result: dict[int, int] = {}
    for key in usage:
        where = f"token_usage[{shown(key)}]"
        try:
            token = read_id(key, "the key")
        except FormatError as exc:
            raise reader.fail(where, f"expected a token id as the key: {exc}") from None
        result[token] = reader.whole(usage, key, "token_usage")
    return result


def _steps(reader: _Reader, records: list[Any]) -> tuple[MergeStep, ...]:
    vocab = {i: bytes([i]) for i in range(256)}
    seen: dict[tuple[int, int], int] = {}
    steps: list[MergeStep] = []
    token_bytes = 256
    for rank, record in enumerate(records):
        step = _step(reader, reader.expect(record, dict, f"steps[{rank}]", "a step object"), rank)
        problem = merge_problem(step.pair, rank, seen)
        if problem:
            raise reader.fail(f"steps[{rank}]", problem)
        token_bytes += len(vocab[step.left]) + len(vocab[step.right])
        if token_bytes > MAX_VOCAB_BYTES:  # before the token is built: a .model's bound
            check_vocab_bytes([s.pair for s in steps] + [step.pair], reader.source)
        expected = vocab[step.left] + vocab[step.right]
        if step.token != expected:
            raise reader.fail(
                f"steps[{rank}].token",
                f"expected {_hex(expected)} (the bytes of {step.left} then "
                f"{step.right}), got {_hex(step.token)}",
            )
        vocab[step.new_id] = step.token
        seen[step.pair] = rank
        steps.append(step)
    return tuple(steps)


def _hex(token: bytes) -> str:
    """A token's bytes as hex for a message, cut at 60 digits: `_hex(b"ab") == "6162"`."""
    text = token[:31].hex()
    return text if len(text) <= 60 else f"{text[:60]}…"


def _step(reader: _Reader, record: dict[str, Any], rank: int) -> MergeStep:
    at = f"steps[{rank}]"
    numbers = {name: reader.whole(record, name, at) for name in _STEP_FIELDS if name != "token"}
    if numbers["rank"] != rank or numbers["new_id"] != 256 + rank:
        raise reader.fail(
            at, f"expected rank {rank} and new_id {256 + rank} (steps are listed in order)"
        )
    token_hex = reader.get(record, "token", str, "the token's bytes as hex", at)
    try:
        token = bytes.fromhex(token_hex)
    except ValueError:
        raise reader.fail(f"{at}.token", f"expected hex digits, got {shown(token_hex)}") from None
    ties = tuple(
        _pair(reader, tie, f"{at}.ties[{i}]", 256 + rank)
        for i, tie in enumerate(reader.get(record, "ties", list, "a list of pairs", at))
    )
    return MergeStep(token=token, ties=ties, **numbers)


def _pair(reader: _Reader, value: Any, where: str, below: int) -> tuple[int, int]:
    """A tie [a, b]: two ids that existed at its step (below the id the step made)."""
    ok = isinstance(value, list) and len(value) == 2
    if not ok or any(type(x) is not int or not 0 <= x < below for x in value):
        raise reader.fail(
            where, f"expected a pair of token ids [a, b] below {below}, got {shown(value)}"
        )
    return (value[0], value[1])
