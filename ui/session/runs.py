"""Tokenizers of a session: their settings (in session state) and results (cached).

A run is trained here, loaded from a file (a .model may come with the merge history the
command line wrote beside it), or one of the bundled vocabularies (GPT-2, GPT-4, GPT-4o).
Session state holds only inputs — the texts and the settings of each run, as a RunSpec —
and results come back through bounded caches keyed on those plain values, so moving a
slider never retrains and nothing large is copied per session.

Every run also goes to the server's disk (ui/session/run_store.py) under its key, which the URL
carries as `run=`: a new session opened with that key (a reload, a shared link, after a
restart) takes the run from there, results included, instead of the default sample. A
sample's run opened by a link is not written: the link trains it again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import streamlit as st

from explorer import (
    MergeHistory,
    Tokenizer,
    TrainingResult,
    load_bundled,
)
from explorer.encoding.pretokenize import preset_name
from explorer.files.bundled import bundled_name
from explorer.files.formats import model_text
from explorer.files.history_file import history_json, least_history_bytes
from explorer.models.model import LoadedModel
from explorer.training.learner import ProgressCallback
from ui.session import run_store
from ui.session import state as keys
from ui.session.holdout_split import training_part
from ui.session.hub_models import held_model, hub_files_of
from ui.session.markdown import markdown_text
from ui.session.run_cache import (
    history_run_cached,
    imported_cached,
    loaded_model_cached,
    model_cached,
    stored_results_cached,
    tokenizer_at,
    train_cached,
)
from ui.session.run_spec import BUNDLED_RUNS, RunKind, RunSpec, text_key, with_reached_size

MAX_RUNS = 8  # tokenizers a session lists at once; the oldest goes (a link still opens it)
MAX_APP_VOCAB_SIZE = 50_000


@dataclass(frozen=True)
class Run:
    """A run's results: the tokenizer, and the history when it was trained (or loaded with one)."""

    spec: RunSpec
    tokenizer: Tokenizer
    history: MergeHistory | None
    veiled_at: int | None = None  # a class's open question: only this many merges shown

    @property
    def key(self) -> str:
        """A plain string that identifies the run's results, for other caches (a veiled
        run's is its own: nothing cached of the whole run is handed out for it)."""
        if self.veiled_at is None:
            return self.spec.settings
        return f"{self.spec.settings}|veiled at {self.veiled_at}"


@dataclass(frozen=True)
class ModelRun:
    """A real model's run: its tokenizer keeps its own ids, merge ranks and normalizer
    (explorer.models), so the pages that show our runs' merges do not show it."""

    spec: RunSpec
    model: LoadedModel

    @property
    def key(self) -> str:
        return self.spec.settings


class RunError(ValueError):
    """A run whose tokenizer cannot be rebuilt in this session (its file is gone)."""


class ModelRunError(RunError):
    """A real model's run asked for as our own Tokenizer: a page that cannot show it yet."""


MODEL_NOTE = (
    "{name} is a real model's tokenizer: it keeps its own ids and merge ranks, and this "
    "page shows our own runs' merges. Open Tokens to see how it splits a text."
)


