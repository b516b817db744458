"""Results of runs, cached for every session: trained, loaded, restored from disk, viewed smaller.

Bounded caches keyed on plain values (a run's settings or the hash of its texts): trained
runs by their bytes (TRAINED_BYTES), the rest by count and time (`st.cache_resource`);
callers never change what they get back. A server loads the bundled
vocabularies in the background from its first run on (BPE_EXPLORER_PRELOAD=0 turns it off).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from functools import partial

import streamlit as st

from explorer import (
    MergeHistory,
    Tokenizer,
    TrainingResult,
    parse_model,
    train,
    train_word_counts,
)
from explorer.files.bundled import load_bundled_in_a_child
from explorer.files.imports_hf import parse_tokenizer_json
from explorer.files.limits import vocab_bytes
from explorer.files.loading import parse_model_with_history
from explorer.models.model import LoadedModel
from explorer.training.learner import ProgressCallback
from explorer.training.tie_rules import DEFAULT_TIE_RULE
from ui.server.child_jobs import ServerBusy
from ui.server.heavy_work import in_a_child, parse_sized, reads_here, trains_here
from ui.server.lru import SharedLru
from ui.session import run_store
from ui.session.model_texts import read_model_texts
from ui.session.run_spec import BUNDLED_RUNS, RunKind

# subtle: an LRU shared by every session; a room of thirty, each on a run of their own,
# needs them all kept, or every rerun of one evicts another's and it is trained again.
# By bytes too: a run at the token-bytes bound (explorer.base.vocab_budget) holds ~75 MB
# (its 32 MiB of tokens twice, in the history and the tokenizer), and 64 of them kept for
# 6 hours were gigabytes after their visitors had left (issue 35). 256 MB keeps sixty-four
# runs of a few MB (a 100 KB text to 5,000 merges holds 3.5 MB) or three at the bound.
TRAINED_KEPT = 64
TRAINED_BYTES = 256 << 20
BYTES_PER_MERGE = 800  # a merge's step, its token's entries and ranks: ~725 measured
_trained = SharedLru(TRAINED_KEPT, TRAINED_BYTES)


def trained_bytes(texts: tuple[str, ...], result: TrainingResult) -> int:
    """About the memory a cached training holds: its texts (the key), each token's bytes
    twice (the history's step and the tokenizer's vocabulary) and each merge's records.

    >>> from explorer import train
    >>> trained_bytes(("aaabdaaabac",), train("aaabdaaabac", 257, pattern="none"))
    815
    """
    steps = result.history.steps
    tokens = sum(len(step.token) for step in steps)
    return sum(map(len, texts)) + 2 * tokens + BYTES_PER_MERGE * len(steps)


def train_cached(
    texts: tuple[str, ...],
    vocab_size: int,
    pattern: str,
    special_tokens: tuple[str, ...],
    min_count: int,
    kind: RunKind,
    tie_rule: str = DEFAULT_TIE_RULE.value,
    _progress: ProgressCallback | None = None,
) -> TrainingResult:
    """Train once per distinct input; every session and page shares the result (read only).

    `tie_rule` is a TieRule's name ("first-occurrence" or "lowest-ids"): a plain key.
    Trainings above ui.server.heavy_work's sizes run in a child Python (ended when the
    session cancels or goes), so the pages of everyone else do not wait on them.
    """
    here = trains_here(texts, vocab_size, "none" if kind is RunKind.WORD_COUNTS else pattern)
    # typed partials: each trainer with its own first argument and keywords, checked here
    if kind is RunKind.WORD_COUNTS:
        job = partial(
            train_word_counts,
            "\n".join(texts),
            vocab_size,
            special_tokens=special_tokens,
            min_count=min_count,
            tie_rule=tie_rule,
        )
    else:
        job = partial(
            train,
            list(texts),
            vocab_size,
            pattern=pattern,
            special_tokens=special_tokens,
            min_count=min_count,
            tie_rule=tie_rule,
        )

    def make() -> TrainingResult:
        return job(progress=_progress) if here else in_a_child(job, progress=_progress)

    def weight(result: TrainingResult) -> int:
        return trained_bytes(texts, result)

    key = (texts, vocab_size, pattern, special_tokens, min_count, kind, tie_rule)
    return _trained.get_or_make(key, make, weight)


@st.cache_resource(max_entries=8, ttl="6h", show_spinner=False)
def model_cached(model_text: str) -> Tokenizer:
    return parse_sized(parse_model, model_text, source="the uploaded .model")


@st.cache_resource(max_entries=4, ttl="6h", show_spinner=False)
def imported_cached(text_key: str, _text: str, _parsed: Tokenizer | None = None) -> Tokenizer:
    """An imported tokenizer from its tokenizer.json text, keyed on the text's hash.

    The loader passes the tokenizer it has just parsed as `_parsed`, so it is not read twice.
    """
    if _parsed is not None:
        return _parsed
    return parse_sized(parse_tokenizer_json, _text, source="the imported tokenizer.json")


@st.cache_resource(max_entries=4, ttl="6h", show_spinner=False)
def history_run_cached(
    text_key: str,
    _model_text: str,
    _history_text: str,
    _parsed: tuple[Tokenizer, MergeHistory] | None = None,
) -> tuple[Tokenizer, MergeHistory]:
    """A .model and its history from their texts, keyed on the texts' hash (a history of
    50,000 merges is megabytes, too much to hash on every call).

    The loader passes what it has just parsed and checked as `_parsed`, so it is read once.
    """
    if _parsed is not None:
        return _parsed
    return parse_sized(parse_model_with_history, _model_text, _history_text)


@st.cache_resource(max_entries=4, ttl="6h", show_spinner=False)
def loaded_model_cached(
    text_key: str, _texts: tuple[str, ...], _parsed: LoadedModel | None = None
) -> LoadedModel:
    """A real model's tokenizer from its run's texts (ui/session/model_texts.py), keyed on
    their hash; a large file is read by a child Python. The loader passes what it has
    just read as `_parsed`, so it is read once."""
    if _parsed is not None:
        return _parsed
    if reads_here(*_texts):
        return read_model_texts(_texts)
    return in_a_child(read_model_texts, _texts)


# subtle: one entry per live run, like train_cached: with fewer, a room of thirty evicts
# its own runs and every rerun reads and parses a run file again
@st.cache_resource(max_entries=64, ttl="6h", show_spinner=False)
def stored_results_cached(
    store_key: str, _trained: tuple[Tokenizer, MergeHistory] | None = None
) -> tuple[Tokenizer, MergeHistory]:
    """A trained run's results, read once from the server's disk (no retraining).

    Raises LookupError when the disk has none (so nothing is cached), ServerBusy when a
    large run file waits for a child and the queue is full; the session that has just
    trained and saved a run passes its results as `_trained`.
    """
    if _trained is not None:
        return _trained
    try:
        stored = run_store.load(run_store.config_from_env(), store_key)
    except run_store.StoreError as exc:
        raise LookupError(str(exc)) from None
    if stored is None or stored.model is None or stored.history is None:
        raise LookupError(store_key)
    try:
        return parse_sized(parse_model_with_history, stored.model, stored.history)
    except ServerBusy:  # the file is fine: retraining would only queue again
        raise
    except ValueError as exc:
        raise LookupError(str(exc)) from None


# subtle: Animate needs two sizes a step for each run on screen, so a room of thirty on
# runs of their own needs ~60 (with 16 each step rebuilt both); a view of a bundled
# vocabulary holds up to 200,000 merges (~50 MB), and a view of a run at the token-bytes
# bound up to 32 MiB of tokens of its own (issue 35), so they are bounded by bytes too
SIZES_KEPT = 256
BYTES_PER_VIEW_MERGE = 250  # a smaller tokenizer's merge, its ranks and vocabulary entry
SIZES_BYTES = 160 << 20  # ~600,000 merges of short tokens, or four views at the bound
_sizes = SharedLru(SIZES_KEPT, SIZES_BYTES)


def view_bytes(smaller: Tokenizer) -> int:
    """About the memory a smaller view holds: its tokens' bytes and each merge's records.

    >>> view_bytes(Tokenizer([(97, 97)]))  # 256 bytes and "aa", then one merge
    508
    """
    return vocab_bytes(smaller.merges) + BYTES_PER_VIEW_MERGE * len(smaller.merges)


def tokenizer_at(tokenizer: Tokenizer, run_key: str, vocab_size: int) -> Tokenizer:
    """The run's tokenizer at a smaller vocab size (the first merges), built once."""
    return _sizes.get_or_make(
        (run_key, vocab_size), lambda: tokenizer.at_vocab_size(vocab_size), view_bytes
    )


