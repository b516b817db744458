"""The pair table of a run at a step, for Animate: cached so that a step costs little.

A table needs every chunk of the corpus in its state at the step, and its pair counts. Per
run, the corpus is counted as the trainer counted it and every chunk brought to the run's
last step, once (`corpus_cached`); the states of recent steps, with their pair counts, are
kept in a small LRU shared by every session, keyed on (run key, step). A step forward
from a kept step is one `advance_counted` (moves the counts of the chunks the merge
changed: 9-13 ms with its table on tinyshakespeare, 28-33 ms when recounted); a jump splits
the last step's tokens back (explorer.analysis.pairs.pair_rewind, 10-40 ms there, where recounting
from the bytes takes 70 ms or more) and counts once; a class stepping together shares entries.

Memory (tracemalloc, tinyshakespeare, 15,258 distinct chunks): a step's chunk states
take 1.7-2.5 MB plus its pair counts (a dict of ~30,000 pairs, ~2.5 MB), a step forward
adds about 0.9 MB and a copy of the counts (it shares every chunk the merge left
alone), so STEPS_KEPT of them bound the LRU at about 80 MB for corpora of that size; each
of RUNS_KEPT runs keeps its counts and last states (3.3 MB there); tables are a few KB.
The LRU is bounded in entries, so a far larger corpus takes proportionally more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from explorer import MergeHistory
from explorer.analysis.pairs.pair_rewind import rewind
from explorer.analysis.pairs.pair_table import (
    FIRST_OCCURRENCE,
    ChunkSequences,
    CountedStep,
    PairTable,
    advance_counted,
    chunks_touched,
    counted,
    sequences_after,
    table_of_counted,
)
from explorer.encoding.pretokenize import as_unicode
from explorer.training.corpus import count_chunks, parse_word_counts, word_chunk_counts
from ui.server.lru import SharedLru
from ui.session.holdout_split import training_part
from ui.session.run_spec import RunKind, RunSpec

# subtle: shared by every session, so a room of thirty on runs of their own needs room
# for each one's last step, or every step misses and is rebuilt from the run's last step
# (measured: the load test's step p95 went from 0.6 to 2.1 s with 16 entries); bounded
# by weight too, so a few large corpora cannot take the memory a room needs
STEPS_KEPT = 128  # chunk states of (run, step), with their pair counts
STEPS_WEIGHT = 100_000_000  # bytes, as state_bytes estimates them
CHUNK_BYTES, PAIR_BYTES = 130, 40  # tracemalloc on tinyshakespeare's 15,258 chunks
TABLES_KEPT = 512  # finished tables of (run, step, top, tie rule): a few KB each
RUNS_KEPT = 64  # runs whose counted corpus is kept: as many as ui.session.run_cache trains
MAX_WALK = 2  # a step at most this far after a kept one is reached by advancing


_steps = SharedLru(STEPS_KEPT, STEPS_WEIGHT)
_tables = SharedLru(TABLES_KEPT)
_corpora = SharedLru(RUNS_KEPT)


def tie_rule_of(history: MergeHistory) -> str:
    """The tie rule a run was trained with (minbpe's first occurrence unless it says)."""
    return str(getattr(history, "tie_rule", FIRST_OCCURRENCE))


def has_corpus(spec: RunSpec) -> bool:
    """Whether the app has the text the run was trained on (so it can recount pairs)."""
    return spec.kind.has_corpus


@dataclass(frozen=True)
class Corpus:
    """A run's corpus for pair tables: its chunk counts, its chunks at the last step, the
    run's merges (kept: `MergeHistory.merges` builds its list on every call), and which
    chunks each merge changes (`chunks_touched`: a step forward looks at those alone)."""

    counts: Mapping[bytes, int]
    last: ChunkSequences
    merges: tuple[tuple[int, int], ...]
    touched: tuple[tuple[int, ...], ...]


def corpus_cached(
    run_key: str, spec: RunSpec, texts: tuple[str, ...], history: MergeHistory
) -> Corpus:
    """corpus_of, once per run (read only: shared by every session, and by the lesson file)."""
    return _corpora.get_or_make(run_key, lambda: corpus_of(spec, texts, history), lambda _: 0)


def corpus_of(spec: RunSpec, texts: tuple[str, ...], history: MergeHistory) -> Corpus:
    """The run's chunks counted as ui.session.runs.train_spec trained on them (without a held-out
    share), and brought to the last step of its history."""
    counts = chunk_counts_of(spec, training_part(spec, texts))
    merges = tuple(history.merges)
    last = as_tuples(sequences_after(counts, merges))
    return Corpus(counts, last, merges, chunks_touched(last, merges))


def as_tuples(sequences: ChunkSequences) -> ChunkSequences:
    """The same chunks with tuples of ids, which the garbage collector stops tracking.

    subtle: kept lists of ids are scanned by every full collection; on tinyshakespeare
    those scans were the slowest tenth of steps (150-400 ms instead of 40-70 ms).
    """
    return ChunkSequences(
        sequences.step, tuple((tuple(ids), weight) for ids, weight in sequences.chunks)
    )


def chunk_counts_of(spec: RunSpec, texts: Sequence[str]) -> dict[bytes, int]:
    """The trainer's counting for a run's documents: a word table's words, or the texts
    split by the run's pattern around its special tokens.

    >>> spec = RunSpec("t", "paste", "k", 300, "none")
    >>> chunk_counts_of(spec, ["aaab"])
    {b'aaab': 1}
    """
    if spec.kind is RunKind.WORD_COUNTS:
        return word_chunk_counts(parse_word_counts("\n".join(texts)))
    specials = list(dict.fromkeys(spec.special_tokens))
    return count_chunks([as_unicode(text) for text in texts], spec.pattern, specials)


def sequences_at(run_key: str, corpus: Corpus, step: int) -> CountedStep:
    """Every chunk after `step` merges, with its pairs counted: kept, a merge or two on
    from a kept step (counts moved, not recounted), or split back from the last step."""
    for back in range(MAX_WALK + 1):
        start = _steps.get((run_key, step - back)) if step - back >= 0 else None
        if start is not None:
            break
    else:
        start = counted(rewind(corpus.last, corpus.merges, step))
    while start.step < step:
        start = advance_counted(start, corpus.merges[start.step], corpus.touched[start.step])
    _steps.put((run_key, step), start, state_bytes(start))
    return start


def state_bytes(state: CountedStep) -> int:
    """About how much memory a step's chunks and pair counts take."""
    return CHUNK_BYTES * len(state.sequences.chunks) + PAIR_BYTES * len(state.counts)


def table_at(run_key: str, corpus: Corpus, history: MergeHistory, step: int, top: int) -> PairTable:
    """The top pairs after `step` merges of the run, before the next (cached per step)."""
    rule = tie_rule_of(history)
    return _tables.get_or_make(
        (run_key, step, top, rule),
        lambda: table_of_counted(sequences_at(run_key, corpus, step), top=top, tie_rule=rule),
        lambda _: 0,
    )