def add_run(spec: RunSpec, texts: tuple[str, ...], *, keep_on_disk: bool = True) -> RunSpec:
    """Keep a run in the session and on the server's disk; it becomes current at the next rerun.

    A sample's run opened by a link is not written to disk (`keep_on_disk=False`): its
    link trains it again, within the link budget, so links, however many, never fill the
    runs folder and push out the runs people trained.

    A page that adds a run calls `st.rerun()` afterwards. A trained run is named with the
    vocab size it reached, and a name another run has is told apart by what differs.
    Bundled vocabularies keep nothing in the session, so they do not count towards
    MAX_RUNS; past it, the oldest run leaves the list, and a toast says so. A .model
    loaded with its history takes the place of the same .model loaded alone.
    """
    runs: dict[str, RunSpec] = st.session_state[keys.RUNS]
    if spec.kind is RunKind.MODEL_HISTORY:
        _drop_model_only_runs(text_key(texts[:1]))
    if spec.kind.keeps_texts:
        st.session_state[keys.TEXTS][spec.text_key] = texts
    results = _results_to_keep(spec)
    if results is not None:
        spec = replace(spec, name=with_reached_size(spec.name, results[0].vocab_size))
    _save(spec, texts, results, keep_on_disk)  # under its own name, this session's
    spec = replace(spec, name=unique_name(spec, runs))
    runs.pop(spec.name, None)
    runs[spec.name] = spec
    counted = [key for key, run in runs.items() if run.kind.keeps_texts]  # oldest first
    for oldest in counted[: max(0, len(counted) - MAX_RUNS)]:
        del runs[oldest]
        st.toast(
            f"{markdown_text(oldest)} left this session's list of tokenizers (it keeps "
            f"{MAX_RUNS}); a link to it still opens it while the server keeps it."
        )
    _forget_unused_texts()
    st.session_state[keys.PENDING_RUN] = spec.name
    return spec


def unique_name(spec: RunSpec, runs: dict[str, RunSpec]) -> str:
    """The spec's name, or, when another run has it, the name with what sets it apart."""
    other = runs.get(spec.name)
    if other is None or other.settings == spec.settings:
        return spec.name
    details = []
    if spec.min_count != other.min_count:
        details.append(f"min count {spec.min_count}")
    if spec.special_tokens != other.special_tokens:
        details.append(f"{len(spec.special_tokens)} special tokens")
    if spec.source != other.source:
        details.append(spec.source)
    if spec.tie_rule != other.tie_rule:
        details.append(f"ties to {spec.tie_rule.value}")
    for extra in (" · ".join(details), f"run {spec.store_key[:6]}"):
        name = f"{spec.name} · {extra}" if extra else ""
        if name and (name not in runs or runs[name].settings == spec.settings):
            return name
    return f"{spec.name} · run {spec.store_key}"


def _results_to_keep(spec: RunSpec) -> tuple[Tokenizer, MergeHistory] | None:
    """A run trained here: its results (trained now if they are not cached yet)."""
    if not spec.kind.has_corpus:
        return None
    run = load_run(spec)
    assert run.history is not None  # subtle: a run with a corpus always has a history
    return run.tokenizer, run.history


def _save(
    spec: RunSpec,
    texts: tuple[str, ...],
    results: tuple[Tokenizer, MergeHistory] | None,
    keep_on_disk: bool = True,
) -> None:
    """Put a run on the server's disk (once), so links and reloads find it; a disk that
    refuses costs only that, and a toast says so."""
    config = run_store.config_from_env()
    if spec.kind is RunKind.BUNDLED or not keep_on_disk or run_store.has(config, spec.store_key):
        if results is not None:
            stored_results_cached(spec.store_key, results)
        return
    model = history = None
    if results is not None:
        least = sum(map(len, texts)) + least_history_bytes(results[1])
        if least > config.largest_run:  # known before the history's JSON is built
            _too_large_to_keep(run_store.RunTooLarge(least, config.largest_run, at_least=True))
            stored_results_cached(spec.store_key, results)
            return
        try:
            model, history = model_text(results[0]), history_json(results[1])
        except ValueError:  # a pattern the .model format cannot hold: retrained when opened
            model = history = None
    stored = run_store.StoredRun(spec.as_dict(), texts, model, history)
    try:
        run_store.save(config, spec.store_key, stored)
    except run_store.RunTooLarge as exc:  # kept in this process only; nobody evicted
        _too_large_to_keep(exc)
    except OSError as exc:
        st.toast(
            f"{markdown_text(spec.name)} could not be saved on the server "
            f"({markdown_text(str(exc.strerror or exc))}): it works in this tab, but a link to "
            "it will not."
        )
        return
    if results is not None:
        stored_results_cached(spec.store_key, results)


