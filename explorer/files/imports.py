"""Read tokenizers made elsewhere: GPT-2's `encoder.json` + `vocab.bpe`, tiktoken's ranks.

GPT-2's files list the merges. A `.tiktoken` file lists only ranks: token bytes and a
number. Each token's two parts are
recovered by running BPE on its bytes with only the ranks below its own (as minbpe's
`gpt4.py` does), so lineage works for them too. Ranks after the last merge that BPE
cannot build from two lower ones are tokens outside the merge path (tiktoken yields one
only for a piece that is exactly its bytes): see `Tokenizer.outside_merges`. The single
bytes keep the ids the file gives them (GPT-2's byte order, not 0-255 in order): see
`Tokenizer.byte_ids`.
Hugging Face's tokenizer.json is read in `explorer.files.imports_hf`.

    >>> import base64
    >>> lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    >>> tok = parse_tiktoken("\\n".join([*lines, "YWE= 256", "YWFi 257"]), pattern="")
    >>> tok.merges, tok.encode("aab")
    ([(97, 97), (256, 98)], [257])
    >>> tok = parse_tiktoken("\\n".join([*lines, "YWE= 256", "eHl6 257"]), pattern="")
    >>> tok.merges, tok.outside_merges, tok.encode("xyz")
    ([(97, 97)], {257: b'xyz'}, [257])
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from explorer.base.byte_map import bytes_to_unicode
from explorer.encoding.merging import merge_ids
from explorer.encoding.pretokenize import GPT2_PATTERN, PatternError
from explorer.encoding.tiktoken_path import LowerRanks
from explorer.encoding.tokenizer import Tokenizer, TokenizerError
from explorer.files.errors import FormatError
from explorer.files.json_text import load_json
from explorer.files.limits import (
    MAX_TOKEN_ID,
    check_merge_count,
    check_ranked_bytes,
    check_special_names,
    check_vocab_bytes,
    check_vocab_size,
    read_id,
    shown,
)

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
Where = Callable[[int], str]  # names the place of merge k (or rank k) in a file, for errors


def recover_merges(tokens: Sequence[bytes], *, where: Where | None = None) -> list[tuple[int, int]]:
    """The merge that made each token past the bytes; `tokens[i]` is the token with id i.

    BPE on a token's bytes with only lower ranks leaves exactly two parts, its merge.
    A token it leaves in more pieces could never be produced: that is a FormatError.

    >>> recover_merges([bytes([b]) for b in range(256)] + [b"aa", b"aab"])
    [(97, 97), (256, 98)]
    """
    merges: list[tuple[int, int]] = []
    for rank, parts in _rank_parts(tokens):
        if len(parts) != 2:
            place = where(rank) if where else f"rank {rank}"
            stops = " + ".join(shown(tokens[part]) for part in parts[:8])
            stops += " + …" if len(parts) > 8 else ""
            raise FormatError(
                f"{place}: the token {shown(tokens[rank])} cannot be built from two tokens of "
                f"lower rank (BPE with the lower ranks stops at {stops}), so no "
                "text encodes to it; every token past the bytes must be a merge"
            )
        merges.append((parts[0], parts[1]))
    return merges


def merges_and_outside(
    tokens: Sequence[bytes], *, where: Where | None = None
) -> tuple[list[tuple[int, int]], dict[int, bytes]]:
    """The merges, and the ranks after them that no merge reaches (outside the merge path).

    subtle: such a rank may only follow every merge: merge k makes id 255 + k here, so a
    merge after it would need a gap; a FormatError names that merge.

    >>> merges_and_outside([bytes([b]) for b in range(256)] + [b"aa", b"xyz"])
    ([(97, 97)], {257: b'xyz'})
    """
    merges: list[tuple[int, int]] = []
    outside: dict[int, bytes] = {}
    for rank, parts in _rank_parts(tokens):
        if len(parts) != 2:
            outside[rank] = tokens[rank]
        elif outside:
            first = min(outside)
            place = where(rank) if where else f"rank {rank}"
            raise FormatError(
                f"{place}: the token {shown(tokens[rank])} is a merge, but rank {first} "
                f"before it ({shown(tokens[first])}) is not: BPE cannot build it from two "
                "tokens of lower rank. Tokens no merge reaches can be read only after every "
                "merge (here merge k makes id 255 + k)"
            )
        else:
            merges.append((parts[0], parts[1]))
    return merges, outside


def _rank_parts(tokens: Sequence[bytes]) -> Iterator[tuple[int, list[int]]]:
    """Each rank past the bytes, with what BPE on its bytes, with only lower ranks, leaves."""
    lower = LowerRanks(tokens)
    for rank in range(256, len(tokens)):
        lower.limit = rank
        yield rank, merge_ids(lower.byte_ids(tokens[rank]), lower)


# --- tiktoken: a base64 token and its rank, one pair a line --------------------------------


def parse_tiktoken(
    data: bytes | str,
    *,
    pattern: str,
    special_tokens: Mapping[str, int] | None = None,
    source: str = ".tiktoken",
) -> Tokenizer:
    """Ranks must be 0, 1, 2, ... with no gaps, the 256 single bytes first (in any order).

    Ranks after the last merge that no merge reaches are kept outside the merges.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    tokens, line_of = _rank_lines(data, source)
    check_vocab_size(len(tokens) + len(special_tokens or {}), source)
    check_ranked_bytes(tokens, source)  # recovering the merges costs time per byte
    merges, outside = merges_and_outside(
        tokens, where=lambda rank: f"{source}, line {line_of[rank]}"
    )
    # tiktoken encodes a piece that is a whole token as that token: so do we
    return make_tokenizer(
        merges,
        pattern,
        special_tokens or {},
        rank_byte_ids(tokens),
        source,
        trained=True,
        outside=outside,
    )


