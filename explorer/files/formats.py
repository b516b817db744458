"""Save and load tokenizers: minbpe's `.model` and `.vocab`, and a merges JSON.

A `.model` file is minbpe's: a header, the pattern, the special tokens, then one
`LEFT RIGHT` line per merge. Only line endings are stripped when reading, so a pattern
keeps its leading and trailing spaces.

    >>> tok = Tokenizer([(97, 97), (256, 97)], special_tokens=["<|end|>"])
    >>> print(model_text(tok), end="")
    minbpe v1
    <BLANKLINE>
    1
    <|end|> 258
    97 97
    256 97
    >>> parse_model(model_text(tok)).encode("aaa<|end|>", allowed_special="all")
    [257, 258]
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import regex

from explorer.base.arguments import ArgumentTypeError, path_argument, text_argument
from explorer.encoding.pretokenize import PatternError
from explorer.encoding.tokenizer import Tokenizer, TokenizerError
from explorer.files.errors import FormatError as FormatError  # exported
from explorer.files.json_text import load_json
from explorer.files.limits import (
    MAX_TOKEN_ID,
    check_group_depth,
    check_special_names,
    check_vocab_bytes,
    check_vocab_size,
    read_id,
    shown,
)
from explorer.files.output_sizes import check_readable
from explorer.html.render import render_token

MODEL_HEADER = "minbpe v1"
OLD_MODEL_HEADER = "bpe v1"
_LINE_BREAK = regex.compile(r"\r\n|\r|\n")
_MERGE_LINE = regex.compile(r"[ \t]*([0-9]+)[ \t]+([0-9]+)[ \t]*")
_MERGE_KEY = regex.compile(r"\(([0-9]+), ?([0-9]+)\)")

# FormatError is explorer.files.errors.FormatError, imported above: every reader raises it


# --- minbpe .model -------------------------------------------------------------------------


def model_text(tokenizer: Tokenizer) -> str:
    """The `.model` text: header, pattern, special count, `TOKEN ID` lines, `LEFT RIGHT` lines."""
    _check_bytes_in_order(tokenizer)
    if tokenizer.outside_merges:
        raise FormatError(
            f"a .model lists merges, so it cannot hold this tokenizer's "
            f"{len(tokenizer.outside_merges)} tokens outside the merges; export tokenizer.json"
        )
    check_readable(tokenizer, "a .model")
    _check_one_line("the pre-tokenizer pattern", tokenizer.pattern)
    lines = [MODEL_HEADER, tokenizer.pattern, str(len(tokenizer.special_tokens))]
    for token, token_id in tokenizer.special_tokens.items():
        _check_one_line(f"the special token {token!r}", token)
        lines.append(f"{token} {token_id}")
    lines.extend(f"{left} {right}" for left, right in tokenizer.merges)
    return "\n".join(lines) + "\n"


def parse_model(text: str, *, source: str = "model") -> Tokenizer:
    """Read `.model` text (minbpe v1, or the older `bpe v1` header); errors name the line."""
    text = text_argument(text, "text")
    lines = _LINE_BREAK.split(text.removeprefix("\ufeff"))
    if lines[-1] == "":
        lines.pop()  # the break after the last line
    header = lines[0].strip() if lines else ""
    if header not in (MODEL_HEADER, OLD_MODEL_HEADER):
        raise FormatError(
            f"{source}: expected {MODEL_HEADER!r} or {OLD_MODEL_HEADER!r} on line 1, "
            f"got {shown(header)}. Is this a .model file?"
        )
    pattern = _line(lines, 2, "the pre-tokenizer pattern", source)
    check_group_depth(pattern, f"{source}, line 2")
    count_text = _line(lines, 3, "the number of special tokens", source).strip()
    count = _number(count_text, "the number of special tokens", source, 3, len(lines))
    specials = _parse_specials(lines, count, source)
    merges = _parse_merges(lines, 4 + len(specials), source)
    _check_special_ids(specials, len(merges), source)
    check_vocab_bytes(merges, source)  # before the tokens are built
    check_special_names(specials, source)
    try:
        return Tokenizer(merges, pattern=pattern, special_tokens=specials)
    except PatternError as exc:
        raise _at(source, 2, str(exc)) from None
    except TokenizerError as exc:
        raise FormatError(f"{source}: {exc}") from None


def save_model(tokenizer: Tokenizer, prefix: str | Path) -> tuple[Path, Path]:
    """Write PREFIX.model and PREFIX.vocab as UTF-8, nothing translated; return both paths."""
    _tokenizer_argument(tokenizer)
    path_argument(prefix, "prefix")
    model_path, vocab_path = Path(f"{prefix}.model"), Path(f"{prefix}.vocab")
    model = model_text(tokenizer)  # may refuse the tokenizer: check before writing anything
    model_path.write_bytes(model.encode("utf-8"))
    vocab_path.write_bytes(vocab_text(tokenizer).encode("utf-8"))
    return model_path, vocab_path


def _tokenizer_argument(value: Any) -> None:
    if not isinstance(value, Tokenizer):
        raise ArgumentTypeError(
            f"tokenizer must be a Tokenizer (e.g. train(...).tokenizer), not {type(value).__name__}"
        )


def load_model(path: str | Path) -> Tokenizer:
    """Read a `.model` file written by `save_model` or by minbpe."""
    path_argument(path, "path")
    return parse_model(read_utf8(path), source=str(path))


def read_utf8(path: str | Path) -> str:
    """A file's text, decoded strictly as UTF-8 with no newline translation."""
    return decode_utf8(Path(path).read_bytes(), str(path))