def _too_large_to_keep(exc: run_store.RunTooLarge) -> None:
    st.toast(
        f"This tokenizer is too large to keep on the server ({markdown_text(str(exc))}): it "
        "works in this tab, but a link to it will not open it in another."
    )


def keep_for_class(spec: RunSpec) -> bool:
    """Put a run on the server's disk for a class (a sample's run a link opened is not
    kept otherwise), so students' sessions and a restarted server open it without training;
    whether it is kept there (False: the store is off, or refused it, and a toast said so)."""
    _save(spec, _documents(spec), _results_to_keep(spec))
    config = run_store.config_from_env()
    return spec.kind is RunKind.BUNDLED or run_store.has(config, spec.store_key)


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


def tokenizer_specs() -> list[RunSpec]:
    """The session's runs that are our own Tokenizers (not real models' files)."""
    return [spec for spec in run_specs() if not spec.kind.is_model]


def current_spec() -> RunSpec:
    runs: dict[str, RunSpec] = st.session_state[keys.RUNS]
    name = st.session_state.get(keys.SIDEBAR_RUN)
    return runs[name] if name in runs else next(reversed(runs.values()))


def texts_of(spec: RunSpec) -> tuple[str, ...]:
    """A run's training documents; () for a tokenizer that was not trained here."""
    return _documents(spec) if spec.kind.has_corpus else ()


def _documents(spec: RunSpec) -> tuple[str, ...]:
    """What the session keeps for a run: its corpus, or the text of its loaded file."""
    texts: dict[str, tuple[str, ...]] = st.session_state[keys.TEXTS]
    return texts.get(spec.text_key, ())


