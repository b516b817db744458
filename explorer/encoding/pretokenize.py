"""Pre-tokenizers: split text into the chunks that BPE merges inside.

A pattern is a regex string; the empty string means "none" (the whole text is one
chunk, as in minbpe's BasicTokenizer). Presets carry tiktoken's exact patterns.

    >>> split_chunks("Hello world!!", compile_pattern(PRESETS["gpt2"]))
    ['Hello', ' world', '!!']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

import regex

from explorer.encoding.pattern_safety import parse_pattern, pattern_problem
from explorer.encoding.regex_budget import UNLIMITED, BudgetSpent, RegexBudget, current_budget

# tiktoken_ext/openai_public.py, r50k_base / gpt2
GPT2_PATTERN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
)
# tiktoken_ext/openai_public.py, cl100k_base
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
# tiktoken_ext/openai_public.py, o200k_base
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
# keeps spaces apart from words
WORDS_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d|\p{L}+|\p{N}+|[^\s\p{L}\p{N}]+|\s+"""

PRESETS: dict[str, str] = {
    "none": "",
    "gpt2": GPT2_PATTERN,
    "gpt4": GPT4_PATTERN,
    "o200k": O200K_PATTERN,
    "words": WORDS_PATTERN,
}

# A custom pattern gets this long per operation (a training, an encode: every call of it in
# all), plus a little per character, before we give up; a page view may cap it further.
CUSTOM_TIMEOUT_SECONDS = 5.0
CUSTOM_TIMEOUT_SECONDS_PER_MB = 3.0


class PatternError(ValueError):
    """A pre-tokenizer pattern that cannot be used (invalid, or too slow on this text)."""


def resolve_pattern(name_or_regex: str) -> str:
    """A preset's name gives its pattern; anything else is taken as a regex.

    >>> resolve_pattern("none")
    ''
    """
    return PRESETS.get(name_or_regex, name_or_regex)


def preset_name(pattern: str) -> str | None:
    """The preset a pattern is, if any: `preset_name(GPT4_PATTERN) == "gpt4"`."""
    for name, preset in PRESETS.items():
        if preset == pattern:
            return name
    return None


# Compiled patterns kept at once: a few MB at most each (see pattern_safety), so tens of MB.
COMPILED_PATTERNS_KEPT = 32


def compile_pattern(pattern: str) -> regex.Pattern[str] | None:
    """Compile a pattern; `None` for "" (no pre-tokenization). Invalid ones raise PatternError,
    and so do ones whose compiled program would be huge (explorer.encoding.pattern_safety).

    >>> try:
    ...     compile_pattern("(?:(?:a{100}){100}){1000}")
    ... except PatternError as refused:
    ...     print(str(refused)[:87])
    the pre-tokenizer regex '(?:(?:a{100}){100}){1000}' cannot be used: its counted repeats
    """
    if pattern == "":
        return None
    return _compiled(pattern)


# subtle: regex keeps every pattern it compiles in a cache of its own (cleared only when it
# is full), so each distinct pattern from a link would stay; ours is bounded and regex's unused
@lru_cache(maxsize=COMPILED_PATTERNS_KEPT)
def _compiled(pattern: str) -> regex.Pattern[str]:
    presets = ", ".join(PRESETS)
    problem = pattern_problem(pattern)
    if problem is not None:
        raise PatternError(
            f"the pre-tokenizer regex {_shown(pattern)} cannot be used: {problem}. "
            f"Or choose a preset ({presets})."
        )
    try:
        return regex.compile(pattern, cache_pattern=False)
    except (regex.error, ValueError, OverflowError, RecursionError) as exc:
        raise PatternError(
            f"invalid pre-tokenizer regex {_shown(pattern)}: {exc}. "
            f"Fix the pattern or choose a preset ({presets})."
        ) from None


def _shown(pattern: str) -> str:
    """The pattern as a message quotes it: whole up to 200 characters, else its start."""
    return repr(pattern) if len(pattern) <= 200 else repr(pattern[:200]) + "…"


