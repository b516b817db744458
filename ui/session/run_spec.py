"""What a run is: its kind and its settings, as plain values (no Streamlit here).

>>> RunKind.TEXT.has_corpus, RunKind.MODEL_HISTORY.has_history, RunKind.BUNDLED.keeps_texts
(True, True, False)
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from enum import Enum
from typing import TypeGuard

import regex

from explorer.encoding.pretokenize import preset_name
from explorer.training.tie_rules import DEFAULT_TIE_RULE, TieRule


class RunKind(str, Enum):
    """Where a run's tokenizer came from, and so what the pages can show of it."""

    TEXT = "text"  # trained here on documents
    WORD_COUNTS = "word_counts"  # trained here on a `word count` table
    MODEL = "model"  # a loaded .model or merges JSON: merges only
    MODEL_HISTORY = "model_history"  # a .model with the history JSON the command line wrote
    IMPORTED = "imported"  # made elsewhere (tokenizer.json, .tiktoken, GPT-2's files)
    BUNDLED = "bundled"  # GPT-2's, GPT-4's or GPT-4o's vocabulary, shipped with the app
    # a real model's file (explorer.models): its own ids, merge ranks and normalizer, so
    # merge k does not make id 255 + k and only the pages that say so can show it
    LOADED_MODEL = "loaded_model"
    # a real model opened by its Hugging Face Hub name (ui/session/hub_models.py): the run
    # keeps which files of which commit, and the model is read from the server's Hub cache
    HUB_MODEL = "hub_model"

    def __str__(self) -> str:
        return self.value

    @property
    def has_corpus(self) -> bool:
        """Its documents are a training corpus the app has."""
        return self in (RunKind.TEXT, RunKind.WORD_COUNTS)

    @property
    def has_history(self) -> bool:
        """It has a merge history: counts, ties, corpus lengths."""
        return self.has_corpus or self is RunKind.MODEL_HISTORY

    @property
    def keeps_texts(self) -> bool:
        """The session keeps texts for it (a corpus, or the files it was loaded from)."""
        return self is not RunKind.BUNDLED

    @property
    def is_loaded(self) -> bool:
        """It was loaded from files the session keeps."""
        return self in (
            RunKind.MODEL,
            RunKind.MODEL_HISTORY,
            RunKind.IMPORTED,
            RunKind.LOADED_MODEL,
            RunKind.HUB_MODEL,
        )

    @property
    def is_model(self) -> bool:
        """It is a real model's tokenizer (a LoadedModel), not our own Tokenizer."""
        return self in (RunKind.LOADED_MODEL, RunKind.HUB_MODEL)