def train_spec(
    spec: RunSpec, texts: tuple[str, ...], progress: ProgressCallback | None = None
) -> TrainingResult:
    """Train what a spec describes on `texts` (once: the result is cached); a held-out
    share of them is left out (ui/session/holdout_split.py)."""
    return train_cached(
        training_part(spec, texts),
        spec.vocab_size,
        spec.pattern,
        spec.special_tokens,
        spec.min_count,
        spec.kind,
        spec.tie_rule.value,
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
    if spec.kind is RunKind.LOADED_MODEL:
        return f"read from a real model's file ({spec.source})"
    if spec.kind is RunKind.HUB_MODEL:
        return f"opened from the Hugging Face Hub ({spec.source})"
    return "loaded from a .model file"


def load_run(spec: RunSpec, progress: ProgressCallback | None = None) -> Run:
    """The results of a run, training (once, cached) when needed, as this session may
    see them (`veiled`)."""
    return veiled(_results(spec, progress), st.session_state.get(keys.RUN_VEILS) or {})


def veiled(run: Run, veils: dict[str, int]) -> Run:
    """The run cut to its first merges where `veils` (the session's RUN_VEILS, set at the
    top of every run by ui/classroom/following.py) names it: while a class's question on
    it is open, no page of this session (Animate, the merge log, downloads, Vocabulary,
    Tokens, Compare) has the merge it asks about, until the student answers or the
    teacher reveals."""
    step = veils.get(run.spec.store_key) if veils else None
    history = run.history
    if step is None or history is None or step >= len(history.steps):
        return run
    size = 256 + max(0, step)
    tokenizer = tokenizer_at(run.tokenizer, run.key, size)
    return Run(run.spec, tokenizer, history.truncated(size), veiled_at=size - 256)


WHOLE_RUN = 0  # kept as the view size before a veil: the whole run, whatever its size


def fit_view_size(state: keys.State, full: int, veiled_run: bool) -> None:
    """Keep the sidebar's view size within what the run shows: a veil lowers it to the
    veil, and its lifting gives the size back (the whole run when it was the whole run,
    or when the session began under the veil).

    >>> state = {"sidebar_view_size": 900}
    >>> fit_view_size(state, 260, True); state["sidebar_view_size"]
    260
    >>> fit_view_size(state, 1000, False); state["sidebar_view_size"]
    900
    >>> state = {"sidebar_view_size": 260}  # a session that opened under the veil
    >>> fit_view_size(state, 260, True); fit_view_size(state, 1000, False)
    >>> state["sidebar_view_size"]
    1000
    """
    size = state.get(keys.SIDEBAR_VIEW_SIZE)
    if veiled_run:
        if isinstance(size, int) and size >= full:
            state.setdefault(keys.VIEW_SIZE_BEFORE_VEIL, size if size > full else WHOLE_RUN)
            state[keys.SIDEBAR_VIEW_SIZE] = full
    elif keys.VIEW_SIZE_BEFORE_VEIL in state:
        before = int(state.pop(keys.VIEW_SIZE_BEFORE_VEIL))
        state[keys.SIDEBAR_VIEW_SIZE] = full if before == WHOLE_RUN else min(full, before)


def _results(spec: RunSpec, progress: ProgressCallback | None = None) -> Run:
    """The whole results of a run."""
    if spec.kind is RunKind.BUNDLED:
        return Run(spec, load_bundled(spec.text_key), None)
    texts = _documents(spec)
    if spec.kind.is_model:
        raise ModelRunError(MODEL_NOTE.format(name=spec.name))
    if spec.kind.is_loaded and not texts:
        raise RunError(f"the file of {spec.name!r} is no longer in this session; load it again")
    if spec.kind is RunKind.MODEL:
        return Run(spec, model_cached(texts[0]), None)
    if spec.kind is RunKind.MODEL_HISTORY:
        tokenizer, history = history_run_cached(spec.text_key, texts[0], texts[1])
        return Run(spec, tokenizer, history)
    if spec.kind is RunKind.IMPORTED:
        return Run(spec, imported_cached(spec.text_key, texts[0]), None)
    try:
        tokenizer, history = stored_results_cached(spec.store_key)
    except LookupError:  # not on disk (or the store is off): train, once
        result = train_spec(spec, texts, progress)
        tokenizer, history = result.tokenizer, result.history
    return Run(spec, tokenizer, history)


def training_text_note(spec: RunSpec) -> str:
    """A sentence for a run that has a history but whose training text is not in the app
    ("" for any other run); pages add what they show instead."""
    if spec.kind is not RunKind.MODEL_HISTORY:
        return ""
    return (
        f"The training text is not in the app: this tokenizer was {markdown_text(origin(spec))}, "
        "so its counts, ties and lengths are that corpus's."
    )


def current_run() -> Run:
    return load_run(current_spec())


def load_model_run(spec: RunSpec) -> ModelRun:
    """A real model's run, its file read once (cached for every session); a Hub model's
    from the server's Hub cache (fetched again if the cache has lost it)."""
    texts = _documents(spec)
    if not texts:
        raise RunError(f"the file of {spec.name!r} is no longer in this session; load it again")
    if spec.kind is RunKind.HUB_MODEL:
        return ModelRun(spec, held_model(hub_files_of(texts)))
    return ModelRun(spec, loaded_model_cached(spec.text_key, texts))


def current_model_run() -> ModelRun | None:
    """The current run when it is a real model's (None for our own runs)."""
    spec = current_spec()
    return load_model_run(spec) if spec.kind.is_model else None


def current_run_or_error(model_note: str = MODEL_NOTE) -> Run | None:
    """The current run, or None after telling the user why it could not be rebuilt.

    A real model's run is not an error: the page says, in `model_note` (with `{name}`),
    what it shows and where to look instead.
    """
    spec = current_spec()
    if spec.kind.is_model:
        st.info(model_note.format(name=markdown_text(spec.name)), icon=":material/info:")
        return None
    try:
        return current_run()
    except ValueError as exc:
        advice = "Choose another in the sidebar, or train one on the Train page."
        st.error(
            f"This tokenizer could not be rebuilt: {markdown_text(str(exc).rstrip('.'))}. {advice}"
        )
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