def match_budget(pattern: str, text_length: int) -> RegexBudget:
    """The regex time one operation over `text_length` characters may spend, in all calls.

    Presets are never timed. A custom pattern's budget sits inside the caller's (a page
    view's, see explorer.encoding.regex_budget), so it spends no more than that has left.

    >>> match_budget("gpt2", 10).remaining(), match_budget(r"\\w+", 1_000_000).remaining()
    (None, 8.0)
    """
    pattern = resolve_pattern(pattern)
    if not pattern or preset_name(pattern) is not None:
        return UNLIMITED
    seconds = CUSTOM_TIMEOUT_SECONDS + CUSTOM_TIMEOUT_SECONDS_PER_MB * text_length / 1e6
    return RegexBudget(seconds, "on this text", parent=current_budget())


def timed_out(compiled: regex.Pattern[str], spent: BudgetSpent) -> PatternError:
    """The error for a match that used up its budget (the operation's or the page's)."""
    budget = spent.budget
    return PatternError(
        f"the pre-tokenizer regex {_shown(compiled.pattern)} took longer than "
        f"{budget.seconds or 0:.2g} s {budget.purpose} (catastrophic backtracking?). "
        "Simplify it or choose a preset."
    )


def split_chunks(
    text: str, compiled: regex.Pattern[str] | None, *, budget: RegexBudget | None = None
) -> list[str]:
    """The pattern's matches, in order: the chunks training counts (as minbpe's findall does).

    Text the pattern does not match is not a training chunk. With no pattern the text
    itself is the one chunk. `budget` is the operation's (by default, one for this text).
    """
    if compiled is None:
        return [text] if text else []
    budget = match_budget(compiled.pattern, len(text)) if budget is None else budget
    try:
        with budget.match_call() as timeout:
            if compiled.groups == 0:
                return compiled.findall(text, timeout=timeout)
            return [m.group() for m in compiled.finditer(text, timeout=timeout)]
    except BudgetSpent as spent:
        raise timed_out(compiled, spent) from None


def covering_pieces(
    text: str, compiled: regex.Pattern[str] | None, *, budget: RegexBudget | None = None
) -> list[str]:
    """Split text into pieces that concatenate back to it: matches plus the gaps between them.

    Encoding uses this, so that `decode(encode(s)) == s` whatever the pattern matches.

    >>> covering_pieces("ab  cd", compile_pattern(r"\\w+"))
    ['ab', '  ', 'cd']
    """
    if compiled is None:
        return [text] if text else []
    budget = match_budget(compiled.pattern, len(text)) if budget is None else budget
    pieces = split_chunks(text, compiled, budget=budget)
    if sum(map(len, pieces)) == len(text):  # the matches cover the text (the presets' do)
        return [p for p in pieces if p] if "" in pieces else pieces
    covered: list[str] = []
    end = 0
    try:
        with budget.match_call() as timeout:
            for match in compiled.finditer(text, timeout=timeout):
                if match.start() > end:
                    covered.append(text[end : match.start()])
                if match.end() > match.start():
                    covered.append(match.group())
                end = max(end, match.end())
    except BudgetSpent as spent:
        raise timed_out(compiled, spent) from None
    if end < len(text):
        covered.append(text[end:])
    return covered


_SURROGATE = regex.compile("[\ud800-\udfff]")


def as_unicode(text: str) -> str:
    """Text that UTF-8 can hold, by tiktoken's rule: a surrogate pair written as two code
    points becomes its character, a lone surrogate becomes U+FFFD. Other text is unchanged.

    >>> as_unicode("a\\ud800b"), as_unicode("\\ud83d\\ude00")
    ('a\ufffdb', '😀')
    """
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    # tiktoken/core.py, Encoding.encode on UnicodeEncodeError
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def special_splitter(special_tokens: Iterable[str]) -> regex.Pattern[str] | None:
    """A regex that finds any of the special tokens, longest first; None when there are none."""
    specials = sorted(set(special_tokens), key=len, reverse=True)
    if not specials:
        return None
    return regex.compile("(" + "|".join(regex.escape(s) for s in specials) + ")")


def split_specials(text: str, splitter: regex.Pattern[str] | None) -> Iterator[tuple[str, bool]]:
    """Yield (piece, is_special) in order; special tokens are pieces of their own.

    >>> list(split_specials("a<|x|>b", special_splitter(["<|x|>"])))
    [('a', False), ('<|x|>', True), ('b', False)]
    """
    if splitter is None:
        if text:
            yield text, False
        return
    for index, piece in enumerate(splitter.split(text)):
        if piece:
            yield piece, index % 2 == 1


