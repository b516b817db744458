"""Tokenizers of a session: their settings (in session state) and results (cached).

A run is trained here, loaded from a file (a .model may come with the merge history the
command line wrote beside it), or one of the bundled vocabularies (GPT-2, GPT-4, GPT-4o).
Session state holds only inputs — the texts and the settings of each run, as a RunSpec —
and results come back through bounded caches keyed on those plain values, so moving a
slider never retrains and nothing large is copied per session.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import streamlit as st

from explorer import (
    MergeHistory,
    Tokenizer,
    TrainingResult,
    load_bundled,
    parse_model,
    train,
    train_word_counts,
)
from explorer.bundled import bundled_name
from explorer.imports_hf import parse_tokenizer_json
from explorer.learner import ProgressCallback
from explorer.loading import parse_model_with_history
from explorer.pretokenize import PatternError, compile_pattern, preset_name, resolve_pattern
from ui import state as keys
from ui.run_spec import RunKind, RunSpec, run_name, text_key
from ui.samples import DEFAULT_SAMPLE, SAMPLES, sample_text

MAX_RUNS = 4  # trained or loaded tokenizers a session keeps at once; the oldest goes first
MAX_APP_VOCAB_SIZE = 50_000


@dataclass(frozen=True)
class Run:
    """A run's results: the tokenizer, and the history when it was trained (or loaded with one)."""

    spec: RunSpec
    tokenizer: Tokenizer
    history: MergeHistory | None

    @property
    def key(self) -> str:
        """A plain string that identifies the run's results, for other caches."""
        s = self.spec
        return f"{s.kind}|{s.text_key}|{s.vocab_size}|{s.pattern}|{s.special_tokens}|{s.min_count}"


class RunError(ValueError):
    """A run whose tokenizer cannot be rebuilt in this session (its file is gone)."""


BUNDLED_RUNS = {  # bundled name -> (short title, where it comes from)
    "gpt2": ("GPT-2", "GPT-2's vocabulary (OpenAI, 2019)"),
    "cl100k_base": ("GPT-4", "GPT-4's cl100k_base (OpenAI, 2023)"),
    "o200k_base": ("GPT-4o", "GPT-4o's o200k_base (OpenAI, 2024)"),
}


# subtle: an LRU shared by every session; a room of thirty, each on a run of their own,
# needs them all kept, or every rerun of one evicts another's and it is trained again
@st.cache_resource(max_entries=64, ttl="6h", show_spinner=False)
def train_cached(
    texts: tuple[str, ...],
    vocab_size: int,
    pattern: str,
    special_tokens: tuple[str, ...],
    min_count: int,
    kind: RunKind,
    _progress: ProgressCallback | None = None,
) -> TrainingResult:
    """Train once per distinct input; every session and page shares the result (read only)."""
    if kind is RunKind.WORD_COUNTS:
        return train_word_counts(
            "\n".join(texts),
            vocab_size,
            special_tokens=special_tokens,
            min_count=min_count,
            progress=_progress,
        )
    return train(
        list(texts),
        vocab_size,
        pattern=pattern,
        special_tokens=special_tokens,
        min_count=min_count,
        progress=_progress,
    )


@st.cache_resource(max_entries=8, ttl="6h", show_spinner=False)
def model_cached(model_text: str) -> Tokenizer:
    return parse_model(model_text, source="the uploaded .model")


@st.cache_resource(max_entries=4, ttl="6h", show_spinner=False)
def imported_cached(text_key: str, _text: str, _parsed: Tokenizer | None = None) -> Tokenizer:
    """An imported tokenizer from its tokenizer.json text, keyed on the text's hash.

    The loader passes the tokenizer it has just parsed as `_parsed`, so it is not read twice.
    """
    if _parsed is not None:
        return _parsed
    return parse_tokenizer_json(_text, source="the imported tokenizer.json")


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
    return parse_model_with_history(_model_text, _history_text)


# subtle: a view of a bundled vocabulary holds up to 200,000 merges (~50 MB), so few are kept
@st.cache_resource(max_entries=16, ttl="6h", show_spinner=False)
def tokenizer_at(_tokenizer: Tokenizer, run_key: str, vocab_size: int) -> Tokenizer:
    """The run's tokenizer at a smaller vocab size (the first merges), built once."""
    return _tokenizer.at_vocab_size(vocab_size)


