"""Custom patterns are checked before regex compiles them: a huge program is refused with a
plain reason, compiled patterns are kept in a bounded cache, and nothing else is raised."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.encoding import pretokenize
from explorer.encoding.pattern_safety import MAX_PATTERN_CHARS, pattern_problem
from explorer.encoding.pretokenize import PRESETS, PatternError, compile_pattern
from explorer.files.formats import FormatError, parse_model

ROOT = Path(__file__).resolve().parents[3]

ISSUE_PATTERN = "(?:(?:a{100}){100}){1000}"  # issue 21: ~1.4 GB per distinct link
FOUR_LEVELS = "(?:(?:(?:a{100}){100}){100}){100}"  # issue 21: past 20 GB
HOSTILE = [
    ISSUE_PATTERN,
    FOUR_LEVELS,
    "(?:(?:b{100}){100}){1000}",
    "(?:x{1000}){1000}",
    "a{65535}",
    r"(?:(\w){300}){300}",
    "(?:" * 140 + "a" + "){2}" * 140,  # 2**140 copies, each level small
]
ORDINARY = [r"\w+|\s+", r"\p{L}{1,3}", "[a-z]{2,40}", r"\d{1,3}(?:,\d{3})*", r" ?\p{L}+|\s+|."]


@pytest.mark.parametrize("pattern", HOSTILE)
def test_nested_counted_repeats_are_refused_with_what_to_change(pattern: str) -> None:
    with pytest.raises(PatternError) as refused:
        compile_pattern(pattern)
    message = str(refused.value)
    assert "counted repeats multiply into" in message
    assert "use smaller counts" in message and "{1,100}" in message
    assert "choose a preset" in message


@pytest.mark.parametrize("pattern", [p for p in PRESETS.values() if p] + ORDINARY)
def test_presets_and_ordinary_patterns_pass(pattern: str) -> None:
    assert pattern_problem(pattern) is None
    assert compile_pattern(pattern) is not None


def test_a_long_pattern_is_refused() -> None:
    pattern = "|".join(["abc"] * 300)  # 1,199 characters
    with pytest.raises(PatternError, match=f"at most {MAX_PATTERN_CHARS:,} are allowed"):
        compile_pattern(pattern)
    assert compile_pattern(pattern[:MAX_PATTERN_CHARS]) is not None


@pytest.mark.parametrize("depth", [400, 490])
def test_deeply_nested_groups_are_refused_not_a_recursion_error(depth: int) -> None:
    with pytest.raises(PatternError, match="nested too deeply"):
        compile_pattern("(" * depth + "a" + ")" * depth)


def test_invalid_patterns_keep_regexs_own_reason() -> None:
    with pytest.raises(PatternError, match="invalid pre-tokenizer regex '\\(': missing \\)"):
        compile_pattern("(")


def test_hostile_patterns_do_not_grow_memory() -> None:
    """In a fresh interpreter capped at 1 GB of address space (so a regression fails with a
    MemoryError rather than taking the machine), three hostile links' patterns leave its
    peak RSS where it was."""
    script = f"""
import json, resource
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from explorer.encoding.pretokenize import PatternError, compile_pattern
compile_pattern(r"\\w+")  # regex's own start-up allocations
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
refused = 0
for pattern in {HOSTILE[:4]!r}:
    try:
        compile_pattern(pattern)
    except PatternError:
        refused += 1
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"refused": refused, "grew_kb": after - before}}))
"""
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    measured = json.loads(done.stdout)
    assert measured["refused"] == 4
    assert measured["grew_kb"] < 20_000, measured  # compiling the first took 2.7 GB


def test_compiled_patterns_are_kept_in_a_bounded_cache_only() -> None:
    regex_cache = sys.modules[regex.compile.__module__]._cache  # regex's own (private)
    patterns = [f"x{{{n}}}|y+" for n in range(1, pretokenize.COMPILED_PATTERNS_KEPT + 20)]
    for pattern in patterns:
        compile_pattern(pattern)
    assert pretokenize._compiled.cache_info().currsize <= pretokenize.COMPILED_PATTERNS_KEPT
    assert not [key for key in regex_cache if any(p in str(key) for p in patterns)]
    assert compile_pattern(patterns[-1]) is compile_pattern(patterns[-1])  # kept while recent


def test_a_model_files_hostile_pattern_line_is_a_clear_format_error() -> None:
    model = f"minbpe v1\n{ISSUE_PATTERN}\n0\n97 97\n"
    with pytest.raises(FormatError) as refused:
        parse_model(model, source="hostile.model")
    message = str(refused.value)
    assert message.startswith("hostile.model") and "line 2" in message
    assert "counted repeats multiply into" in message


# Small patterns built from regex's pieces: atoms, classes, groups, alternatives, lookarounds
# and repeats with counts up to 1,000, nested up to four deep.
_ATOMS = st.sampled_from(
    ["a", "b", "ab", ".", r"\w", r"\d", r"\s", r"\p{L}", "[a-z]", "[^ ]", "^", "$", r"\b", "(", ")"]
)
_COUNTS = st.sampled_from(
    ["", "", "*", "+", "?", "{0}", "{3}", "{2,}", "{1,40}", "{100}", "{1000}"]
)


def _wrap(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    group = st.sampled_from(["(?:{})", "({})", "(?>{})", "(?={})", "(?<=a)({})", "(?i:{})"])
    lazy = st.sampled_from(["", "", "?", "+"])
    repeated = st.tuples(group, inner, _COUNTS, lazy).map(
        lambda t: t[0].format(t[1]) + t[2] + (t[3] if t[2] else "")
    )
    joined = st.lists(inner, min_size=1, max_size=3).flatmap(
        lambda parts: st.sampled_from(["", "|"]).map(lambda sep: sep.join(parts))
    )
    return repeated | joined


_PATTERNS = st.recursive(_ATOMS, _wrap, max_leaves=8) | st.text(
    alphabet="ab()[]{}|*+?.\\^$-,0123456789wdsp<>=!:", max_size=30
)


@settings(max_examples=300, deadline=None)
@given(_PATTERNS)
def test_any_small_pattern_compiles_or_is_a_pattern_error(pattern: str) -> None:
    try:
        compiled = compile_pattern(pattern)
    except PatternError:
        return
    assert compiled is None if pattern == "" else compiled.pattern == pattern
