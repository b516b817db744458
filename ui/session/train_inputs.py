"""Training inputs read into a run (the Train form, and a link that trains a sample): the text,
the settings, and what is wrong with them.

No Streamlit calls here: plain functions over the engine, tested without a browser:

    >>> parse_special_tokens("<|endoftext|>, <|pad|>\\n<|pad|>")
    ('<|endoftext|>', '<|pad|>')
    >>> vocab_size_problem(255)
    'The vocab size must be at least 256, one token for each byte (got 255).'
    >>> vocab_size_problem(float("inf"))  # not OverflowError from int()
    'Enter the vocab size as a whole number, such as 1000.'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from explorer import FormatError
from explorer.encoding.pretokenize import PRESETS, compile_pattern, preset_name, resolve_pattern
from explorer.files.formats import decode_utf8
from explorer.training.corpus import CorpusError, parse_word_counts
from explorer.training.tie_rules import DEFAULT_TIE_RULE, TieRule
from ui.session.run_spec import RunKind, RunSpec, first_words, run_name, text_key
from ui.session.runs import MAX_APP_VOCAB_SIZE
from ui.session.samples import Sample

CUSTOM = "custom"

TEXT_UPLOAD_MB = 20  # a text upload (a tokenizer file may be larger: .streamlit/config.toml)


PATTERN_CHOICES = (*PRESETS, CUSTOM)


PATTERN_LABELS = {
    "none": "none: the text is one chunk",
    "gpt2": "gpt2: GPT-2's regex",
    "gpt4": "gpt4: GPT-4's regex (cl100k)",
    "o200k": "o200k: GPT-4o's regex",
    "words": "words: words and spaces apart",
    CUSTOM: "custom regex…",
}


# a word table's text in bytes bounds every count the pages show (pair counts, lengths,
# uses), and tables and charts hold those as 64-bit integers
MAX_WORD_TABLE_BYTES = 10**18


class InputError(ValueError):
    """Training input the page cannot use, with what to do instead."""


class MissingInput(InputError):
    """Nothing to train on yet: a hint rather than an error."""


@dataclass(frozen=True)
class Corpus:
    """What to train on: documents (or one word-count table) and a name for people."""

    source: str  # shown in the sidebar caption
    short: str  # used in the run's name
    texts: tuple[str, ...]
    kind: RunKind = RunKind.TEXT  # TEXT or WORD_COUNTS


def parse_special_tokens(text: str) -> tuple[str, ...]:
    """Special tokens from comma- or line-separated text, trimmed, without repeats."""
    pieces = (piece.strip() for line in text.splitlines() for piece in line.split(","))
    return tuple(dict.fromkeys(piece for piece in pieces if piece))


def vocab_size_problem(vocab_size: float | None) -> str:
    """Why a vocab size cannot be trained ("" when it can)."""
    if vocab_size is None or not math.isfinite(vocab_size) or vocab_size != int(vocab_size):
        return "Enter the vocab size as a whole number, such as 1000."
    if vocab_size < 256:
        return (
            "The vocab size must be at least 256, one token for each byte "
            f"(got {int(vocab_size):,})."
        )
    if vocab_size > MAX_APP_VOCAB_SIZE:
        return (
            f"The app trains up to {MAX_APP_VOCAB_SIZE:,} tokens (got "
            f"{f'{int(vocab_size):,}' if vocab_size < 10**18 else 'far more'}); "
            "for more, use the command line: python -m explorer train."
        )
    return ""


def chosen_pattern(choice: str, custom_regex: str) -> str:
    """The pattern a run stores: a preset's name, or the custom regex (checked)."""
    if choice != CUSTOM:
        return choice
    if not custom_regex:
        raise InputError("Type a custom regex, or choose one of the presets.")
    compile_pattern(resolve_pattern(custom_regex))  # PatternError says what is wrong
    return custom_regex


def pattern_choice(pattern: str) -> tuple[str, str]:
    """The (choice, custom regex) that show a stored pattern: `("gpt4", "")` for "gpt4"."""
    if pattern in PRESETS:
        return pattern, ""
    name = preset_name(pattern)
    return (name, "") if name is not None else (CUSTOM, pattern)


