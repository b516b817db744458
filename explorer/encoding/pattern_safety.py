"""Checks a custom pre-tokenizer pattern before `regex` compiles it.

`regex` writes a fixed count (`a{100}`) out as that many copies in the compiled
program, so counted repeats nested inside one another multiply: `(?:(?:a{100}){100}){1000}`
is ten million copies, 2.7 GB while it compiles. A pattern from a link, a form or a
file is parsed first (regex's own parser: fast, it copies nothing) and refused when
its program would be large.

    >>> pattern_problem(r"\\w+|\\s+") is None, pattern_problem(r"[a-z]{2,40}") is None
    (True, True)
    >>> print(pattern_problem("(?:(?:a{100}){100}){1000}")[:70])
    its counted repeats multiply into about 10,202,002 copies of its parts
"""

from __future__ import annotations

from typing import Any

import regex

# The longest preset (o200k) is 274 characters; 1,000 leaves room for a pattern of one's
# own and bounds what parsing and the program's alternatives can cost.
MAX_PATTERN_CHARS = 1_000
# Measured (regex 2026.11.19): a{65535} adds 17 MB while compiling, ~265 bytes a copy,
# so 10,000 copies stay under ~3 MB; the presets need under 60.
MAX_PROGRAM_COPIES = 10_000
_SATURATED = 10**12  # estimates stop growing here: 140 nested {2} would print 43 digits


def pattern_problem(pattern: str) -> str | None:
    """Why a pattern must not be compiled, in words a user can act on; None when it may be.

    >>> pattern_problem("a" * 1_001)
    'it is 1,001 characters long (at most 1,000 are allowed): shorten it'
    """
    if len(pattern) > MAX_PATTERN_CHARS:
        return (
            f"it is {len(pattern):,} characters long (at most {MAX_PATTERN_CHARS:,} are "
            "allowed): shorten it"
        )
    from regex import _regex_core as core  # regex's own parser: the tree regex compiles

    try:
        copies = program_copies(core, parse_pattern(core, pattern)[0])
    except RecursionError:
        return "its groups are nested too deeply: use fewer groups inside groups"
    except (regex.error, ValueError, OverflowError):
        return None  # invalid: regex.compile says how, and where
    if copies > MAX_PROGRAM_COPIES:
        return (
            f"its counted repeats multiply into {_about(copies)} copies of its parts (at most "
            f"{MAX_PROGRAM_COPIES:,} are allowed): use smaller counts, fewer repeats inside "
            "repeats, or a range such as {1,100}, which is not copied"
        )
    return None


def parse_pattern(core: Any, pattern: str) -> tuple[Any, int]:
    """regex's parse tree and global flags, parsed as `regex.compile` does (private API)."""
    flags = 0
    while True:
        source = core.Source(pattern)
        info = core.Info(flags, source.char_type, {})
        source.ignore_space = bool(info.flags & regex.VERBOSE)
        try:
            tree = core._parse_pattern(source, info)
        except core._UnscopedFlagSet:  # a global flag such as (?x) met late: parse again
            flags = info.global_flags
            continue
        if not source.at_end():
            raise ValueError("unbalanced parenthesis")
        return tree, info.flags


def program_copies(core: Any, node: Any) -> int:
    """An upper estimate of the nodes the compiled program holds once repeats are copied.

    A repeat of at least n (`{n}`, `{n,}`, `{n,m}`) is counted as n copies of its body,
    plus one more for the loop when it may repeat further; every node counts one (a
    string one per character) besides what it holds.

    >>> from regex import _regex_core as core
    >>> program_copies(core, parse_pattern(core, "(?:ab){3}|c+")[0])
    16
    """
    if isinstance(node, (core.GreedyRepeat, core.LazyRepeat, core.PossessiveRepeat)):
        loop = 0 if node.max_count == node.min_count else 1
        least: int = node.min_count  # regex's parse tree is untyped; a repeat's counts are ints
        copies = program_copies(core, node.subpattern) * (max(least, 0) + loop)
        return min(1 + copies, _SATURATED)
    if isinstance(node, core.String):
        return len(node.characters)
    total = 1
    for name in ("subpattern", "yes_item", "no_item"):
        child = getattr(node, name, None)
        if isinstance(child, core.RegexBase):
            total += program_copies(core, child)
    if not isinstance(node, core.SetBase):  # a set's members are one test
        for name in ("items", "branches"):
            for child in getattr(node, name, None) or ():
                if isinstance(child, core.RegexBase):
                    total += program_copies(core, child)
    return min(total, _SATURATED)


def _about(copies: int) -> str:
    return f"more than {_SATURATED:,}" if copies >= _SATURATED else f"about {copies:,}"
