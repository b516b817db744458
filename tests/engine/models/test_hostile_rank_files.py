"""The hostile-file catalogue, continued for real models' rank files and tekken JSON: each
variant read through `explorer.models.reading.read_model` either loads and works, or is
refused with one plain sentence that says what is wrong and where (issue 34 §7).

The checks are the catalogue's own (`tests/engine/files/test_hostile_files.py`); add a
variant by adding a row.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest

from explorer.files.errors import FormatError
from explorer.files.limits import MAX_FILE_BYTES
from explorer.models.reading import read_model
from tests.engine.files.test_hostile_files import EITHER, LOADS, REFUSED, check_plain

BYTE_LINES = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
RANKS = "\n".join([*BYTE_LINES, "YWI= 256", "YWJj 257", "IHRoZQ== 258"]) + "\n"
SPECIALS = {"<|end|>": 259}


def _tekken(**changes: Any) -> dict[str, Any]:
    vocab = [
        {"rank": r, "token_bytes": base64.b64encode(token).decode(), "token_str": None}
        for r, token in enumerate([*(bytes([b]) for b in range(256)), b"ab", b"abc", b" the"])
    ]
    config = {
        "pattern": r"\s+|\S+",
        "num_vocab_tokens": 259,
        "default_vocab_size": 279,
        "default_num_special_tokens": 20,
        "version": "v3",
    }
    data: dict[str, Any] = {"config": config, "vocab": vocab}
    for key, value in changes.items():
        if key in config:
            config[key] = value
        else:
            data[key] = value
    return data


def _rank_rows() -> Iterator[tuple[str, str | bytes, str, str]]:
    """(variant, file, outcome, words the refusal must hold: what and where)."""
    lines = RANKS.splitlines()
    yield "honest", RANKS, LOADS, ""
    yield "truncated line", "\n".join([*lines, "YWJjZA=="]), REFUSED, "line 260: expected"
    yield "cut mid-file", RANKS[: len(RANKS) // 2], REFUSED, "line 136: rank 13"
    yield "bad base64", "\n".join([*lines, "!!!! 259"]), REFUSED, "line 260: '!!!!' is not base64"
    yield "base64 without padding", "\n".join([*lines, "YWJjZA 259"]), REFUSED, "line 260"
    yield "rank used twice", "\n".join([*lines, "YWJjZA== 257"]), REFUSED, "line 260: rank 257"
    yield "token used twice", "\n".join([*lines, "YWI= 259"]), REFUSED, "line 260: the token b'ab'"
    yield "a gap", "\n".join([*lines, "YWJjZA== 400"]), REFUSED, "no line has rank 259"
    yield "rank of 24 digits", "\n".join([*lines, "YWJjZA== " + "9" * 24]), REFUSED, "line 260"
    yield "negative rank", "\n".join([*lines, "YWJjZA== -1"]), REFUSED, "line 260"
    no_zero = "\n".join(["AAA= 0", *lines[1:]])  # rank 0 is b"\x00\x00": no single 0x00
    yield "no single byte 0x00", no_zero, REFUSED, "the single byte 0x00 is not a token"
    yield "CRLF", RANKS.replace("\n", "\r\n"), LOADS, ""
    yield "ranks out of order", "\n".join(reversed(lines)), LOADS, ""
    yield "NUL bytes", b"\x00" * 64 + RANKS.encode(), REFUSED, ""
    yield "binary", bytes(range(256)) * 64, REFUSED, "UTF-8"
    yield "5 MB line", "YQ== " + "7" * 5_000_000, REFUSED, ""
    long_token = base64.b64encode(b"xy" * 1_100_000).decode()
    yield "2.2 MB of token bytes", "\n".join([*lines, f"{long_token} 259"]), REFUSED, "bytes"
    yield "empty", "", REFUSED, ""
    yield "blank lines only", "\n \n\t\n", REFUSED, "no 'BASE64TOKEN RANK' line"
    yield "2 MB of blank lines", RANKS + "\n" * 2_000_000, LOADS, ""
    yield "400,000 short lines", "YQ== 0\n" * 400_000, REFUSED, "more than 300,000 lines"


def _tekken_rows() -> Iterator[tuple[str, str | bytes, str, str]]:
    honest = _tekken()
    yield "honest", json.dumps(honest), LOADS, ""
    yield (
        "with special_tokens",
        json.dumps(_tekken(special_tokens=[{"rank": 0, "token_str": "<x>", "is_control": True}])),
        LOADS,
        "",
    )
    yield "truncated", json.dumps(honest)[:5000], REFUSED, "not valid JSON"
    bad = _tekken()
    bad["vocab"][257]["token_bytes"] = "!!"
    yield "bad base64", json.dumps(bad), REFUSED, "vocab[257]: token_bytes '!!' is not base64"
    twice = _tekken()
    twice["vocab"][258]["token_bytes"] = twice["vocab"][256]["token_bytes"]
    yield "token used twice", json.dumps(twice), REFUSED, "vocab[258]: the token b'ab'"
    moved = _tekken()
    moved["vocab"][257]["rank"] = 256
    yield "rank used twice", json.dumps(moved), REFUSED, "vocab[257] must have rank 257"
    swapped = _tekken()
    swapped["vocab"][0]["token_bytes"] = "AQ=="
    yield "bytes out of order", json.dumps(swapped), REFUSED, "vocab[0]"
    yield "vocab too short", json.dumps(_tekken(default_vocab_size=400)), REFUSED, "lists 259"
    yield "no pattern", json.dumps(_tekken(pattern=5)), REFUSED, "config.pattern"
    yield "pattern 100k (", json.dumps(_tekken(pattern="(" * 100_000)), REFUSED, "regex"
    yield "broken pattern", json.dumps(_tekken(pattern="(?<")), REFUSED, "regex"
    yield "2**31 specials", json.dumps(_tekken(default_num_special_tokens=2**31 - 1)), REFUSED, ""
    huge = _tekken(default_num_special_tokens=10**30)
    yield "specials of 31 digits", json.dumps(huge), REFUSED, "31 digits"
    dup = [{"rank": k, "token_str": "<x>", "is_control": True} for k in range(2)]
    yield "special named twice", json.dumps(_tekken(special_tokens=dup)), REFUSED, "distinct"
    filler = [{"rank": 0, "token_str": "<SPECIAL_5>", "is_control": True}]
    yield "special named as a filler", json.dumps(_tekken(special_tokens=filler)), REFUSED, ""
    yield "vocab a dict", json.dumps(_tekken(vocab={"a": 1})), REFUSED, "vocab"
    yield "config a list", json.dumps({"config": [], "vocab": []}), REFUSED, ""


ROWS = [
    *(("rank file", *row) for row in _rank_rows()),
    *(("tekken", *row) for row in _tekken_rows()),
]
NAMES = {"rank file": "t.tiktoken", "tekken": "tekken.json"}


@pytest.mark.parametrize(
    ("kind", "variant", "data", "outcome", "words"),
    ROWS,
    ids=[f"{kind}:{variant}" for kind, variant, *_ in ROWS],
)
def test_each_hostile_model_file_loads_or_is_refused_in_plain_words(
    kind: str, variant: str, data: str | bytes, outcome: str, words: str
) -> None:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    name = NAMES[kind]
    try:
        model = read_model(name, raw, pattern="gpt2", special_tokens=SPECIALS)
    except Exception as error:  # the test is which kind of error it is
        check_plain(error)
        assert outcome in (REFUSED, EITHER), error
        assert name in str(error) and words in str(error), error
        return
    assert outcome in (LOADS, EITHER), variant
    assert model.decode(model.encode("abc the")) == "abc the"
    assert model.trace("abc the").ids == model.encode("abc the")


def test_a_file_past_the_size_limit_is_refused_before_it_is_read() -> None:
    data = b"YQ== 0\n" * (MAX_FILE_BYTES // 7 + 1)
    with pytest.raises(FormatError, match=rf"big\.tiktoken is {len(data):,} bytes; .* up to 64 MB"):
        read_model("big.tiktoken", data, pattern="gpt2")


def test_a_rank_file_nobody_knows_needs_its_pattern() -> None:
    with pytest.raises(FormatError, match=r"t\.tiktoken: a rank file does not carry its pre"):
        read_model("t.tiktoken", RANKS.encode())


def test_a_special_on_a_ranks_id_is_refused() -> None:
    with pytest.raises(FormatError, match="'<s>' has id 256, the id of rank 256"):
        read_model("t.tiktoken", RANKS.encode(), pattern="gpt2", special_tokens={"<s>": 256})


def test_our_own_formats_are_not_models() -> None:
    with pytest.raises(FormatError, match=r"t\.model is a model file, which loads as a trained"):
        read_model("t.model", b"minbpe v1\n\n0\n97 97\n")
