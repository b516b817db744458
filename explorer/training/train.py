"""Train a byte-level BPE tokenizer from text, files or a word-frequency table.

Each entry point counts chunks (explorer.training.corpus), learns merges
(explorer.training.learner) and
returns the tokenizer with its full merge history.

    >>> result = train("aaabdaaabac", 259, pattern="none")
    >>> result.tokenizer.encode("aaabdaaabac")
    [258, 100, 258, 97, 99]
    >>> [step.count for step in result.history.steps]
    [4, 2, 2]
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from explorer.base.arguments import (
    ArgumentTypeError,
    callback_argument,
    paths_argument,
    pattern_argument,
    strings_argument,
    text_argument,
    texts_argument,
    whole_number,
)
from explorer.encoding.pretokenize import as_unicode, compile_pattern, resolve_pattern
from explorer.encoding.safe_cuts import can_split
from explorer.encoding.tokenizer import Tokenizer
from explorer.training.corpus import (
    DEFAULT_BLOCK_CHARS,
    count_chunks,
    count_file_chunks,
    parse_word_counts,
    word_chunk_counts,
)
from explorer.training.history import MergeHistory
from explorer.training.learner import MAX_VOCAB_SIZE, ProgressCallback, learn_merges
from explorer.training.parallel import count_files_in_parallel
from explorer.training.tie_rules import DEFAULT_TIE_RULE, TieRule, TieRuleError, tie_rule_argument

DEFAULT_PATTERN = "gpt4"


class TrainingError(ValueError):
    """Training settings that cannot work, with what to choose instead."""


@dataclass(frozen=True)
class TrainingResult:
    """A trained tokenizer and the history of how it was learned."""

    tokenizer: Tokenizer
    history: MergeHistory


def train(
    text: str | Iterable[str],
    vocab_size: int,
    *,
    pattern: str = DEFAULT_PATTERN,
    special_tokens: Iterable[str] = (),
    min_count: int = 1,
    progress: ProgressCallback | None = None,
    tie_rule: TieRule | str = DEFAULT_TIE_RULE,
) -> TrainingResult:
    """Train on one text, or on several texts taken as separate documents.

    `pattern` is a preset name (none, gpt2, gpt4, o200k, words) or a regex. Special
    tokens are cut out of the text before counting and never merged. `tie_rule` breaks
    ties between pairs of the same count: "first-occurrence" (minbpe's) or "lowest-ids".
    """
    texts = texts_argument(text, "text")
    specials = _check_settings(vocab_size, pattern, special_tokens, min_count, progress)
    rule = _tie_rule(tie_rule)
    texts = [as_unicode(t) for t in texts]  # lone surrogates as encode treats them
    started = time.perf_counter()
    counts = count_chunks(texts, pattern, specials)
    corpus_bytes = sum(len(t.encode("utf-8", "surrogatepass")) for t in texts)
    return _finish(
        counts, vocab_size, pattern, specials, min_count, progress, started, corpus_bytes, rule
    )


def train_files(
    paths: Iterable[str | Path],
    vocab_size: int,
    *,
    pattern: str = DEFAULT_PATTERN,
    special_tokens: Iterable[str] = (),
    min_count: int = 1,
    block_chars: int = DEFAULT_BLOCK_CHARS,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    tie_rule: TieRule | str = DEFAULT_TIE_RULE,
) -> TrainingResult:
    """Train on files read in blocks: memory holds the distinct chunks, not the text.

    The merges are exactly those of `train` on the files' texts (each file a document).
    With `workers` > 1, files of 1 MB and more are counted by that many processes
    (preset patterns other than `none`; see explorer.training.parallel).
    """
    paths = paths_argument(paths)
    specials = _check_settings(vocab_size, pattern, special_tokens, min_count, progress)
    rule = _tie_rule(tie_rule)
    block_chars, workers = (
        whole_number(block_chars, "block_chars"),
        whole_number(workers, "workers"),
    )
    if block_chars < 1 or workers < 1:
        raise TrainingError(
            f"block_chars and workers must be at least 1 (got {block_chars}, {workers})"
        )
    started = time.perf_counter()
    if workers > 1 and can_split(pattern):
        counts = count_files_in_parallel(
            paths, pattern, specials, workers=workers, block_chars=block_chars, progress=progress
        )
    else:
        counts = count_file_chunks(
            paths, pattern, specials, block_chars=block_chars, progress=progress
        )
    corpus_bytes = sum(Path(p).stat().st_size for p in paths)
    return _finish(
        counts, vocab_size, pattern, specials, min_count, progress, started, corpus_bytes, rule
    )


def train_word_counts(
    word_counts: Mapping[str, int] | str,
    vocab_size: int,
    *,
    special_tokens: Iterable[str] = (),
    min_count: int = 1,
    progress: ProgressCallback | None = None,
    tie_rule: TieRule | str = DEFAULT_TIE_RULE,
) -> TrainingResult:
    """Train on words with counts (a mapping, or a `word count` table as text).

    Each word is one chunk, as the seeds' hug/pug example counts them:

    >>> steps = train_word_counts("hug 10\\npug 5\\npun 12\\nbun 4\\nhugs 5", 259).history.steps
    >>> [(s.token, s.count) for s in steps]
    [(b'ug', 20), (b'un', 16), (b'hug', 15)]
    """
    if isinstance(word_counts, str):
        word_counts = parse_word_counts(word_counts)
    elif not isinstance(word_counts, Mapping):
        raise ArgumentTypeError(
            "word_counts must be a mapping such as {'hug': 10} or a 'word count' table as "
            f"text, not {type(word_counts).__name__}"
        )
    specials = _check_settings(vocab_size, "none", special_tokens, min_count, progress)
    rule = _tie_rule(tie_rule)
    word_counts = {
        text_argument(word, "each word of word_counts"): whole_number(n, f"the count of {word!r}")
        for word, n in word_counts.items()
    }
    started = time.perf_counter()
    counts = word_chunk_counts(dict(word_counts))
    corpus_bytes = sum(len(c) * n for c, n in counts.items())
    return _finish(
        counts, vocab_size, "", specials, min_count, progress, started, corpus_bytes, rule
    )


def _check_settings(
    vocab_size: int,
    pattern: str,
    special_tokens: Iterable[str],
    min_count: int,
    progress: ProgressCallback | None,
) -> list[str]:
    vocab_size = whole_number(vocab_size, "vocab_size")
    min_count = whole_number(min_count, "min_count")
    pattern_argument(pattern)
    callback_argument(progress, "progress")
    special_tokens = strings_argument(special_tokens, "special_tokens")
    if vocab_size < 256:
        raise TrainingError(
            f"vocab_size must be at least 256, so we can encode all bytes (got {vocab_size})"
        )
    if vocab_size > MAX_VOCAB_SIZE:
        raise TrainingError(f"vocab_size must be at most {MAX_VOCAB_SIZE:,} (got {vocab_size:,})")
    if min_count < 1:
        raise TrainingError(f"min_count must be a whole number of at least 1 (got {min_count!r})")
    compile_pattern(resolve_pattern(pattern))  # raises PatternError with a clear message
    specials = list(dict.fromkeys(special_tokens))
    if any(not isinstance(s, str) or not s for s in specials):
        raise TrainingError("special tokens must be non-empty strings")
    return specials


def _tie_rule(value: TieRule | str) -> TieRule:
    """The tie rule asked for; a name that is none is a TrainingError listing the choices."""
    try:
        return tie_rule_argument(value)
    except TieRuleError as exc:
        raise TrainingError(str(exc)) from None


def _finish(
    counts: dict[bytes, int],
    vocab_size: int,
    pattern: str,
    specials: list[str],
    min_count: int,
    progress: ProgressCallback | None,
    started: float,
    corpus_bytes: int,
    tie_rule: TieRule,
) -> TrainingResult:
    learned = learn_merges(
        counts, vocab_size - 256, min_count=min_count, progress=progress, tie_rule=tie_rule
    )
    history = MergeHistory(
        steps=learned.steps,
        stop_reason=learned.stop_reason,
        initial_length=learned.initial_length,
        token_usage=learned.token_usage,
        seconds=time.perf_counter() - started,
        corpus_bytes=corpus_bytes,
        tie_rule=tie_rule,
    )
    tokenizer = Tokenizer(
        history.merges, pattern=resolve_pattern(pattern), special_tokens=specials, trained=True
    )
    return TrainingResult(tokenizer, history)