def rank_byte_ids(tokens: Mapping[int, bytes] | Sequence[bytes]) -> list[int]:
    """Each byte's id in a rank file whose ranks 0-255 (`tokens[0]` to `tokens[255]`) are
    the single bytes in its own order: `byte_ids[b]` is the rank of byte b.

    >>> rank_byte_ids([bytes([255 - b]) for b in range(256)])[:2]
    [255, 254]
    """
    byte_ids = [0] * 256
    for token_id in range(256):
        byte_ids[tokens[token_id][0]] = token_id
    return byte_ids


def _rank_lines(data: bytes, source: str) -> tuple[list[bytes], dict[int, int]]:
    """The tokens in rank order, and each rank's line number; errors name the line."""
    by_rank: dict[int, bytes] = {}
    line_of: dict[int, int] = {}
    rank_of: dict[bytes, int] = {}
    for number, line in enumerate(data.splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 2:
            raise _at(source, number, f"expected 'BASE64TOKEN RANK', got {_shown(line)}")
        try:
            token = base64.b64decode(fields[0], validate=True)
        except binascii.Error:
            raise _at(source, number, f"{_shown(fields[0])} is not base64") from None
        rank = _rank(fields[1], source, number)
        if rank in by_rank:
            raise _at(source, number, f"rank {rank} is also on line {line_of[rank]}")
        if token in rank_of:
            raise _at(source, number, f"{shown(token)} is also on line {line_of[rank_of[token]]}")
        if (len(token) == 1) != (rank < 256):
            problem = f"{shown(token)} has rank {rank}, but ranks 0-255 must be the single bytes"
            raise _at(source, number, problem)
        by_rank[rank], line_of[rank], rank_of[token] = token, number, rank
    gap = next((rank for rank in range(max(len(by_rank), 256)) if rank not in by_rank), None)
    if gap is not None:
        raise FormatError(
            f"{source}: no line has rank {gap}; ranks must be 0, 1, 2, ... with no gaps, "
            "0-255 being the 256 single bytes"
        )
    return [by_rank[rank] for rank in range(len(by_rank))], line_of


def _rank(field: bytes, source: str, number: int) -> int:
    """A line's rank, 0..MAX_TOKEN_ID; the error names the line."""
    try:
        return read_id(field.decode("ascii", "replace"), "the rank")
    except FormatError as exc:
        raise _at(source, number, str(exc)) from None


# --- GPT-2: encoder.json (token -> id) and vocab.bpe (the merges, in order) ----------------


def parse_gpt2(
    encoder_json: str,
    vocab_bpe: str,
    *,
    pattern: str = GPT2_PATTERN,
    sources: tuple[str, str] = ("encoder.json", "vocab.bpe"),
) -> Tokenizer:
    """Merge k of vocab.bpe must make id 256 + k; entries no merge makes are special tokens."""
    encoder = load_json(encoder_json, sources[0])
    if not isinstance(encoder, dict):
        raise FormatError(f"{sources[0]}: expected a JSON object from token to id")
    numbers, pairs = _bpe_lines(vocab_bpe, sources[1])
    merges, byte_ids, specials = byte_level_parts(
        encoder, pairs, vocab_where=sources[0], where=lambda k: f"{sources[1]}, line {numbers[k]}"
    )
    # GPT-2's encoder and tiktoken's both take a piece that is a whole token as that token
    return make_tokenizer(merges, pattern, specials, byte_ids, sources[0], trained=True)


def _bpe_lines(text: str, source: str) -> tuple[list[int], list[tuple[str, str]]]:
    """The line number and the pair of each merge line; a '#version' first line is skipped."""
    numbers: list[int] = []
    pairs: list[tuple[str, str]] = []
    # subtle: not str.splitlines, which also breaks at characters such as U+2028
    for number, line in enumerate(_LINE_BREAK.split(text.removeprefix("\ufeff")), start=1):
        if not line or (number == 1 and line.startswith("#version")):
            continue
        fields = line.split(" ")
        if len(fields) != 2 or not all(fields):
            raise _at(source, number, f"expected two tokens 'LEFT RIGHT', got {shown(line)}")
        numbers.append(number)
        pairs.append((fields[0], fields[1]))
    return numbers, pairs


def byte_level_parts(
    vocab: Mapping[str, Any], pairs: Sequence[tuple[str, str]], *, vocab_where: str, where: Where
) -> tuple[list[tuple[int, int]], list[int], dict[str, int]]:
    """Merges as ids, byte_ids, and the vocabulary entries past the merges (special tokens).

    Tokens are written in GPT-2's byte-to-character mapping (a space is 'Ġ'); merge k
    (counting from 1) must make the token with id 255 + k, as in GPT-2 and tiktoken's
    vocabularies. Messages count merges from 1 and name the file's own place (a line, or
    a 0-based index such as `model.merges[0]`).
    """
    check_vocab_size(len(vocab), vocab_where)
    check_merge_count(len(pairs), vocab_where)  # merge k makes id 255 + k: checked below
    symbols, ids = bytes_to_unicode(), _token_ids(vocab, vocab_where)
    byte_ids = [ids.get(symbols[b], -1) for b in range(256)]
    if sorted(byte_ids) != list(range(256)):
        raise FormatError(
            f"{vocab_where}: the 256 single bytes (GPT-2's characters, as 'Ġ' for a space) "
            "must have the ids 0-255; this is not a byte-level BPE vocabulary"
        )
    merges: list[tuple[int, int]] = []
    for k, (left, right) in enumerate(pairs):
        for part in (left, right):
            if part not in ids:
                raise FormatError(f"{where(k)}: {shown(part)} is not in the vocabulary")
        made = ids.get(left + right)
        if made is None:
            raise FormatError(
                f"{where(k)}: {_merge(k, left, right)} makes {shown(left + right)}, "
                "not in the vocabulary"
            )
        if made != 256 + k:
            raise FormatError(
                f"{where(k)}: {_merge(k, left, right)} makes {shown(left + right)}, id {made}; "
                "here merge k must "
                f"make id 255 + k ({256 + k}), so vocabularies numbered otherwise (as RoBERTa's or "
                "GPT-NeoX's) cannot be read yet"
            )
        merges.append((ids[left], ids[right]))
    check_vocab_bytes(merges, vocab_where)  # the bound a .model is read under, and training's
    first = 256 + len(merges)
    return merges, byte_ids, {token: i for token, i in ids.items() if i >= first}


def _merge(k: int, left: str, right: str) -> str:
    """How a message names merge k (from 0): made only for an error, as `shown` costs ~6 µs."""
    return f"merge {k + 1} ({shown(left)}, {shown(right)})"


def _token_ids(vocab: Mapping[str, Any], where: str) -> dict[str, int]:
    owner: dict[int, str] = {}
    for token, value in vocab.items():
        if type(value) is not int:
            raise FormatError(f"{where}[{shown(token)}]: expected a token id, got {shown(value)}")
        if not 0 <= value <= MAX_TOKEN_ID:  # the message names the token only when needed
            read_id(value, f"{where}[{shown(token)}]")
        number = value
        if number in owner:
            raise FormatError(
                f"{where}: {shown(owner[number])} and {shown(token)} share id {number}"
            )
        owner[number] = token
    return dict(vocab)


# --- shared --------------------------------------------------------------------------------


def _at(source: str, number: int, message: str) -> FormatError:
    return FormatError(f"{source}, line {number}: {message}")


def _shown(data: bytes) -> str:
    return repr(data.decode("utf-8", "replace")[:60])


def make_tokenizer(
    merges: list[tuple[int, int]],
    pattern: str,
    special_tokens: Mapping[str, int],
    byte_ids: Sequence[int],
    source: str,
    *,
    trained: bool = False,
    outside: Mapping[int, bytes] | None = None,
    encode_outside: bool = True,
) -> Tokenizer:
    """A Tokenizer, or a FormatError naming the file when the parts do not make one.

    `outside` holds the entries no merge makes (id -> bytes); `encode_outside` says a
    pre-token that is exactly one encodes to it (see `Tokenizer.outside_merges`).
    """
    check_special_names(special_tokens, source)
    try:
        return Tokenizer(
            merges,
            pattern=pattern,
            special_tokens=special_tokens,
            byte_ids=byte_ids,
            trained=trained,
            outside_merges=outside,
            encode_outside=encode_outside,
        )
    except (PatternError, TokenizerError) as exc:
        raise FormatError(f"{source}: {exc}") from None
