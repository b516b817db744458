"""Checks at the door of every public function: a wrong type is a TypeError that names the
parameter and says what to pass, as tiktoken's are, not a failure deep inside.

    >>> whole_number(300, "vocab_size")
    300
    >>> whole_number(260.5, "vocab_size")
    Traceback (most recent call last):
    ...
    explorer.base.arguments.ArgumentTypeError: vocab_size must be a whole number (int), not 260.5 (float)
"""  # noqa: E501 (a doctest's exception line cannot wrap)

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sized
from itertools import chain
from pathlib import Path
from typing import Any


class ArgumentTypeError(TypeError):
    """A public function was given an argument of the wrong type."""


def _shown(value: Any) -> str:
    text = repr(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"{text} ({type(value).__name__})"


def whole_number(value: Any, name: str) -> int:
    """An int (numpy's integers too), never a bool or a float."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise ArgumentTypeError(f"{name} must be a whole number (int), not {_shown(value)}")
    return operator.index(value)


def text_argument(value: Any, name: str) -> str:
    """A str; bytes are refused with how to turn them into text."""
    if isinstance(value, str):
        return value
    hint = "; decode bytes first, e.g. data.decode('utf-8')" if isinstance(value, bytes) else ""
    raise ArgumentTypeError(f"{name} must be a str, not {_shown(value)}{hint}")


def texts_argument(value: Any, name: str) -> list[str]:
    """One str, or an iterable of str (each a separate document)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (bytes, bytearray)) or not isinstance(value, Iterable):
        text_argument(value, name)  # raises, with the hint for bytes
    texts = list(value)
    for index, text in enumerate(texts):
        text_argument(text, f"{name}[{index}]")
    return texts


def strings_argument(value: Any, name: str) -> list[str]:
    """An iterable of str, never one str (which would be taken as its characters)."""
    if isinstance(value, str):
        raise ArgumentTypeError(
            f"{name} must be a list of strings such as [{value!r}], not the string "
            f"{value!r} (that would be one token per character)"
        )
    if isinstance(value, Mapping):
        value = list(value)
    if not isinstance(value, Iterable):
        raise ArgumentTypeError(f"{name} must be a list of strings, not {_shown(value)}")
    items = list(value)
    for index, item in enumerate(items):
        if not isinstance(item, str):
            raise ArgumentTypeError(f"{name}[{index}] must be a str, not {_shown(item)}")
    return items


def pattern_argument(value: Any, name: str = "pattern") -> str:
    """A preset's name or a regex."""
    if isinstance(value, str):
        return value
    raise ArgumentTypeError(
        f"{name} must be a str: a preset (none, gpt2, gpt4, o200k, words) or a regex, "
        f"not {_shown(value)}; use 'none' for no pre-tokenization"
    )


def paths_argument(value: Any, name: str = "paths") -> list[str | Path]:
    """A list of file paths; one path alone is refused (a str is not a list of paths)."""
    if isinstance(value, (str, Path)):
        raise ArgumentTypeError(f"{name} must be a list of paths, e.g. [{str(value)!r}]")
    if not isinstance(value, Iterable):
        raise ArgumentTypeError(f"{name} must be a list of paths, not {_shown(value)}")
    paths = list(value)
    for index, path in enumerate(paths):
        if not isinstance(path, (str, Path)):
            raise ArgumentTypeError(f"{name}[{index}] must be a str or Path, not {_shown(path)}")
    return paths


def path_argument(value: Any, name: str) -> str | Path:
    if isinstance(value, (str, Path)):
        return value
    raise ArgumentTypeError(f"{name} must be a str or Path, not {_shown(value)}")


def callback_argument(value: Any, name: str) -> Any:
    if value is None or callable(value):
        return value
    raise ArgumentTypeError(f"{name} must be a function or None, not {_shown(value)}")


def token_ids(value: Any, name: str = "ids") -> list[int]:
    """A list of token ids: ints (numpy's too), never floats or bools."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ArgumentTypeError(f"{name} must be a list of token ids (ints), not {_shown(value)}")
    ids = value if isinstance(value, list) else list(value)
    if all(type(i) is int for i in ids):  # the common case, checked in C
        return ids
    return [whole_number(i, f"{name}[{index}]") for index, i in enumerate(ids)]


def merge_pairs(value: Any) -> list[tuple[int, int]]:
    """Merges as (left, right) id pairs."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise ArgumentTypeError(
            f"merges must be a list of (left, right) pairs, not {_shown(value)}"
        )
    if isinstance(value, list) and _int_pairs(value):
        return list(value)  # the common case, checked in C loops
    pairs = []
    for index, pair in enumerate(value):
        if (  # subtle: an iterator is Iterable with no len(), so it must be refused here
            isinstance(pair, (str, bytes))
            or not isinstance(pair, Iterable)
            or not isinstance(pair, Sized)
            or len(pair) != 2
        ):
            raise ArgumentTypeError(
                f"merges[{index}] must be a pair of token ids (left, right), not {_shown(pair)}"
            )
        left, right = pair
        pairs.append(
            (whole_number(left, f"merges[{index}][0]"), whole_number(right, f"merges[{index}][1]"))
        )
    return pairs


def _int_pairs(value: list[Any]) -> bool:
    """Whether every item is a tuple of two ints (not bools): the form parsers make.

    Checking each pair with whole_number took 0.08 s for GPT-2's 50,000 merges, a third
    of loading that vocabulary; these three C loops take ~7 ms.

    >>> _int_pairs([(1, 2), (3, 4)]), _int_pairs([(1, True)]), _int_pairs([[1, 2]])
    (True, False, False)
    """
    return (
        set(map(type, value)) <= {tuple}
        and set(map(len, value)) <= {2}
        and set(map(type, chain.from_iterable(value))) <= {int}
    )