def match_reach(pattern: str) -> tuple[int, int] | None:
    """How far one match attempt of a pattern can look: (ahead, behind) in characters.

    An attempt at position q reads nothing at or past q + ahead, nor before q - behind,
    whatever the text; so a match that starts `ahead` characters before the end of the
    text read so far is the match the whole text gives (explorer.training.corpus relies on it).
    None when no such bound exists or cannot be proved: an unbounded repeat (`\\w+`),
    a back-reference, recursion, `\\G`, `\\X`, fuzzy matching, a reversed pattern, and `\\K`
    (a match then starts past its attempt, so attempts before it are not known to fail).

    >>> match_reach(r"(?s)..?"), match_reach(r"(?<=a)b{2,3}$"), match_reach(r"\\w+")
    ((2, 0), (4, 2), None)
    """
    if not pattern:
        return None
    try:
        from regex import _regex_core as core  # regex's own parser: no other tells the widths

        tree, flags = parse_pattern(core, pattern)
        if flags & (regex.REVERSE | regex.WORD):
            return None
        return _ReachFinder(core).reach(tree)
    except Exception:  # a private API: any surprise means "cannot prove a bound"
        return None


class _Unbounded(Exception):
    """A part of a pattern with no provable bound on how far it reads."""


class _ReachFinder:
    """Walks regex's parse tree; every node kind not named here is taken as unbounded."""

    def __init__(self, core: Any) -> None:
        self.core = core
        self.behind = 0

    def reach(self, tree: Any) -> tuple[int, int] | None:
        try:
            ahead = self._ahead(tree)
        except _Unbounded:
            return None
        return max(ahead, 1), self.behind

    def _ahead(self, node: Any) -> int:
        """Characters past the attempt's start that matching `node` there may read."""
        c = self.core
        kind = type(node)
        if kind is c.Sequence:
            offset, furthest = 0, 0
            for item in node.items:
                furthest = max(furthest, offset + self._ahead(item))
                offset += self._width(item)
            return furthest
        if kind in (c.Branch, c.StringSet):
            return max((self._ahead(b) for b in node.branches), default=0)
        if kind in (c.Group, c.Atomic):
            return self._ahead(node.subpattern)
        if kind in (c.GreedyRepeat, c.LazyRepeat, c.PossessiveRepeat):
            if node.max_count is None:
                raise _Unbounded
            if node.max_count == 0:
                return 0
            width = self._width(node.subpattern)
            most: int = node.max_count  # regex's parse tree is untyped; not None here, so an int
            return width * (most - 1) + self._ahead(node.subpattern)
        if kind is c.LookAround:
            if node.behind:
                # subtle: matched backwards; a look-ahead inside could read forward again
                if self._has_lookaround(node.subpattern):
                    raise _Unbounded
                self.behind = max(self.behind, self._width(node.subpattern) + 1)
                return 1
            return self._ahead(node.subpattern)
        if isinstance(node, _zero_width_kinds(c)):
            self.behind = max(self.behind, 1)  # \b, ^ in MULTILINE: the character before
            return 1  # ... and the one at the position (or the end of the text)
        if isinstance(node, (*_leaf_kinds(c), c.SetBase)):
            return self._width(node)
        raise _Unbounded

    def _width(self, node: Any) -> int:
        width = node.max_width()
        if not isinstance(width, int) or width >= 1 << 20:  # regex's UNLIMITED is huge
            raise _Unbounded
        return width

    def _has_lookaround(self, node: Any) -> bool:
        c = self.core
        if isinstance(node, (c.LookAround, c.LookAroundConditional)):
            return True
        children = [getattr(node, "subpattern", None)]
        children += list(getattr(node, "items", ())) + list(getattr(node, "branches", ()))
        return any(self._has_lookaround(child) for child in children if child is not None)


def _zero_width_kinds(c: Any) -> tuple[type, ...]:
    return (
        c.Boundary,
        c.StartOfWord,
        c.EndOfWord,
        c.StartOfLine,
        c.EndOfLine,
        c.StartOfString,
        c.EndOfString,
        c.EndOfStringLine,
        c.Failure,
    )


def _leaf_kinds(c: Any) -> tuple[type, ...]:
    return (c.Character, c.Property, c.Range, c.Any, c.String)