@dataclass(frozen=True)
class RunSpec:
    """What a run was trained on and how: plain values, cheap to keep and to hash.

    Its documents (kept in the session under text_key) depend on the kind: the corpus,
    the loaded file's text (a .model loaded with its history keeps both files' texts;
    an imported tokenizer keeps tokenizer.json text), or nothing for a bundled
    vocabulary, whose text_key is its name, as "cl100k_base".

    tie_rule is how training breaks ties; the default (minbpe's) is left out of the
    settings and of `as_dict`, so a run made before there was a choice keeps its key.
    """

    name: str
    source: str
    text_key: str
    vocab_size: int
    pattern: str
    special_tokens: tuple[str, ...] = ()
    min_count: int = 1
    kind: RunKind = RunKind.TEXT
    tie_rule: TieRule = DEFAULT_TIE_RULE
    holdout_percent: int = (
        0  # the share of the corpus not trained on (explorer/training/holdout.py)
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", RunKind(self.kind))  # "text" is taken as RunKind.TEXT
        object.__setattr__(self, "tie_rule", TieRule(self.tie_rule))

    @property
    def settings(self) -> str:
        """A plain string of what decides the run's results (not its name): a cache key.

        A tie rule or a held-out share is added only when set, so every run without one
        keeps the key (and so the link and the stored file) it always had.
        """
        rule = "" if self.tie_rule is DEFAULT_TIE_RULE else f"|{self.tie_rule.value}"
        held_out = f"|holdout={self.holdout_percent}" if self.holdout_percent else ""
        return (
            f"{self.kind}|{self.text_key}|{self.vocab_size}|{self.pattern}|"
            f"{self.special_tokens}|{self.min_count}{rule}{held_out}"
        )

    @property
    def store_key(self) -> str:
        """The run's key in links and on the server's disk: a hash of its settings.

        A bundled vocabulary is named by itself ("gpt2"), as a link can always reopen it.
        """
        if self.kind is RunKind.BUNDLED:
            return self.text_key
        return hashlib.sha256(self.settings.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    def as_dict(self) -> dict[str, object]:
        """The spec as JSON-ready values (`from_dict` reads them back)."""
        rule = {} if self.tie_rule is DEFAULT_TIE_RULE else {"tie_rule": self.tie_rule.value}
        values: dict[str, object] = {
            "name": self.name,
            "source": self.source,
            "text_key": self.text_key,
            "vocab_size": self.vocab_size,
            "pattern": self.pattern,
            "special_tokens": list(self.special_tokens),
            "min_count": self.min_count,
            "kind": self.kind.value,
            **rule,
        }
        if self.holdout_percent:  # only when set: older files and keys stay as they were
            values["holdout_percent"] = self.holdout_percent
        return values

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> RunSpec:
        """A spec from `as_dict`'s values; ValueError or TypeError when they do not fit."""
        specials = data["special_tokens"]
        if not isinstance(specials, list) or not all(isinstance(s, str) for s in specials):
            raise TypeError("special_tokens is not a list of strings")
        vocab_size, min_count = data["vocab_size"], data["min_count"]
        holdout_percent = data.get("holdout_percent", 0)
        if not (_whole(vocab_size) and _whole(min_count) and _whole(holdout_percent)):
            raise TypeError("vocab_size, min_count and holdout_percent must be whole numbers")
        return cls(
            name=str(data["name"]),
            source=str(data["source"]),
            text_key=str(data["text_key"]),
            vocab_size=vocab_size,
            pattern=str(data["pattern"]),
            special_tokens=tuple(specials),
            min_count=min_count,
            kind=RunKind(data["kind"]),
            tie_rule=TieRule(data.get("tie_rule", DEFAULT_TIE_RULE)),
            holdout_percent=holdout_percent,
        )


def _whole(value: object) -> TypeGuard[int]:
    """Whether a value read from JSON is a whole number (True and False are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def hub_repo(spec: RunSpec) -> str:
    """The Hub name of a Hub model's run ("" for any other run): its source's start, as
    ui/session/hub_opening.py writes it ("Qwen/Qwen3-0.6B (tokenizer.json + …)").

    >>> hub_repo(RunSpec("q", "Qwen/Qwen3-0.6B (tokenizer.json)", "k", 9, "", kind="hub_model"))
    'Qwen/Qwen3-0.6B'
    """
    return spec.source.partition(" (")[0] if spec.kind is RunKind.HUB_MODEL else ""


def text_key(texts: tuple[str, ...]) -> str:
    """A short content hash of documents: the same texts share one cache entry."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest())
    return digest.hexdigest()[:16]


def run_name(
    source: str, pattern: str, vocab_size: int, tie_rule: TieRule = DEFAULT_TIE_RULE
) -> str:
    """A short name people can tell apart: `run_name("Shakespeare", "gpt4", 5000)`.

    A tie rule other than the default is named before the size (which comes last, see
    `with_reached_size`).

    >>> run_name("cl100k_base", "gpt4", 100_256), run_name("x", "none", 1500)
    ('cl100k_base · gpt4 · 100,256', 'x · none · 1.5k')
    >>> run_name("x", "none", 259, TieRule.LOWEST_IDS)
    'x · none · lowest-ids · 259'
    """
    shown = preset_name(pattern) or pattern
    shown = shown if len(shown) <= 12 else "custom regex"
    rule = "" if tie_rule is DEFAULT_TIE_RULE else f" · {tie_rule.value}"
    return f"{source} · {shown}{rule} · {size_label(vocab_size)}"


def size_label(vocab_size: int) -> str:
    """A vocab size as names show it: `2k` when round, else with commas.

    >>> size_label(2000), size_label(401), size_label(100_256)
    ('2k', '401', '100,256')
    """
    round_size = vocab_size >= 1000 and vocab_size % 100 == 0
    return f"{vocab_size / 1000:g}k" if round_size else f"{vocab_size:,}"


def with_reached_size(name: str, reached: int) -> str:
    """A run's name with the vocab size training reached (it may stop before the one asked).

    >>> with_reached_size("“aaab” · none · 2k", 259)
    '“aaab” · none · 259'
    """
    stem, _, _ = name.rpartition(" · ")
    return f"{stem} · {size_label(reached)}" if stem else name


def first_words(text: str, limit: int = 24) -> str:
    """The start of a text, quoted, for a run's name: whole words up to `limit` characters.

    Control and other unprintable characters count as spaces, so a name stays readable.

    >>> first_words("First Citizen:\\nBefore we proceed any further, hear me speak.")
    '“First Citizen: Before we…”'
    >>> first_words("  hello  "), first_words("x" * 40), first_words("a\\x00b")
    ('“hello”', '“xxxxxxxxxxxxxxxxxxxxxxx…”', '“a b”')
    """
    head = text.lstrip()[: limit * 4]
    words = "".join(ch if ch.isprintable() else " " for ch in head).split()
    shown = ""
    for word in words:
        candidate = f"{shown} {word}" if shown else word
        if len(candidate) > limit:
            break
        shown = candidate
    if not shown and words:
        shown = words[0][: limit - 1]
    cut = len(shown) < len(" ".join(words)) or len(head) < len(text.strip())
    return f"“{shown}{'…' if cut else ''}”"


BUNDLED_RUNS = {  # bundled name -> (short title, where it comes from)
    "gpt2": ("GPT-2", "GPT-2's vocabulary (OpenAI, 2019)"),
    "cl100k_base": ("GPT-4", "GPT-4's cl100k_base (OpenAI, 2023)"),
    "o200k_base": ("GPT-4o", "GPT-4o's o200k_base (OpenAI, 2024)"),
}
OPENAI = {name: short for name, (short, _) in BUNDLED_RUNS.items()}  # bundled name -> "GPT-4"


def file_stem(spec: RunSpec) -> str:
    """A file name for a run's downloads: `shakespeare-gpt4-2k`."""
    return _stem_of(spec.name)


@functools.lru_cache(maxsize=256)
def _stem_of(name: str) -> str:
    """file_stem's work, kept per name (Animate's lesson button asks at every rerun).

    >>> _stem_of("Shakespeare · gpt4 · 2k")
    'shakespeare-gpt4-2k'
    """
    stem = _NOT_NAME.sub("-", name.casefold()).strip("-")
    return stem[:60] or "tokenizer"


_NOT_NAME = regex.compile(r"[^\p{L}\p{N}]+")