def decode_utf8(data: bytes, name: str) -> str:
    """Strict UTF-8; the error names the first bad byte: `decode_utf8(b"ok", "stdin") == "ok"`."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(
            f"{name} is not UTF-8 text: byte {exc.start} (0x{data[exc.start]:02x}) "
            "cannot be decoded. Save it as UTF-8."
        ) from None


def _at(source: str, number: int, message: str) -> FormatError:
    return FormatError(f"{source}, line {number}: {message}")


def _number(text: str, what: str, source: str, line: int, high: int = MAX_TOKEN_ID) -> int:
    """A whole number of line `line`, 0..high; the error names the line (no Python advice)."""
    try:
        return read_id(text, what, high)
    except FormatError as exc:
        raise _at(source, line, str(exc)) from None


def _check_bytes_in_order(tokenizer: Tokenizer) -> None:
    if not tokenizer.bytes_in_order:
        raise FormatError(
            "this tokenizer numbers the bytes in GPT-2's order, which a .model or merges JSON "
            "cannot store; export tokenizer.json or .tiktoken instead"
        )


def _check_one_line(what: str, text: str) -> None:
    if "\n" in text or "\r" in text:
        raise FormatError(
            f"{what} contains a line break, which a .model file cannot store "
            "(each field is one line); write it as the escape \\n or \\r instead"
        )


def _line(lines: list[str], number: int, expected: str, source: str) -> str:
    if number > len(lines):
        raise _at(source, number, f"expected {expected}, but the file ends after line {len(lines)}")
    return lines[number - 1]


def _parse_specials(lines: list[str], count: int, source: str) -> dict[str, int]:
    """Lines 4.. hold `TOKEN ID`; a token may contain spaces, so split at the last one."""
    specials: dict[str, int] = {}
    for index in range(count):
        number = 4 + index
        expected = f"special token {index + 1} of {count} as 'TOKEN ID'"
        token, _, id_text = _line(lines, number, expected, source).rpartition(" ")
        if not token:
            raise _at(source, number, f"expected {expected}, got {shown(lines[number - 1])}")
        if token in specials:
            raise _at(source, number, f"special token {shown(token)} appears twice")
        what = f"the id of special token {shown(token)}"
        specials[token] = _number(id_text, what, source, number)
    return specials


def _parse_merges(lines: list[str], first_line: int, source: str) -> list[tuple[int, int]]:
    last = len(lines)
    while last >= first_line and not lines[last - 1].strip():
        last -= 1  # tolerate blank lines at the very end (subtle: not by copying the list)
    merge_lines = last - first_line + 1
    check_vocab_size(first_line - 4 + 256 + merge_lines, source, merges=merge_lines)
    merges: list[tuple[int, int]] = []
    seen: dict[tuple[int, int], int] = {}
    for number in range(first_line, last + 1):
        match = _MERGE_LINE.fullmatch(lines[number - 1])
        if match is None:
            got = shown(lines[number - 1])
            raise _at(source, number, f"expected two token ids 'LEFT RIGHT', got {got}")
        pair = (
            _number(match[1], "a token id", source, number),
            _number(match[2], "a token id", source, number),
        )
        problem = merge_problem(pair, len(merges), seen)
        if problem:
            raise _at(source, number, problem)
        seen[pair] = len(merges)
        merges.append(pair)
    return merges


def merge_problem(pair: tuple[int, int], rank: int, seen: dict[tuple[int, int], int]) -> str:
    """Why `pair` cannot be the merge of 0-based `rank` ("" if it can): ids must exist, no repeats.

    The message counts merges from 1, as people read them (merge k makes id 255 + k):

    >>> merge_problem((97, 300), 2, {})
    'merge 3 (97, 300) uses id 300, which does not exist yet (merge 3 may only use ids below 258)'
    """
    for token_id in pair:
        if token_id >= 256 + rank:
            return (
                f"merge {rank + 1} {pair} uses id {token_id}, which does not exist yet "
                f"(merge {rank + 1} may only use ids below {256 + rank})"
            )
    if pair in seen:
        return f"merge {rank + 1} {pair} repeats merge {seen[pair] + 1}"
    return ""


def _check_special_ids(specials: dict[str, int], merge_count: int, source: str) -> None:
    first = 256 + merge_count
    for index, (token, token_id) in enumerate(specials.items()):
        if token_id < first:
            raise _at(
                source,
                4 + index,
                f"special token {shown(token)} has id {token_id}, but ids below {first} "
                f"belong to the 256 bytes and {merge_count} merges",
            )


# --- minbpe .vocab (for people; never read back) ------------------------------------------


def vocab_text(tokenizer: Tokenizer) -> str:
    """minbpe's listing: `[s] id` for bytes and specials, `[s0][s1] -> [s] id` for merges.

    >>> print(vocab_text(Tokenizer([(97, 97)])).splitlines()[-1])
    [a][a] -> [aa] 256
    """
    return "".join(vocab_lines(tokenizer))


def vocab_lines(tokenizer: Tokenizer) -> Iterator[str]:
    """vocab_text line by line (each with its line break), to stream to a file: a merge's
    line spells its token and both parts, twice the vocabulary's bytes in all."""
    vocab = tokenizer.vocab
    # Each id is rendered once and reused as a merge's part: a third of the renders,
    # which were half of writing the .vocab (tinyshakespeare to V = 20,000: 0.08 s -> 0.025 s).
    shown = [render_token(vocab[i]) for i in range(256 + len(tokenizer.merges))]
    for i in range(256):
        yield f"[{shown[i]}] {i}\n"
    for rank, (left, right) in enumerate(tokenizer.merges):
        new_id = 256 + rank
        yield f"[{shown[left]}][{shown[right]}] -> [{shown[new_id]}] {new_id}\n"
    for token_id in sorted(tokenizer.special_by_id):
        yield f"[{render_token(tokenizer.token_bytes(token_id))}] {token_id}\n"


