"""Whole numbers read from outside (a link's `view=`, a file's ids): one checked parser.

Python's `str.isdigit()` accepts superscripts that `int()` refuses, and `int()` accepts
"+7", " 7", "٣" and "1_000" and gives up on 4,300 digits with advice about
`sys.set_int_max_str_digits()`. Everything a link or a file says is a number goes
through `whole_number` instead: ASCII digits only, a bounded length, a stated range.

>>> whole_number("280", "view", 256, 50_000)
280
>>> whole_number("²", "view", 256, 50_000)
Traceback (most recent call last):
...
explorer.base.numbers.NumberError: view is '²', not a whole number written in digits 0-9
"""

from __future__ import annotations

import re

MAX_DIGITS = 18  # below 2**63: fits every C long a table or an array may hold
_DIGITS = re.compile(r"-?[0-9]+")


class NumberError(ValueError):
    """A value that is not a whole number in the range asked for; the message says which."""


def whole_number(value: str | int, what: str, low: int, high: int) -> int:
    """`value` as an int in low..high, or NumberError naming `what` and what was wrong.

    Accepts an int (as JSON gives) or a string of ASCII digits (with an optional minus).

    >>> whole_number(7, "an id", 0, 10), whole_number("-3", "a shift", -5, 5)
    (7, -3)
    >>> whole_number("9" * 40, "token", 0, 99)
    Traceback (most recent call last):
    ...
    explorer.base.numbers.NumberError: token has 40 digits; it must be 0 to 99
    """
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise NumberError(f"{what} is {_shown(value)}, not a whole number")
    if isinstance(value, str):
        if _DIGITS.fullmatch(value) is None:
            raise NumberError(
                f"{what} is {_shown(value)}, not a whole number written in digits 0-9"
            )
        digits = len(value.lstrip("-"))
        if digits > MAX_DIGITS:
            raise NumberError(f"{what} has {digits:,} digits; {_range(low, high)}")
        number = int(value)
    else:
        number = value
    if not low <= number <= high:
        shown = f"{number:,}" if abs(number) < 10**MAX_DIGITS else "a number that long"
        raise NumberError(f"{what} is {shown}; {_range(low, high)}")
    return number


def whole_number_or_none(value: str | int | None, low: int, high: int) -> int | None:
    """`whole_number` for a link: None for a value that is missing, unreadable or out of range.

    >>> [whole_number_or_none(value, 0, 9) for value in ("²", None, "4", "12")]
    [None, None, 4, None]
    """
    if value is None:
        return None
    try:
        return whole_number(value, "value", low, high)
    except NumberError:
        return None


def json_int(text: str) -> int:
    """`json.loads(..., parse_int=json_int)`: an integer of a file, at most MAX_DIGITS long.

    >>> import json
    >>> json.loads("[1, 22]", parse_int=json_int)
    [1, 22]
    """
    if len(text) <= MAX_DIGITS:  # subtle: json gives ASCII digits (and a minus) only, so
        return int(text)  # these are in range; whole_number cost 0.15 s on GPT-2's encoder.json
    return whole_number(text, "a number in the file", -(10**MAX_DIGITS), 10**MAX_DIGITS)


def _range(low: int, high: int) -> str:
    return f"it must be {low:,} to {high:,}"


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}…"
