"""The one JSON reader for tokenizer files: bounded nesting, checked numbers, plain errors.

`json.loads` alone lets a file of 100,000 `[` raise RecursionError, a number of 5,000
digits raise Python's advice about `sys.set_int_max_str_digits()`, and `NaN` through.
Every JSON file the explorer reads (tokenizer.json, merges JSON, encoder.json, history
JSON, and the sniffing of a file's kind) goes through `load_json`, which refuses those
with a FormatError naming the file. Real tokenizer files nest fewer than 10 levels.

    >>> load_json('{"a": [1, 2]}', "x.json")
    {'a': [1, 2]}
    >>> load_json("[" * 100_000, "x.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: x.json nests lists or objects more than 32 deep; ...
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from itertools import accumulate
from typing import Any

from explorer.base.numbers import NumberError, json_int
from explorer.files.errors import FormatError

MAX_JSON_DEPTH = 32

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')  # a JSON string, escapes and all
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
PairsHook = Callable[[list[tuple[str, Any]]], Any]


def load_json(text: str, what: str, *, object_pairs_hook: PairsHook | None = None) -> Any:
    """The value in JSON `text` (a leading BOM is skipped), or a FormatError naming `what`."""
    if nesting_depth(text) > MAX_JSON_DEPTH:
        raise _too_deep(what)  # before json.loads, whose C scanner recurses
    try:
        return json.loads(
            text.removeprefix("\ufeff"),
            parse_int=json_int,
            parse_constant=_no_constant,
            object_pairs_hook=object_pairs_hook,
        )
    except json.JSONDecodeError as exc:
        raise FormatError(
            f"{what}, line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg})"
        ) from None
    except NumberError as exc:
        raise FormatError(f"{what}: {exc}") from None


def nesting_depth(text: str) -> int:
    """How deep lists and objects nest in JSON text, counted on the text (no recursion).

    Strings are cut out first, so a bracket inside one does not count.

    >>> nesting_depth('[[1], {"a": "[[["}]'), nesting_depth("[" * 100_000), nesting_depth("7")
    (2, 100000, 0)
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _too_deep(what: str) -> FormatError:
    return FormatError(
        f"{what} nests lists or objects more than {MAX_JSON_DEPTH} deep; "
        "tokenizer files nest fewer than 10"
    )


def _no_constant(name: str) -> Any:
    raise NumberError(f"{name} is not a number JSON allows")