# --- merges JSON: {"(a,b)": id, ...} in merge order ----------------------------------------


def merges_json(tokenizer: Tokenizer) -> str:
    """The merges as a JSON object from "(left,right)" to the id it creates.

    >>> print(merges_json(Tokenizer([(97, 97), (256, 97)])))
    {
      "(97,97)": 256,
      "(256,97)": 257
    }
    """
    _check_bytes_in_order(tokenizer)
    check_readable(tokenizer, "a merges JSON")
    merges = {f"({a},{b})": 256 + rank for rank, (a, b) in enumerate(tokenizer.merges)}
    return json.dumps(merges, indent=2)


def parse_merges_json(text: str, *, pattern: str = "") -> Tokenizer:
    """Read a merges JSON; ids must be 256, 257, ... in order, keys "(a,b)" or "(a, b)"."""
    pairs = _json_object(text, "merges JSON")
    check_vocab_size(256 + len(pairs), "merges JSON", merges=len(pairs))
    merges: list[tuple[int, int]] = []
    seen: dict[tuple[int, int], int] = {}
    for key, value in pairs:
        at = f"merges JSON, key {shown(key)}"
        match = _MERGE_KEY.fullmatch(key)
        if match is None:
            raise FormatError(f'{at}: expected a pair like "(97,98)"')
        expected = 256 + len(merges)
        if type(value) is not int or value != expected:
            raise FormatError(
                f"{at}: expected id {expected} (merge k creates id 256 + k, "
                f"listed in order), got {shown(value)}"
            )
        pair = (read_id(match[1], f"{at}: the left id"), read_id(match[2], f"{at}: the right id"))
        problem = merge_problem(pair, len(merges), seen)
        if problem:
            raise FormatError(f"{at}: {problem}")
        seen[pair] = len(merges)
        merges.append(pair)
    check_vocab_bytes(merges, "merges JSON")
    return Tokenizer(merges, pattern=pattern)


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as its (key, value) pairs, so repeated keys are not silently lost."""


def _json_object(text: str, what: str) -> _Pairs:
    value: Any = load_json(text, what, object_pairs_hook=_Pairs)
    if not isinstance(value, _Pairs):
        raise FormatError(f"{what}: expected a JSON object {{...}}, got {type(value).__name__}")
    return value