def init_session() -> None:
    """Set the shared keys once; on first open, train the sample named in the URL."""
    st.session_state.setdefault(keys.RUNS, {})
    st.session_state.setdefault(keys.TEXTS, {})
    if not st.session_state[keys.RUNS]:
        add_run(*default_spec())
    # subtle: a widget's key can only be set before the widget is drawn in a run, so a
    # page that adds a run asks for it here, at the top of the next run
    if keys.PENDING_RUN in st.session_state:
        st.session_state[keys.SIDEBAR_RUN] = st.session_state.pop(keys.PENDING_RUN)


def default_spec() -> tuple[RunSpec, tuple[str, ...]]:
    """The sample the app opens on (?sample=…&vocab=…&pattern=… may choose another)."""
    params = st.query_params
    sample = SAMPLES.get(params.get("sample", DEFAULT_SAMPLE), SAMPLES[DEFAULT_SAMPLE])
    vocab_size = _int_param("vocab", sample.vocab_size, 256, MAX_APP_VOCAB_SIZE)
    pattern = params.get("pattern", sample.pattern)
    try:
        compile_pattern(resolve_pattern(pattern))
    except PatternError:
        pattern = sample.pattern  # a link with a broken pattern opens on the sample's own
    texts = (sample_text(sample.key),)
    kind = RunKind.WORD_COUNTS if sample.word_counts else RunKind.TEXT
    source = sample.title.split(" (")[0]
    spec = RunSpec(
        name=run_name(source, pattern, vocab_size),
        source=sample.title,
        text_key=text_key(texts),
        vocab_size=vocab_size,
        pattern=pattern,
        kind=kind,
    )
    return spec, texts


def _int_param(name: str, default: int, low: int, high: int) -> int:
    try:
        return min(high, max(low, int(st.query_params.get(name, default))))
    except ValueError:
        return default


def add_run(spec: RunSpec, texts: tuple[str, ...]) -> RunSpec:
    """Keep a run (renaming it if the name is taken); it becomes current at the next rerun.

    A page that adds a run calls `st.rerun()` afterwards. Bundled vocabularies keep
    nothing in the session, so they do not count towards MAX_RUNS. A .model loaded with
    its history takes the place of the same .model loaded alone.
    """
    runs: dict[str, RunSpec] = st.session_state[keys.RUNS]
    if spec.kind is RunKind.MODEL_HISTORY:
        _drop_model_only_runs(text_key(texts[:1]))
    name, n = spec.name, 2
    while name in runs and runs[name] != spec:
        name, n = f"{spec.name} ({n})", n + 1
    spec = replace(spec, name=name)
    runs.pop(name, None)
    runs[name] = spec
    if spec.kind.keeps_texts:
        st.session_state[keys.TEXTS][spec.text_key] = texts
    counted = [key for key, run in runs.items() if run.kind.keeps_texts]  # oldest first
    for oldest in counted[: max(0, len(counted) - MAX_RUNS)]:
        del runs[oldest]
    _forget_unused_texts()
    st.session_state[keys.PENDING_RUN] = name
    return spec


def _drop_model_only_runs(model_key: str) -> None:
    """Forget runs of a .model loaded alone once it is loaded again with its history."""
    runs: dict[str, RunSpec] = st.session_state[keys.RUNS]
    for name in [n for n, s in runs.items() if s.kind is RunKind.MODEL and s.text_key == model_key]:
        del runs[name]


def _forget_unused_texts() -> None:
    used = {spec.text_key for spec in st.session_state[keys.RUNS].values()}
    texts = st.session_state[keys.TEXTS]
    for key in [k for k in texts if k not in used]:
        del texts[key]


def run_specs() -> list[RunSpec]:
    return list(st.session_state[keys.RUNS].values())


def current_spec() -> RunSpec:
    runs: dict[str, RunSpec] = st.session_state[keys.RUNS]
    name = st.session_state.get(keys.SIDEBAR_RUN)
    return runs[name] if name in runs else next(reversed(runs.values()))


def texts_of(spec: RunSpec) -> tuple[str, ...]:
    """A run's training documents; () for a tokenizer that was not trained here."""
    return _documents(spec) if spec.kind.has_corpus else ()


