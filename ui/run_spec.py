"""What a run is: its kind and its settings, as plain values (no Streamlit here).

>>> RunKind.TEXT.has_corpus, RunKind.MODEL_HISTORY.has_history, RunKind.BUNDLED.keeps_texts
(True, True, False)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import Enum

from explorer.pretokenize import preset_name


class RunKind(str, Enum):
    """Where a run's tokenizer came from, and so what the pages can show of it."""

    TEXT = "text"  # trained here on documents
    WORD_COUNTS = "word_counts"  # trained here on a `word count` table
    MODEL = "model"  # a loaded .model or merges JSON: merges only
    MODEL_HISTORY = "model_history"  # a .model with the history JSON the command line wrote
    IMPORTED = "imported"  # made elsewhere (tokenizer.json, .tiktoken, GPT-2's files)
    BUNDLED = "bundled"  # GPT-2's, GPT-4's or GPT-4o's vocabulary, shipped with the app

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
        return self in (RunKind.MODEL, RunKind.MODEL_HISTORY, RunKind.IMPORTED)


@dataclass(frozen=True)
class RunSpec:
    """What a run was trained on and how: plain values, cheap to keep and to hash.

    Its documents (kept in the session under text_key) depend on the kind: the corpus,
    the loaded file's text (a .model loaded with its history keeps both files' texts;
    an imported tokenizer keeps tokenizer.json text), or nothing for a bundled
    vocabulary, whose text_key is its name, as "cl100k_base".
    """

    name: str
    source: str
    text_key: str
    vocab_size: int
    pattern: str
    special_tokens: tuple[str, ...] = ()
    min_count: int = 1
    kind: RunKind = RunKind.TEXT

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", RunKind(self.kind))  # "text" is taken as RunKind.TEXT


def text_key(texts: tuple[str, ...]) -> str:
    """A short content hash of documents: the same texts share one cache entry."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest())
    return digest.hexdigest()[:16]


def run_name(source: str, pattern: str, vocab_size: int) -> str:
    """A short name people can tell apart: `run_name("Shakespeare", "gpt4", 5000)`.

    >>> run_name("cl100k_base", "gpt4", 100_256), run_name("x", "none", 1500)
    ('cl100k_base · gpt4 · 100,256', 'x · none · 1.5k')
    """
    round_size = vocab_size >= 1000 and vocab_size % 100 == 0
    size = f"{vocab_size / 1000:g}k" if round_size else f"{vocab_size:,}"
    shown = preset_name(pattern) or pattern
    shown = shown if len(shown) <= 12 else "custom regex"
    return f"{source} · {shown} · {size}"