def decode_upload(name: str, data: bytes) -> str:
    """An uploaded file as text: strict UTF-8, newlines kept as they are.

    Text is bounded at TEXT_UPLOAD_MB, below the server's limit (which a tokenizer file
    needs): the uploader says so in the browser, and this says it to a client that
    sends more.
    """
    if not data:
        raise InputError(f"{name} is empty: choose a file with some text in it.")
    if len(data) > TEXT_UPLOAD_MB * 2**20:
        raise InputError(
            f"{name} is {len(data) / 2**20:.1f} MB; a text file may be up to "
            f"{TEXT_UPLOAD_MB} MB. Use a part of it."
        )
    try:
        return decode_utf8(data, name)
    except FormatError as exc:
        raise InputError(str(exc)) from None


def upload_corpus(files: Iterable[tuple[str, bytes]]) -> Corpus:
    """Uploaded files as documents, one each; the first bad file stops everything."""
    named = [(name, decode_upload(name, data)) for name, data in files]
    if not named:
        raise MissingInput("Upload one or more text files (text, Markdown, code, CSV, JSON…).")
    first = named[0][0]
    short = first if len(named) == 1 else f"{first} + {len(named) - 1} more"
    return Corpus(short, short, tuple(text for _, text in named))


def sample_corpus(sample: Sample, text: str) -> Corpus:
    kind = RunKind.WORD_COUNTS if sample.word_counts else RunKind.TEXT
    return Corpus(sample.title, sample.title.split(" (")[0], (text,), kind)


def pasted_corpus(text: str) -> Corpus:
    if not text.strip():
        raise MissingInput("Paste some text to train on.")
    return Corpus("Pasted text", first_words(text), (text,))


def word_count_corpus(table: str) -> Corpus:
    """A `word count` table, checked now so a typo is reported before training."""
    if not table.strip():
        raise MissingInput("Type one `word count` a line, such as `hug 10`.")
    try:
        words = parse_word_counts(table)
    except CorpusError as exc:
        raise InputError(f"The word list cannot be read: {exc}.") from None
    size = sum(count * len(word.encode("utf-8", "surrogatepass")) for word, count in words.items())
    if size > MAX_WORD_TABLE_BYTES:
        raise InputError(
            f"The word list stands for {size:,} bytes of text, more than the app can count "
            f"({MAX_WORD_TABLE_BYTES:,}). Make the counts smaller, for example by dividing "
            "them all by the same number."
        )
    return Corpus(
        "Word counts", f"words {first_words(' '.join(words))}", (table,), RunKind.WORD_COUNTS
    )


def training_spec(
    corpus: Corpus,
    vocab_size: int,
    pattern: str,
    special_tokens: tuple[str, ...],
    min_count: int,
    tie_rule: TieRule | str = DEFAULT_TIE_RULE,
    holdout_percent: int = 0,
) -> RunSpec:
    """The run to add for these inputs (word counts have no pre-tokenizer).

    A held-out share is named in the run's name: "Shakespeare, 10 % held out · gpt4 · 2k".
    """
    pattern = "none" if corpus.kind is RunKind.WORD_COUNTS else pattern
    tie_rule = TieRule(tie_rule)
    short = f"{corpus.short}, {holdout_percent} % held out" if holdout_percent else corpus.short
    return RunSpec(
        name=run_name(short, pattern, vocab_size, tie_rule),
        source=corpus.source,
        text_key=text_key(corpus.texts),
        vocab_size=vocab_size,
        pattern=pattern,
        special_tokens=special_tokens,
        min_count=min_count,
        kind=corpus.kind,
        tie_rule=tie_rule,
        holdout_percent=holdout_percent,
    )


def describe_corpus(corpus: Corpus) -> str:
    """A caption for the text about to be trained: `"1 document · 11 bytes"`."""
    size = sum(len(text.encode("utf-8", "surrogatepass")) for text in corpus.texts)
    if corpus.kind is RunKind.WORD_COUNTS:
        words = parse_word_counts(corpus.texts[0])
        return f"{len(words):,} words · {sum(words.values()):,} occurrences"
    documents = len(corpus.texts)
    return f"{documents:,} document{'s' if documents != 1 else ''} · {size:,} bytes"
