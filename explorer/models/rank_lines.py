"""Read a tiktoken rank file's bytes: one `BASE64TOKEN RANK` a line, as tiktoken's loader does.

OpenAI's `.tiktoken` files and Meta's Llama 3 `tokenizer.model` are of this kind. The fast
path reads the whole file in one pass; only a file that fails it is read again line by
line, so that the sentence names the line and what is wrong with it: a line cut short,
a token that is not base64, a rank or a token used twice, a rank missing.

    >>> read_rank_lines(b"YQ== 0\\nYg== 1\\nYWI= 2\\n", "x.tiktoken")
    [b'a', b'b', b'ab']
    >>> read_rank_lines(b"YQ== 0\\nYWI=\\n", "x.tiktoken")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: x.tiktoken, line 2: expected 'BASE64TOKEN RANK', got 'YWI='
"""

from __future__ import annotations

import binascii
import io

from explorer.files.errors import FormatError
from explorer.files.limits import MAX_VOCAB_SIZE, read_id, shown


def read_rank_lines(data: bytes, source: str) -> list[bytes]:
    """The tokens in rank order (ranks 0, 1, 2, ... with no gap), or a FormatError that
    names the line."""
    _check_line_count(data, source)
    tokens = _fast(data)
    if tokens is None:
        tokens = _line_by_line(data, source)
    if not tokens:
        raise FormatError(f"{source}: no 'BASE64TOKEN RANK' line; this is not a tiktoken rank file")
    return tokens


def _check_line_count(data: bytes, source: str) -> None:
    """Refuse more lines than MAX_VOCAB_SIZE ids before any is split: 64 MB of short lines
    would be millions of tokens, and holding them takes hundreds of MB (blank lines are
    not counted; each line is looked at once, without a copy of the file)."""
    lines = 0
    for line in io.BytesIO(data):
        if not line.isspace():
            lines += 1
            if lines > MAX_VOCAB_SIZE:
                raise FormatError(
                    f"{source} has more than {MAX_VOCAB_SIZE:,} lines of ranks; the explorer "
                    f"reads up to {MAX_VOCAB_SIZE:,} ids (o200k_base has 200,000 ranks)"
                )


def _fast(data: bytes) -> list[bytes] | None:
    """The tokens when every line is well formed and the ranks are 0, 1, 2, ... in order;
    None for anything else (the slow path then says what)."""
    pairs = [fields for fields in map(bytes.split, data.splitlines()) if fields]
    if any(len(fields) != 2 for fields in pairs):
        return None
    try:
        tokens = [binascii.a2b_base64(token, strict_mode=True) for token, _ in pairs]
    except binascii.Error:
        return None
    if any(rank != b"%d" % number for number, (_, rank) in enumerate(pairs)):
        return None
    if len(set(tokens)) != len(tokens):
        return None
    return tokens


def _line_by_line(data: bytes, source: str) -> list[bytes]:
    """The same reading, one line at a time, stopping at the first line that is wrong."""
    by_rank: dict[int, bytes] = {}
    line_of_rank: dict[int, int] = {}
    line_of_token: dict[bytes, int] = {}
    for number, line in enumerate(data.splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 2:
            raise _at(source, number, f"expected 'BASE64TOKEN RANK', got {_text(line)}")
        token = _token(fields[0], source, number)
        rank = _rank(fields[1], source, number)
        if rank in by_rank:
            raise _at(source, number, f"rank {rank} is also on line {line_of_rank[rank]}")
        if token in line_of_token:
            where = line_of_token[token]
            raise _at(source, number, f"the token {shown(token)} is also on line {where}")
        by_rank[rank], line_of_rank[rank], line_of_token[token] = token, number, number
    gap = next((rank for rank in range(len(by_rank)) if rank not in by_rank), None)
    if gap is not None:
        raise FormatError(
            f"{source}: no line has rank {gap}, though {len(by_rank):,} lines are read; "
            "ranks must be 0, 1, 2, ... with no gap"
        )
    return [by_rank[rank] for rank in range(len(by_rank))]


def _token(field: bytes, source: str, number: int) -> bytes:
    try:
        return binascii.a2b_base64(field, strict_mode=True)
    except binascii.Error:
        raise _at(source, number, f"{_text(field)} is not base64") from None


def _rank(field: bytes, source: str, number: int) -> int:
    try:
        return read_id(field.decode("ascii", "replace"), "the rank")
    except FormatError as exc:
        raise _at(source, number, str(exc)) from None


def _at(source: str, number: int, message: str) -> FormatError:
    return FormatError(f"{source}, line {number}: {message}")


def _text(data: bytes) -> str:
    return shown(data.decode("utf-8", "replace"))
