"""Tie rules: which pair wins when several share the highest count.

BPE picks the most frequent pair; on a tie the rule decides, and different rules learn
different vocabularies. minbpe's (the default) takes the pair seen first in the current
token sequence; the lexicographic rule proposed for minbpe takes the lowest pair of ids.
On Wikipedia's example "aaabdaaabac" both merge `aa` first (count 4); then `aa`+`a`
(seen first) and `ab` (ids 97, 98: lower than aa's 256) tie at count 2:

    >>> from explorer.training.train import train
    >>> [s.token for s in train("aaabdaaabac", 259, pattern="none").history.steps]
    [b'aa', b'aaa', b'aaab']
    >>> steps = train("aaabdaaabac", 259, pattern="none", tie_rule="lowest-ids").history.steps
    >>> [s.token for s in steps]
    [b'aa', b'ab', b'aaab']
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from explorer.base.arguments import ArgumentTypeError


class TieRuleError(ValueError):
    """A tie rule that does not exist, with the ones that do."""


class TieRule(str, Enum):
    """How training breaks a tie between pairs with the same, highest count."""

    FIRST_OCCURRENCE = "first-occurrence"
    LOWEST_IDS = "lowest-ids"

    def __str__(self) -> str:
        return self.value

    def describe(self) -> str:
        """One sentence for people: `TieRule.LOWEST_IDS.describe()`."""
        return {
            TieRule.FIRST_OCCURRENCE: (
                "Among pairs with the highest count, the one that occurs first in the text "
                "as it stands wins (minbpe's rule, the default)."
            ),
            TieRule.LOWEST_IDS: (
                "Among pairs with the highest count, the one with the lowest ids wins: the "
                "smallest left id, then the smallest right id (the textbook example's rule)."
            ),
        }[self]

    @property
    def winner_phrase(self) -> str:
        """How a tie went, to end a sentence: "the tie went to " + winner_phrase."""
        return {
            TieRule.FIRST_OCCURRENCE: "the pair seen first in the text",
            TieRule.LOWEST_IDS: "the pair with the lowest ids",
        }[self]


DEFAULT_TIE_RULE = TieRule.FIRST_OCCURRENCE
TIE_RULE_NAMES = tuple(rule.value for rule in TieRule)


def tie_rule_argument(value: Any, name: str = "tie_rule") -> TieRule:
    """A TieRule from itself or its name; anything else is refused with the choices.

    >>> tie_rule_argument("lowest-ids")
    <TieRule.LOWEST_IDS: 'lowest-ids'>
    >>> tie_rule_argument("lowest")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.training.tie_rules.TieRuleError: tie_rule must be one of first-occurrence, lowest-ids (...)
    """  # noqa: E501 (a doctest's exception line cannot wrap)
    if isinstance(value, TieRule):
        return value
    if not isinstance(value, str):
        raise ArgumentTypeError(
            f"{name} must be a TieRule or one of the strings {', '.join(TIE_RULE_NAMES)}, "
            f"not {type(value).__name__}"
        )
    try:
        return TieRule(value)
    except ValueError:
        raise TieRuleError(
            f"{name} must be one of {', '.join(TIE_RULE_NAMES)} (got {value!r})"
        ) from None
