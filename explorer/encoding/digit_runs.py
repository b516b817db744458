"""Split long runs of digits in threes by slicing, not by one regex match per three digits.

cl100k's and o200k's patterns cut every run of digits (`\\p{N}`) into threes from its start:
no other alternative can take a digit (each starts with, and consists of, other classes), so
the character before a run never shares a match with it, and `\\p{N}{1,3}` then takes the run
three at a time. In the `regex` module a match costs 150-400 ns, so `" " + "0" * 100_000`
spent 13 ms matching where tiktoken encodes it whole in 4 ms.

The same pattern with that alternative taking the whole run (`\\p{N}++`) makes the same
matches everywhere else (the text is the same, and the other alternatives are tried in the
same order at the same places); each whole run is then cut in threes by slicing.

    >>> from explorer.encoding.pretokenize import GPT4_PATTERN, compile_pattern
    >>> split = digit_run_splitter(GPT4_PATTERN)
    >>> split("pay 1234567 now", compile_pattern(GPT4_PATTERN))
    ['pay', ' ', '123', '456', '7', ' now']
    >>> import pickle; pickle.loads(pickle.dumps(split)) == split  # a Tokenizer is pickled
    True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import regex

from explorer.encoding.pretokenize import GPT4_PATTERN, O200K_PATTERN, compile_pattern, split_chunks
from explorer.encoding.regex_budget import RegexBudget

# the alternative that takes digits three at a time, in each pattern that has one
THREES = {GPT4_PATTERN: r"|\p{N}{1,3}+|", O200K_PATTERN: r"|\p{N}{1,3}|"}
WHOLE_RUN = r"|\p{N}++|"
LONG_RUN = regex.compile(r"\p{N}{32}")  # runs shorter than this are matched as they are
SEARCH_FROM = 4096  # characters: shorter texts are not searched for long runs

Splitter = Callable[..., list[str]]
_NUMBER = regex.compile(r"\p{N}")


def whole_runs_pattern(pattern: str) -> str | None:
    """The pattern with its digits-in-threes alternative taking whole runs, if it has one.

    >>> whole_runs_pattern(GPT4_PATTERN).count("{1,3}"), whole_runs_pattern("[a-z]+")
    (0, None)
    """
    threes = THREES.get(pattern)
    if threes is None:
        return None
    assert pattern.count(threes) == 1
    return pattern.replace(threes, WHOLE_RUN)


def digit_run_splitter(pattern: str) -> Splitter | None:
    """A drop-in for `split_chunks` that slices long digit runs, for the patterns that cut
    digits in threes (cl100k's, o200k's); None for any other pattern."""
    whole_runs = whole_runs_pattern(pattern)
    return None if whole_runs is None else DigitRunSplitter(whole_runs)


@dataclass(frozen=True)
class DigitRunSplitter:
    """`split_chunks` with whole digit runs cut in threes by slicing (see the module).

    A class, not a closure: a Tokenizer holds it and is pickled (training in a child, the
    bundled vocabularies loaded in a child), so it holds the pattern's text only.
    """

    whole_runs: str

    def __call__(
        self, text: str, compiled: regex.Pattern[str] | None, *, budget: RegexBudget | None = None
    ) -> list[str]:
        if len(text) < SEARCH_FROM or LONG_RUN.search(text) is None:
            return split_chunks(text, compiled, budget=budget)
        runs_whole = compile_pattern(self.whole_runs)  # kept by compile_pattern's cache
        return in_threes(split_chunks(text, runs_whole, budget=budget))


def in_threes(pieces: list[str]) -> list[str]:
    """Cut each piece that is a run of digits (the only pieces that start with one) in threes.

    >>> in_threes(["a", "1234", " ", "12"])
    ['a', '123', '4', ' ', '12']
    """
    out: list[str] = []
    for piece in pieces:
        if len(piece) > 3 and _NUMBER.match(piece):
            out += [piece[i : i + 3] for i in range(0, len(piece), 3)]
        else:
            out.append(piece)
    return out
