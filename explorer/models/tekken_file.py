"""Read Mistral's tekken JSON as mistral-common does (`Tekkenizer.from_file`).

The file holds `config` (the pre-tokenizer `pattern`, `default_vocab_size`,
`default_num_special_tokens`), `vocab` (each entry `{rank, token_bytes (base64),
token_str}`) and, in newer files, `special_tokens`. mistral-common numbers a token's id
as its rank plus the number of special ids (ids 0 to 999 are special), and reads only
the first `default_vocab_size - default_num_special_tokens` ranks. A file without
`special_tokens` gets mistral-common's 20 default names (`<unk>`, `<s>`, `</s>`,
`[INST]`, ...), then `<SPECIAL_20>` ... as fillers, as its code does.

    >>> import base64, json
    >>> vocab = [{"rank": b, "token_bytes": base64.b64encode(bytes([b])).decode(),
    ...           "token_str": None} for b in range(256)]
    >>> config = {"pattern": "\\\\s+|\\\\S+", "default_vocab_size": 276,
    ...           "default_num_special_tokens": 20, "version": "v3"}
    >>> parts = read_tekken_parts(json.dumps({"config": config, "vocab": vocab}), "t.json")
    >>> len(parts.tokens), parts.specials["</s>"], parts.num_special
    (256, 2, 20)
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass
from typing import Any

from explorer.files.errors import FormatError
from explorer.files.json_text import load_json
from explorer.files.limits import check_vocab_size, read_id, shown

# mistral-common's Tekkenizer.DEPRECATED_SPECIAL_TOKENS (tokens/tokenizers/tekken.py), ids 0-19
DEFAULT_SPECIALS = (
    "<unk>",
    "<s>",
    "</s>",
    "[INST]",
    "[/INST]",
    "[AVAILABLE_TOOLS]",
    "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
    "[TOOL_CALLS]",
    "[IMG]",
    "<pad>",
    "[IMG_BREAK]",
    "[IMG_END]",
    "[PREFIX]",
    "[MIDDLE]",
    "[SUFFIX]",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
)
FILLER = "<SPECIAL_{id}>"  # mistral-common's SPECIAL_TOKEN_TEMPLATE


@dataclass(frozen=True)
class TekkenParts:
    """What a tekken file gives: the used tokens in rank order, the pattern, the specials."""

    tokens: list[bytes]
    pattern: str
    specials: dict[str, int]  # name -> id, ids 0 .. num_special - 1
    num_special: int


def read_tekken_parts(text: str, source: str) -> TekkenParts:
    """The parts of a tekken JSON, or a FormatError saying what is wrong and where."""
    root = load_json(text, source)
    if not isinstance(root, dict) or not isinstance(root.get("config"), dict):
        raise FormatError(f"{source}: a tekken file is a JSON object with a 'config' object")
    config = root["config"]
    pattern = config.get("pattern")
    if not isinstance(pattern, str) or not pattern:
        raise FormatError(f"{source}: config.pattern must be the pre-tokenizer regex")
    num_special = _count(config, "default_num_special_tokens", source)
    used = _count(config, "default_vocab_size", source) - num_special
    vocab = root.get("vocab")
    if not isinstance(vocab, list) or not 256 <= used <= len(vocab):
        size = len(vocab) if isinstance(vocab, list) else 0
        raise FormatError(
            f"{source}: config says {used:,} ranks are used (default_vocab_size - "
            f"default_num_special_tokens), but 'vocab' lists {size:,}; it must list at least "
            "that many, and at least the 256 single bytes"
        )
    check_vocab_size(used + num_special, source)
    tokens = _tokens(vocab[:used], source)
    specials = _specials(root.get("special_tokens"), num_special, source)
    return TekkenParts(tokens, pattern, specials, num_special)


def _count(config: dict[str, Any], key: str, source: str) -> int:
    value = config.get(key)
    if type(value) is not int:
        raise FormatError(f"{source}: config.{key} must be a whole number, got {shown(value)}")
    return read_id(value, f"{source}: config.{key}")


def _tokens(vocab: list[Any], source: str) -> list[bytes]:
    """Entry k must have rank k; ranks 0-255 are the single bytes in order (mistral-common's
    own checks), and no token may come twice."""
    tokens: list[bytes] = []
    seen: dict[bytes, int] = {}
    for rank, entry in enumerate(vocab):
        where = f"{source}: vocab[{rank}]"
        if not isinstance(entry, dict) or entry.get("rank") != rank:
            got = entry.get("rank") if isinstance(entry, dict) else entry
            raise FormatError(f"{where} must have rank {rank}, got {shown(got)}")
        field = entry.get("token_bytes")
        try:
            token = binascii.a2b_base64(str(field), strict_mode=True)
        except binascii.Error:
            raise FormatError(f"{where}: token_bytes {shown(field)} is not base64") from None
        if rank < 256 and token != bytes([rank]):
            raise FormatError(f"{where}: ranks 0-255 must be the single bytes 0-255 in order")
        if token in seen:
            raise FormatError(f"{where}: the token {shown(token)} is also vocab[{seen[token]}]")
        seen[token] = rank
        tokens.append(token)
    return tokens


def _specials(listed: Any, num_special: int, source: str) -> dict[str, int]:
    """The file's special tokens, or mistral-common's defaults, then fillers up to num_special."""
    names: list[str] = []
    if listed is None:
        names = list(DEFAULT_SPECIALS[:num_special])
    elif isinstance(listed, list):
        for k, entry in enumerate(listed):
            name = entry.get("token_str") if isinstance(entry, dict) else None
            if not isinstance(name, str) or entry.get("rank") != k:
                raise FormatError(
                    f"{source}: special_tokens[{k}] must be {{'rank': {k}, 'token_str': NAME}}"
                )
            names.append(name)
    else:
        raise FormatError(f"{source}: special_tokens must be a list")
    names += [FILLER.format(id=k) for k in range(len(names), num_special)]
    if len(names) != num_special or len(set(names)) != len(names):
        raise FormatError(
            f"{source}: special_tokens must name at most {num_special:,} distinct tokens "
            "(config.default_num_special_tokens), none of them a filler's name <SPECIAL_k>"
        )
    return {name: k for k, name in enumerate(names)}