PRELOAD_VARIABLE = "BPE_EXPLORER_PRELOAD"  # "0": do not load the bundled vocabularies early
_preloading = threading.Lock()
_preloader: list[threading.Thread] | None = None


def preload_bundled() -> None:
    """Load the bundled vocabularies in the background, once, unless BPE_EXPLORER_PRELOAD=0.

    Compare's passage, languages and overlap tabs need all three, and the first to open
    one otherwise waits some 4 s (o200k_base's 200,000 merges are rebuilt from its ranks)
    while every session opening it then waits on the same lock. So the cost is paid from
    the server's first run on, however the server was started: `streamlit run
    streamlit_app.py` as a hosting platform or a Docker image runs it, or scripts/run.sh.
    (Tests turn it off: tests/conftest.py.) Each vocabulary is loaded by a child Python of
    its own, all at once: in a thread of the server, the ~4 s of CPU held the interpreter
    every session's script runs in.
    """
    global _preloader
    if not preload_wanted():
        return
    with _preloading:
        if _preloader is None:
            _preloader = [
                threading.Thread(
                    target=_load_in_a_child, args=(name,), name=f"preload-{name}", daemon=True
                )
                for name in BUNDLED_RUNS
            ]
            for thread in _preloader:
                thread.start()


def preload_wanted(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the server preloads: yes, unless the variable says "0" (or "false", "no").

    >>> preload_wanted({}), preload_wanted({"BPE_EXPLORER_PRELOAD": "0"})
    (True, False)
    """
    return environ.get(PRELOAD_VARIABLE, "1").strip().lower() not in ("0", "false", "no", "off")


def _load_in_a_child(name: str) -> None:
    try:
        load_bundled_in_a_child(name)  # the other core's CPU, not the server's GIL
    except ValueError:  # reported where a page needs it (BundledError says what to do)
        return