def _documents(spec: RunSpec) -> tuple[str, ...]:
    """What the session keeps for a run: its corpus, or the text of its loaded file."""
    return st.session_state[keys.TEXTS].get(spec.text_key, ())


def train_spec(
    spec: RunSpec, texts: tuple[str, ...], progress: ProgressCallback | None = None
) -> TrainingResult:
    """Train what a spec describes on `texts` (once: the result is cached)."""
    return train_cached(
        texts,
        spec.vocab_size,
        spec.pattern,
        spec.special_tokens,
        spec.min_count,
        spec.kind,
        _progress=progress,
    )


def bundled_spec(name: str) -> RunSpec:
    """The run of a bundled vocabulary ("gpt2", "cl100k_base", "o200k_base").

    It loads the vocabulary (about 2 s for o200k_base the first time, then cached).
    """
    canonical = bundled_name(name) or name
    tokenizer = load_bundled(canonical)  # BundledError names the vocabularies there are
    title, source = BUNDLED_RUNS[canonical]
    return RunSpec(
        name=f"{title} · {canonical}",
        source=source,
        text_key=canonical,
        vocab_size=tokenizer.vocab_size,
        pattern=preset_name(tokenizer.pattern) or tokenizer.pattern,
        special_tokens=tuple(tokenizer.special_tokens),
        kind=RunKind.BUNDLED,
    )


def origin(spec: RunSpec) -> str:
    """How a run not trained in the app came here, for messages: "loaded from a .model file"."""
    if spec.kind is RunKind.MODEL_HISTORY:  # neither file says where it was trained
        return "loaded from a .model file with its merge history"
    if spec.kind is RunKind.BUNDLED:
        return f"published by OpenAI ({spec.text_key}), not trained here"
    if spec.kind is RunKind.IMPORTED:
        return f"imported from {spec.source}"
    return "loaded from a .model file"


def load_run(spec: RunSpec, progress: ProgressCallback | None = None) -> Run:
    """The results of a run, training (once, cached) when needed."""
    if spec.kind is RunKind.BUNDLED:
        return Run(spec, load_bundled(spec.text_key), None)
    texts = _documents(spec)
    if spec.kind.is_loaded and not texts:
        raise RunError(f"the file of {spec.name!r} is no longer in this session; load it again")
    if spec.kind is RunKind.MODEL:
        return Run(spec, model_cached(texts[0]), None)
    if spec.kind is RunKind.MODEL_HISTORY:
        tokenizer, history = history_run_cached(spec.text_key, texts[0], texts[1])
        return Run(spec, tokenizer, history)
    if spec.kind is RunKind.IMPORTED:
        return Run(spec, imported_cached(spec.text_key, texts[0]), None)
    result = train_spec(spec, texts, progress)
    return Run(spec, result.tokenizer, result.history)


def training_text_note(spec: RunSpec) -> str:
    """A sentence for a run that has a history but whose training text is not in the app
    ("" for any other run); pages add what they show instead."""
    if spec.kind is not RunKind.MODEL_HISTORY:
        return ""
    return (
        f"The training text is not in the app: this tokenizer was {origin(spec)}, so its "
        "counts, ties and lengths are that corpus's."
    )


def current_run() -> Run:
    return load_run(current_spec())


def current_run_or_error() -> Run | None:
    """The current run, or None after telling the user why it could not be rebuilt."""
    try:
        return current_run()
    except ValueError as exc:
        advice = "Choose another in the sidebar, or train one on the Train page."
        st.error(f"This tokenizer could not be rebuilt: {str(exc).rstrip('.')}. {advice}")
        return None


def trained_vocab_size(run: Run) -> int:
    """The largest vocab size the run can show (training may stop early)."""
    return run.tokenizer.vocab_size


def view_vocab_size(run: Run) -> int:
    """The vocab size every page shows: the sidebar control, within what the run has."""
    if st.session_state.get(keys.SIDEBAR_VIEW_RUN) != run.spec.name:
        return trained_vocab_size(run)
    value = st.session_state.get(keys.SIDEBAR_VIEW_SIZE, trained_vocab_size(run))
    return max(256, min(int(value), trained_vocab_size(run)))


def view_tokenizer(run: Run) -> Tokenizer:
    """The run's tokenizer at the viewed vocab size (its first merges; never retrained)."""
    return tokenizer_at(run.tokenizer, run.key, view_vocab_size(run))
