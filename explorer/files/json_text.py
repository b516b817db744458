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
from collections.abc import Callable, Iterable
from typing import Any

from explorer.base.numbers import NumberError, json_int
from explorer.files.errors import FormatError

MAX_JSON_DEPTH = 32

PairsHook = Callable[[list[tuple[str, Any]]], Any]


def load_json(text: str, what: str, *, object_pairs_hook: PairsHook | None = None) -> Any:
    """The value in JSON `text` (a leading BOM is skipped), or a FormatError naming `what`."""
    try:
        value = json.loads(
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
    except RecursionError:
        # subtle: json's C scanner counts its own depth (Py_EnterRecursiveCall) and gives
        # up cleanly near 1,000 levels; a pre-scan of the text for brackets would have to
        # skip strings, and a regex that does turned quadratic on '"' then 20 MB of '\\"'
        raise _too_deep(what) from None
    if depth_over(value, MAX_JSON_DEPTH):
        raise _too_deep(what)
    return value


def depth_over(value: Any, limit: int) -> bool:
    """Whether lists and objects nest more than `limit` deep, looked at level by level
    (no recursion). An object read with `object_pairs_hook` is a list of (key, value).

    >>> depth_over([[1], {"a": 2}], 2), depth_over([[[]]], 2), depth_over([("k", [[1]])], 2)
    (False, True, True)
    """
    level = [value] if isinstance(value, (dict, list)) else []
    for depth in range(1, limit + 2):  # level holds the lists and objects `depth` deep
        if not level:
            return False
        if depth > limit:
            return True
        level = [
            child for item in level for child in _children(item) if isinstance(child, (dict, list))
        ]
    return True


def _children(item: dict[str, Any] | list[Any]) -> Iterable[Any]:
    if isinstance(item, dict):
        return item.values()
    return (child[1] if isinstance(child, tuple) else child for child in item)


def _too_deep(what: str) -> FormatError:
    return FormatError(
        f"{what} nests lists or objects more than {MAX_JSON_DEPTH} deep; "
        "tokenizer files nest fewer than 10"
    )


def _no_constant(name: str) -> Any:
    raise NumberError(f"{name} is not a number JSON allows")
