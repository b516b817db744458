"""Trained tokenizers of a session: their settings (in session state) and results (cached).

Session state holds only inputs — the texts and the settings of each run, as a RunSpec
— and results come back through bounded caches keyed on those plain values, so moving a
slider never retrains and nothing large is copied per session.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

import streamlit as st

from explorer import MergeHistory, Tokenizer, TrainingResult, parse_model, train, train_word_counts
from explorer.learner import ProgressCallback
from explorer.pretokenize import PatternError, compile_pattern, preset_name, resolve_pattern
from ui.samples import DEFAULT_SAMPLE, SAMPLES, sample_text

MAX_RUNS = 4  # trained tokenizers a session keeps at once; the oldest goes first
MAX_APP_VOCAB_SIZE = 50_000
RUNS_KEY = "runs"  # dict[name, RunSpec], oldest first
TEXTS_KEY = "texts"  # dict[text key, tuple of documents]
CURRENT_KEY = "sidebar_run"  # the sidebar's tokenizer choice
PENDING_KEY = "pending_run"  # a run to make current at the start of the next rerun


@dataclass(frozen=True)
class RunSpec:
    """What a run was trained on and how: plain values, cheap to keep and to hash.

    kind is "text" (documents), "word_counts" (a `word count` table) or "model" (a
    loaded .model file: no corpus, no history).
    """

    name: str
    source: str
    text_key: str
    vocab_size: int
    pattern: str
    special_tokens: tuple[str, ...] = ()
    min_count: int = 1
    kind: str = "text"


@dataclass(frozen=True)
class Run:
    """A run's results: the tokenizer, and the history when it was trained here."""

    spec: RunSpec
    tokenizer: Tokenizer
    history: MergeHistory | None

    @property
    def key(self) -> str:
        """A plain string that identifies the run's results, for other caches."""
        s = self.spec
        return f"{s.kind}|{s.text_key}|{s.vocab_size}|{s.pattern}|{s.special_tokens}|{s.min_count}"


def text_key(texts: tuple[str, ...]) -> str:
    """A short content hash of documents: the same texts share one cache entry."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest())
    return digest.hexdigest()[:16]


def run_name(source: str, pattern: str, vocab_size: int) -> str:
    """A short name people can tell apart: `run_name("Shakespeare", "gpt4", 5000)`."""
    size = f"{vocab_size / 1000:g}k" if vocab_size >= 1000 else str(vocab_size)
    shown = preset_name(pattern) or pattern
    shown = shown if len(shown) <= 12 else "custom regex"
    return f"{source} · {shown} · {size}"


@st.cache_resource(max_entries=16, ttl="6h", show_spinner=False)
def train_cached(
    texts: tuple[str, ...],
    vocab_size: int,
    pattern: str,
    special_tokens: tuple[str, ...],
    min_count: int,
    kind: str,
    _progress: ProgressCallback | None = None,
) -> TrainingResult:
    """Train once per distinct input; every session and page shares the result (read only)."""
    if kind == "word_counts":
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


@st.cache_resource(max_entries=64, ttl="6h", show_spinner=False)
def tokenizer_at(_tokenizer: Tokenizer, run_key: str, vocab_size: int) -> Tokenizer:
    """The run's tokenizer at a smaller vocab size (the first merges), built once."""
    return _tokenizer.at_vocab_size(vocab_size)


def init_session() -> None:
    """Set the shared keys once; on first open, train the sample named in the URL."""
    st.session_state.setdefault(RUNS_KEY, {})
    st.session_state.setdefault(TEXTS_KEY, {})
    if not st.session_state[RUNS_KEY]:
        add_run(*default_spec())
    # subtle: a widget's key can only be set before the widget is drawn in a run, so a
    # page that adds a run asks for it here, at the top of the next run
    if PENDING_KEY in st.session_state:
        st.session_state[CURRENT_KEY] = st.session_state.pop(PENDING_KEY)


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
    kind = "word_counts" if sample.word_counts else "text"
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

    A page that adds a run calls `st.rerun()` afterwards.
    """
    runs: dict[str, RunSpec] = st.session_state[RUNS_KEY]
    name, n = spec.name, 2
    while name in runs and runs[name] != spec:
        name, n = f"{spec.name} ({n})", n + 1
    spec = replace(spec, name=name)
    runs.pop(name, None)
    runs[name] = spec
    st.session_state[TEXTS_KEY][spec.text_key] = texts
    while len(runs) > MAX_RUNS:
        runs.pop(next(iter(runs)))
    _forget_unused_texts()
    st.session_state[PENDING_KEY] = name
    return spec


def _forget_unused_texts() -> None:
    used = {spec.text_key for spec in st.session_state[RUNS_KEY].values()}
    texts = st.session_state[TEXTS_KEY]
    for key in [k for k in texts if k not in used]:
        del texts[key]


def run_specs() -> list[RunSpec]:
    return list(st.session_state[RUNS_KEY].values())


def current_spec() -> RunSpec:
    runs: dict[str, RunSpec] = st.session_state[RUNS_KEY]
    name = st.session_state.get(CURRENT_KEY)
    return runs[name] if name in runs else next(reversed(runs.values()))


def texts_of(spec: RunSpec) -> tuple[str, ...]:
    return st.session_state[TEXTS_KEY].get(spec.text_key, ())


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


def load_run(spec: RunSpec, progress: ProgressCallback | None = None) -> Run:
    """The results of a run, training (once, cached) when needed."""
    texts = texts_of(spec)
    if spec.kind == "model":
        return Run(spec, model_cached(texts[0]), None)
    result = train_spec(spec, texts, progress)
    return Run(spec, result.tokenizer, result.history)


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


VIEW_KEY = "sidebar_view_size"  # the "view at vocab size" control, shared by every page
VIEW_OWNER_KEY = "sidebar_view_run"  # the run the view size belongs to


def view_vocab_size(run: Run) -> int:
    """The vocab size every page shows: the sidebar control, within what the run has."""
    if st.session_state.get(VIEW_OWNER_KEY) != run.spec.name:
        return trained_vocab_size(run)
    value = st.session_state.get(VIEW_KEY, trained_vocab_size(run))
    return max(256, min(int(value), trained_vocab_size(run)))


def view_tokenizer(run: Run) -> Tokenizer:
    """The run's tokenizer at the viewed vocab size (its first merges; never retrained)."""
    return tokenizer_at(run.tokenizer, run.key, view_vocab_size(run))
