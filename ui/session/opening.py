"""A session's first run: the run its URL names (from the server's disk), or a sample.

`?run=KEY` opens a run kept by ui/session/run_store.py, with the pages' own state from the link
(view size, token, text); `?sample=…&vocab=…&pattern=…` (and `&tie_rule=…`) opens or
retrains a bundled sample; a key the server no longer has opens the default sample with
a notice.

What the link's values say is read in ui/session/links/reading.py, without side effects;
here the session gets the run, and the notes (ui/session/links/notices.py) on values left
out or lowered, shown on the page while the linked run is the one on screen.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from dataclasses import replace

import streamlit as st

from explorer.encoding.pretokenize import PatternError, preset_name, resolve_pattern
from explorer.models.hub_files import HubError, shown_name
from ui.server.lru import SharedLru
from ui.session import run_store
from ui.session import state as keys
from ui.session.hub_opening import MAX_LINK_MODELS, hub_names, open_hub_model
from ui.session.links.notices import (
    LinkNotes,
    RunNotFound,
    add_link_note,
    drop_run_not_found,
    keep_link_notes,
    set_link_notes,
    set_pattern_not_used,
    set_run_not_found,
)
from ui.session.links.reading import LinkedSample, link_number, pattern_not_used, read_sample_link
from ui.session.links.urls import PAGES_READING_HUB
from ui.session.markdown import markdown_text
from ui.session.run_cache import stored_results_cached
from ui.session.run_spec import (
    BUNDLED_RUNS,
    RunKind,
    RunSpec,
    first_words,
    run_name,
    size_label,
    text_key,
)
from ui.session.runs import MAX_APP_VOCAB_SIZE, add_run, bundled_spec, train_spec
from ui.session.samples import SAMPLES, Sample, sample_text
from ui.session.state import State
from ui.session.train_inputs import sample_corpus, training_spec, word_count_corpus

PASTED_SOURCE = "Pasted text"  # ui/session/train_inputs.pasted_corpus's source
NEUTRAL_SOURCES = {  # what a link says a stored run came from: never a file's name
    RunKind.TEXT: "Uploaded text",
    RunKind.WORD_COUNTS: "Word counts",
    RunKind.MODEL: "a .model file",
    RunKind.MODEL_HISTORY: "a .model file with its merge history",
    RunKind.IMPORTED: "a tokenizer file",
    RunKind.LOADED_MODEL: "a real model's tokenizer file",
    RunKind.HUB_MODEL: "a model on the Hugging Face Hub",
}
NEUTRAL_SHORT = {  # the start of its name, for a run without a corpus
    RunKind.MODEL: "Loaded .model",
    RunKind.MODEL_HISTORY: "Loaded .model with history",
    RunKind.IMPORTED: "Imported tokenizer",
    RunKind.LOADED_MODEL: "Loaded model",
    RunKind.HUB_MODEL: "Hub model",
}
SAMPLE_PARAMS = ("sample", "vocab", "pattern", "tie_rule", "holdout")  # retrains a sample run
MAX_TOKEN_ID = 10**9  # a token= beyond any vocabulary (the page drops one it lacks)
LINK_FAILED = (
    "This link could not be opened (something unexpected went wrong on the server; the "
    "details are in its log), so the default sample is shown instead."
)

log = logging.getLogger(__name__)


def init_session(page_path: str = "") -> None:
    """Set the shared keys once; on first open, the run the URL names (or the default).

    On Compare (`page_path` "compare") a link's `hub=` names the models compared, not the
    sidebar's run: the page reads it (ui/session/links/compare_link.py), and it is not
    opened here.
    """
    st.session_state.setdefault(keys.RUNS, {})
    st.session_state.setdefault(keys.TEXTS, {})
    hub_is_the_pages = page_path in PAGES_READING_HUB
    if not st.session_state[keys.RUNS]:
        try:
            open_linked_run(open_hub=not hub_is_the_pages)
        except Exception:  # a link no test thought of: the default sample, and a note
            log.exception("the link %s could not be opened", dict(st.query_params))
            _open_sample(st.session_state, {}, notes=(LINK_FAILED,))
    elif not hub_is_the_pages:
        follow_hub_link()
    # subtle: a widget's key can only be set before the widget is drawn in a run, so a
    # page that adds a run asks for it here, at the top of the next run
    if keys.PENDING_RUN in st.session_state:
        st.session_state[keys.SIDEBAR_RUN] = st.session_state.pop(keys.PENDING_RUN)


def open_linked_run(*, open_hub: bool = True) -> None:
    """A new session's first run: the Hub model `?hub=ORG/NAME` names (unless `open_hub`
    is False), or the run `?run=KEY` names, from the server's disk.

    A Hub model that cannot be opened leaves its sentence as a note, and the rest of the
    link opens as if it had no `hub=`. A key the server no longer has (or whose file is
    damaged) opens the default sample with a notice (a RunNotFound) saying so; when the
    link also names a sample's settings, the notice offers to train that again. Without
    `run=`, the sample the URL names (or the default) opens, as before.
    """
    state, params = st.session_state, st.query_params
    set_link_notes(state, LinkNotes())
    hub = params.get("hub") if open_hub else None
    problem = ""
    if hub is not None:
        state[keys.HUB_LINK_SEEN] = hub
        problem = open_hub_link(hub)
        if not problem:
            return
    _open_run_or_sample()
    if problem:
        add_link_note(state, problem)


def follow_hub_link() -> None:
    """A `hub=` the URL gained in a session already open (a page's link to a model): opened
    once, as at a first run; a model that cannot be opened is said in a toast."""
    state = st.session_state
    hub = st.query_params.get("hub")
    if hub is None or hub == state.get(keys.HUB_LINK_SEEN):
        return
    state[keys.HUB_LINK_SEEN] = hub
    problem = open_hub_link(hub)
    if problem:
        st.toast(markdown_text(problem), icon=":material/link_off:")


def open_hub_link(value: str) -> str:
    """Open the Hub models a link's `hub=` names (the first becomes current, with the
    page's own state from the link); what went wrong, in sentences ("" when all opened)."""
    state = st.session_state
    names = hub_names(value)
    problems = [] if names else ["The link's hub= names no model."]
    if len(names) > MAX_LINK_MODELS:
        problems.append(
            f"A link opens at most {MAX_LINK_MODELS} Hub models: the rest were left out."
        )
    opened = []
    for name in names[:MAX_LINK_MODELS]:
        try:
            opened.append(open_hub_model(name))
        except ValueError as exc:  # HubError's one sentence, or the server's queue
            problems.append(hub_problem(name, exc))
    if not opened:
        return " ".join(problems)
    state[keys.PENDING_RUN] = opened[0].name  # the first the link names is on screen
    _seed_link_state(opened[0])
    for problem in problems:
        add_link_note(state, problem)
    return ""


def hub_problem(name: str, exc: ValueError) -> str:
    """A Hub model that did not open, in a sentence naming it."""
    if isinstance(exc, HubError):
        return str(exc)
    return f"The Hub model {shown_name(name)} could not be opened: {str(exc).rstrip('.')}."


def _open_run_or_sample() -> None:
    """The run `?run=KEY` names, or the sample the link names (see open_linked_run)."""
    state, params = st.session_state, st.query_params
    key = params.get("run")
    if key is None:
        _open_sample(state, params)  # its link retrains it
        return
    found, problem = _linked_run(key)
    if found is not None:
        _seed_link_state(add_run(*found))
        return
    settings = {n: params[n] for n in SAMPLE_PARAMS if n in params}
    from_url = trainable_sample_link(settings) if "sample" in settings else None
    if from_url is not None:
        _say_pattern_not_used(state, from_url)
        if from_url.spec.store_key == key or from_url.cut:  # the same run, or over the budget
            set_link_notes(state, LinkNotes(None, from_url.notes, from_url.cut))
            _seed_link_state(add_run(from_url.spec, from_url.texts, keep_on_disk=False))
            return
    fallback = _open_sample(state, {})  # none of the link's notes: they are not about it
    retrain = settings if from_url is not None else None
    set_run_not_found(state, RunNotFound(key, problem, fallback.name, retrain))


def stored_run(key: str) -> tuple[tuple[RunSpec, tuple[str, ...]] | None, str]:
    """A run kept on the server's disk (or a bundled one) by its key, named as a link
    shows it; None and why not, in plain words (a class opens its teacher's run so)."""
    return _linked_run(key)


def _linked_run(key: str) -> tuple[tuple[RunSpec, tuple[str, ...]] | None, str]:
    """The spec and documents kept under key (or None, and why not, in plain words)."""
    if key in BUNDLED_RUNS:
        return (bundled_spec(key), ()), ""
    try:
        stored = run_store.load(run_store.config_from_env(), key)
    except run_store.TooLargeToRead as exc:
        return None, f"its saved copy on this server was too large to read: {exc}"
    except run_store.StoreError as exc:
        return None, f"its saved copy on this server is damaged: {exc}"
    except OSError as exc:
        return None, f"the server could not read its runs folder ({exc.strerror})"
    if stored is None:
        return None, ""
    try:
        spec = RunSpec.from_dict(stored.spec)
    except (KeyError, TypeError, ValueError) as exc:
        return None, f"its saved copy on this server cannot be read ({exc})"
    if spec.kind.keeps_texts and text_key(stored.documents) != spec.text_key:
        return None, "its saved copy on this server does not match its own texts"
    return (shown_to_link_opener(spec, stored.documents), stored.documents), ""


def shown_to_link_opener(spec: RunSpec, documents: tuple[str, ...]) -> RunSpec:
    """A stored run as a link shows it: named by its sample, or by what it is, never by
    the name someone gave it.

    subtle: the key is a hash of the settings and the texts, not of the name, so the first
    visitor to save a run names its file; a student who uploads the Shakespeare sample as
    "[Log in again](…).txt" at the teacher's settings would otherwise name the teacher's
    link. The key stays as it is (every sample link and stored run keeps working); the
    name and source shown are rebuilt here, and the uploader's own session keeps theirs.
    """
    if spec.kind is RunKind.HUB_MODEL:  # named by its repo, as the Hub spells it
        return spec
    sample = _sample_of_texts(spec)
    if sample is not None:
        corpus = sample_corpus(sample, sample_text(sample.key))
        named = training_spec(
            corpus,
            spec.vocab_size,
            spec.pattern,
            spec.special_tokens,
            spec.min_count,
            spec.tie_rule,
            spec.holdout_percent,
        )
        return replace(spec, name=named.name, source=named.source)
    source = NEUTRAL_SOURCES.get(spec.kind, spec.source)
    if spec.kind is RunKind.LOADED_MODEL:  # its pattern is the model's, not one of ours
        return replace(spec, name=f"Real model · {size_label(spec.vocab_size)} ids", source=source)
    if spec.kind is RunKind.TEXT and spec.source == PASTED_SOURCE:
        source = PASTED_SOURCE
    if spec.kind.has_corpus and documents:
        short = first_words(documents[0])
        if spec.kind is RunKind.WORD_COUNTS:
            try:
                short = word_count_corpus(documents[0]).short
            except ValueError:  # a table this app saved reads back; "Word counts" if not
                short = "Word counts"
    else:
        short = NEUTRAL_SHORT.get(spec.kind, "Shared tokenizer")
    if spec.holdout_percent:
        short = f"{short}, {spec.holdout_percent} % held out"
    return replace(
        spec, name=run_name(short, spec.pattern, spec.vocab_size, spec.tie_rule), source=source
    )


@functools.cache
def _sample_text_keys() -> dict[tuple[RunKind, str], Sample]:
    """Each bundled sample by the kind and text key a run trained on it has."""
    found = {}
    for sample in SAMPLES.values():
        corpus = sample_corpus(sample, sample_text(sample.key))
        found[(corpus.kind, text_key(corpus.texts))] = sample
    return found


def _sample_of_texts(spec: RunSpec) -> Sample | None:
    """The bundled sample whose text the run was trained on, whatever it was called."""
    if not spec.kind.has_corpus:
        return None
    return _sample_text_keys().get((spec.kind, spec.text_key))


def _seed_link_state(spec: RunSpec) -> None:
    """The pages' own state from the link (view size, token, text), for the linked run."""
    state, params = st.session_state, st.query_params
    notes: list[str] = []
    view = link_number(params, "view", 256, MAX_APP_VOCAB_SIZE, notes)
    if view is not None:
        state[keys.LINK_VIEW] = view
    token = link_number(params, "token", 0, MAX_TOKEN_ID, notes)
    if token is not None:
        state[keys.VOCAB_TOKEN] = token
        state[keys.VOCAB_TOKEN_RUN] = spec.name
    for note in notes:
        add_link_note(state, note)
    keep_link_notes(state, spec.name)
    if "text" in params:  # a text someone chose, kept like a typed one
        state[keys.TOKENS_TEXT] = params["text"][: keys.MAX_LINK_TEXT]
        state[keys.TOKENS_TEXT_RUN] = spec.name
        state[keys.TOKENS_TEXT_EDITED] = True


def retrain_from_link(settings: dict[str, str]) -> None:
    """The notice's button: train the sample the link named, with the link's settings."""
    drop_run_not_found(st.session_state)
    _open_sample(st.session_state, settings)


def _open_sample(state: State, params: Mapping[str, str], notes: tuple[str, ...] = ()) -> RunSpec:
    """Open the sample run the settings name (trained, or from the cache), with the link's
    notes about them after `notes`, kept for that run."""
    linked = trainable_sample_link(params)
    _say_pattern_not_used(state, linked)
    set_link_notes(state, LinkNotes(None, (*notes, *linked.notes), linked.cut))
    spec = add_run(linked.spec, linked.texts, keep_on_disk=False)
    keep_link_notes(state, spec.name)
    return spec


def _say_pattern_not_used(state: State, linked: LinkedSample) -> None:
    if linked.pattern_not_used is not None:
        set_pattern_not_used(state, linked.pattern_not_used)


def trainable_sample_link(params: Mapping[str, str]) -> LinkedSample:
    """`read_sample_link`, once its custom pattern has trained the run here in time; a
    pattern too slow for the page's regex budget gives way to the sample's own, with a
    notice. It trains (into the shared caches, so add_run finds the run trained), and
    writes nothing to the session."""
    linked = read_sample_link(params)
    problem = _slow_pattern_problem(linked.spec, linked.texts)
    if not problem:
        return linked
    # the notes and budget are the sample pattern's, not the custom one's
    own = read_sample_link(params, pattern=linked.sample.pattern)
    # subtle: a link over the budget with its own pattern is over it still, whatever
    # pattern trains in the end: it trains what a link may, not another sample
    return replace(
        own,
        cut=linked.cut or own.cut,
        pattern_not_used=pattern_not_used(linked.spec.pattern, problem, linked.sample),
    )


# (text key, pattern) -> why it failed: a later visitor of the same link waits for nothing
SLOW_LINK_PATTERNS_KEPT = 64
_SLOW_LINK_PATTERNS = SharedLru(SLOW_LINK_PATTERNS_KEPT)  # every session's thread uses it


def _slow_pattern_problem(spec: RunSpec, texts: tuple[str, ...]) -> str:
    """Why a link's custom pattern cannot train its run in time ("" when it can, or when the
    pattern is a preset, never timed). The run is trained here, inside the page view's regex
    budget, and cached, so add_run finds it trained."""
    if preset_name(resolve_pattern(spec.pattern)) is not None:
        return ""
    known = (spec.text_key, spec.pattern)
    problem: str | None = _SLOW_LINK_PATTERNS.get(known)
    if problem is not None:
        return problem
    try:
        stored_results_cached(spec.store_key)  # trained before, so its pattern is fine
    except LookupError:
        pass
    else:
        return ""
    try:
        train_spec(spec, texts)
    except PatternError as exc:
        _SLOW_LINK_PATTERNS.put(known, str(exc))
        return str(exc)
    return ""
