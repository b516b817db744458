"""What a link's values say, read with no side effects: its numbers, and a sample's
settings read into the run they name.

Every number in a link goes through explorer.base.numbers (a superscript, a number of
thousands of digits, `-1` or `1e3` is left out, with a note saying so), and what a link
may train is bounded (ui/session/links/budget.py): a larger vocab size is lowered, with a
note. Nothing here touches the session or trains: ui/session/opening.py does, with what
these return.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from explorer.base.numbers import whole_number_or_none
from explorer.encoding.pretokenize import (
    PatternError,
    compile_pattern,
    preset_name,
    resolve_pattern,
)
from explorer.training.holdout import MAX_PERCENT, MIN_PERCENT, HoldoutError, split_holdout
from explorer.training.tie_rules import DEFAULT_TIE_RULE, TIE_RULE_NAMES, TieRule
from ui.session.links import budget as link_budget
from ui.session.links.notices import PatternNotUsed
from ui.session.run_spec import RunSpec
from ui.session.runs import MAX_APP_VOCAB_SIZE
from ui.session.samples import DEFAULT_SAMPLE, SAMPLES, Sample, sample_text
from ui.session.train_inputs import sample_corpus, training_spec

SHOWN_VALUE_CHARS = 24  # a link's unreadable value is quoted this far in a note


@dataclass(frozen=True)
class LinkedSample:
    """The sample run a link's settings name, and what the link is told about them."""

    sample: Sample
    spec: RunSpec
    texts: tuple[str, ...]
    notes: tuple[str, ...] = ()  # the link's values left out or lowered
    cut: bool = False  # its vocab size was over what a link may train, and lowered
    pattern_not_used: PatternNotUsed | None = None


def read_sample_link(params: Mapping[str, str], *, pattern: str | None = None) -> LinkedSample:
    """The sample run a link's settings (`sample`, `vocab`, `pattern`, `tie_rule`,
    `holdout`) name, with a note for each value left out or lowered; {} names the default
    sample. It reads nothing but `params` and trains nothing; `pattern` replaces the
    link's own.

    >>> read_sample_link({}).spec == read_sample_link({"vocab": "²"}).spec
    True
    >>> read_sample_link({"vocab": "²"}).notes[0][:32]
    "The link's vocab=² was left out:"
    """
    notes: list[str] = []
    asked = params.get("sample", DEFAULT_SAMPLE)
    sample = SAMPLES.get(asked, SAMPLES[DEFAULT_SAMPLE])
    if asked not in SAMPLES:
        notes.append(
            f"The link's sample={_shown_value(str(asked))} is not one of the app's samples: "
            f"{sample.title} opened instead."
        )
    vocab_size = link_number(params, "vocab", 256, MAX_APP_VOCAB_SIZE, notes)
    vocab_size = vocab_size or sample.vocab_size
    pattern = params.get("pattern", sample.pattern) if pattern is None else pattern
    refused = None
    try:
        compile_pattern(resolve_pattern(pattern))
    except PatternError as exc:  # a link's broken or huge pattern: the sample's own
        refused = pattern_not_used(pattern, str(exc), sample)
        pattern = sample.pattern
    tie_rule = params.get("tie_rule", DEFAULT_TIE_RULE.value)
    tie_rule = tie_rule if tie_rule in TIE_RULE_NAMES else DEFAULT_TIE_RULE.value
    corpus = sample_corpus(sample, sample_text(sample.key))
    held_out = 0 if sample.word_counts else _holdout_param(params, corpus.texts, notes)
    allowed = _within_budget(vocab_size, sample.title, corpus.texts, pattern, notes)
    spec = training_spec(
        corpus, allowed, pattern, (), 1, TieRule(tie_rule), holdout_percent=held_out
    )
    return LinkedSample(sample, spec, corpus.texts, tuple(notes), allowed < vocab_size, refused)


def pattern_not_used(pattern: str, problem: str, sample: Sample) -> PatternNotUsed:
    """A notice that the link's pattern gave way to the sample's own, and why."""
    return PatternNotUsed(pattern, problem, preset_name(sample.pattern) or sample.pattern)


def _holdout_param(params: Mapping[str, str], texts: tuple[str, ...], notes: list[str]) -> int:
    """The link's held-out share (`holdout=10`), when the sample can hold it out; else 0."""
    percent = link_number(params, "holdout", 0, MAX_PERCENT, notes) or 0
    if percent < MIN_PERCENT:
        return 0
    try:
        split_holdout(texts, percent)
    except HoldoutError:
        return 0
    return percent


def _within_budget(
    vocab_size: int, title: str, texts: tuple[str, ...], pattern: str, notes: list[str]
) -> int:
    """The vocab size a link may train on these texts (ui/session/links/budget.py); a lowered
    one adds a note saying what the link asked for."""
    corpus_bytes = sum(len(text.encode("utf-8", "surrogatepass")) for text in texts)
    allowed = link_budget.link_vocab_size(vocab_size, corpus_bytes, pattern)
    if allowed < vocab_size:
        shown = preset_name(resolve_pattern(pattern)) or "a custom regex"
        cut = link_budget.LinkCut(vocab_size, allowed, title.split(" (")[0], shown)
        notes.append(cut.notice())
    return allowed


def link_number(
    params: Mapping[str, str], name: str, low: int, high: int, notes: list[str]
) -> int | None:
    """A whole number the link gives for `name`, or None: missing, or unreadable or out of
    low..high (then a note says it was left out)."""
    number, note = read_link_number(params.get(name), name, low, high)
    if note:
        notes.append(note)
    return number


def read_link_number(value: str | None, name: str, low: int, high: int) -> tuple[int | None, str]:
    """A link's value for `name` as a number in low..high, or None and a note saying why
    it was left out ("" when the link does not give one).

    >>> read_link_number("280", "view", 256, 50_000)
    (280, '')
    >>> read_link_number("²", "view", 256, 50_000)[1][:48]
    "The link's view=² was left out: it must be a who"
    """
    if value is None:
        return None, ""
    number = whole_number_or_none(value, low, high)
    if number is not None:
        return number, ""
    return None, (
        f"The link's {name}={_shown_value(str(value))} was left out: it must be a whole "
        f"number from {low:,} to {high:,}, written in digits 0-9."
    )


def _shown_value(text: str) -> str:
    """A link's value as a note quotes it: its start only."""
    return text if len(text) <= SHOWN_VALUE_CHARS else f"{text[:SHOWN_VALUE_CHARS]}…"
