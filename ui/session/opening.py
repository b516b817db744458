"""A session's first run: the run its URL names (from the server's disk), or a sample.

`?run=KEY` opens a run kept by ui/session/run_store.py, with the pages' own state from the link
(view size, token, text); `?sample=…&vocab=…&pattern=…` (and `&tie_rule=…`) opens or
retrains a bundled sample; a key the server no longer has opens the default sample with
a notice.

Every number in a link goes through explorer.base.numbers (a superscript, a number of
thousands of digits, `-1` or `1e3` is left out, with a note saying so), and what a link
may train is bounded (ui/session/link_budget.py): a larger vocab size is lowered, with a
note. The notes show on the page while the linked run is the one on screen.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from dataclasses import replace

import streamlit as st

from explorer.base.numbers import whole_number_or_none
from explorer.encoding.pretokenize import (
    PatternError,
    compile_pattern,
    preset_name,
    resolve_pattern,
)
from explorer.training.holdout import MAX_PERCENT, MIN_PERCENT, HoldoutError, split_holdout
from explorer.training.tie_rules import DEFAULT_TIE_RULE, TIE_RULE_NAMES, TieRule
from ui.server.lru import SharedLru
from ui.session import link_budget, run_store
from ui.session import state as keys
from ui.session.run_cache import stored_results_cached
from ui.session.run_spec import BUNDLED_RUNS, RunKind, RunSpec, first_words, run_name, text_key
from ui.session.runs import MAX_APP_VOCAB_SIZE, add_run, bundled_spec, train_spec
from ui.session.samples import DEFAULT_SAMPLE, SAMPLES, Sample, sample_text
from ui.session.train_inputs import sample_corpus, training_spec, word_count_corpus

PASTED_SOURCE = "Pasted text"  # ui/session/train_inputs.pasted_corpus's source
NEUTRAL_SOURCES = {  # what a link says a stored run came from: never a file's name
    RunKind.TEXT: "Uploaded text",
    RunKind.WORD_COUNTS: "Word counts",
    RunKind.MODEL: "a .model file",
    RunKind.MODEL_HISTORY: "a .model file with its merge history",
    RunKind.IMPORTED: "a tokenizer file",
}
NEUTRAL_SHORT = {  # the start of its name, for a run without a corpus
    RunKind.MODEL: "Loaded .model",
    RunKind.MODEL_HISTORY: "Loaded .model with history",
    RunKind.IMPORTED: "Imported tokenizer",
}
SAMPLE_PARAMS = ("sample", "vocab", "pattern", "tie_rule", "holdout")  # retrains a sample run
MAX_TOKEN_ID = 10**9  # a token= beyond any vocabulary (the page drops one it lacks)
SHOWN_VALUE_CHARS = 24  # a link's unreadable value is quoted this far in a note
LINK_FAILED = (
    "This link could not be opened (something unexpected went wrong on the server; the "
    "details are in its log), so the default sample is shown instead."
)

log = logging.getLogger(__name__)


def init_session() -> None:
    """Set the shared keys once; on first open, the run the URL names (or the default)."""
    st.session_state.setdefault(keys.RUNS, {})
    st.session_state.setdefault(keys.TEXTS, {})
    if not st.session_state[keys.RUNS]:
        try:
            open_linked_run()
        except Exception:  # a link no test thought of: the default sample, and a note
            log.exception("the link %s could not be opened", dict(st.query_params))
            st.session_state[keys.LINK_NOTES] = {"run": None, "notes": [LINK_FAILED]}
            _keep_notes(add_run(*default_spec({}), keep_on_disk=False))
    # subtle: a widget's key can only be set before the widget is drawn in a run, so a
    # page that adds a run asks for it here, at the top of the next run
    if keys.PENDING_RUN in st.session_state:
        st.session_state[keys.SIDEBAR_RUN] = st.session_state.pop(keys.PENDING_RUN)


def open_linked_run() -> None:
    """A new session's first run: the one `?run=KEY` names, from the server's disk.

    A key the server no longer has (or whose file is damaged) opens the default sample
    with a notice (keys.LINK_NOTICE) saying so; when the link also names a sample's
    settings, the notice offers to train that again. Without `run=`, the sample the URL
    names (or the default) opens, as before.
    """
    st.session_state[keys.LINK_NOTES] = {"run": None, "notes": []}
    key = st.query_params.get("run")
    if key is None:
        _keep_notes(add_run(*default_spec(), keep_on_disk=False))  # its link retrains it
        return
    found, problem = _linked_run(key)
    if found is not None:
        spec = add_run(*found)
        _seed_link_state(spec)
        return
    settings = {n: st.query_params[n] for n in SAMPLE_PARAMS if n in st.query_params}
    from_url = default_spec(settings) if "sample" in settings else None
    lowered = st.session_state[keys.LINK_NOTES].get("cut", False)  # over the budget
    if from_url is not None and (from_url[0].store_key == key or lowered):
        _seed_link_state(add_run(*from_url, keep_on_disk=False))  # trained again, in budget
        return
    st.session_state[keys.LINK_NOTES] = {"run": None, "notes": []}  # not the notes of this one
    fallback = add_run(*default_spec({}), keep_on_disk=False)
    st.session_state[keys.LINK_NOTICE] = {
        "key": key,
        "problem": problem,
        "shown_instead": fallback.name,
        "retrain": settings if from_url is not None else None,
    }


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
    view = _link_number(params, "view", 256, MAX_APP_VOCAB_SIZE)
    if view is not None:
        state[keys.LINK_VIEW] = view
    token = _link_number(params, "token", 0, MAX_TOKEN_ID)
    if token is not None:
        state[keys.VOCAB_TOKEN] = token
        state[keys.VOCAB_TOKEN_RUN] = spec.name
    _keep_notes(spec)
    if "text" in params:  # a text someone chose, kept like a typed one
        state[keys.TOKENS_TEXT] = params["text"][: keys.MAX_LINK_TEXT]
        state[keys.TOKENS_TEXT_RUN] = spec.name
        state[keys.TOKENS_TEXT_EDITED] = True


def retrain_from_link(settings: dict[str, str]) -> None:
    """The notice's button: train the sample the link named, with the link's settings."""
    st.session_state.pop(keys.LINK_NOTICE, None)
    st.session_state[keys.LINK_NOTES] = {"run": None, "notes": []}
    _keep_notes(add_run(*default_spec(settings), keep_on_disk=False))


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
    if (problem := _SLOW_LINK_PATTERNS.get(known)) is not None:
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


def _pattern_instead(pattern: str, problem: str, instead: str) -> str:
    """The sample's own pattern, noting (keys.LINK_PATTERN_NOTICE) why the link's is not used."""
    st.session_state[keys.LINK_PATTERN_NOTICE] = {
        "pattern": pattern,
        "problem": problem,
        "instead": preset_name(instead) or instead,
    }
    return instead


def default_spec(params: Mapping[str, str] | None = None) -> tuple[RunSpec, tuple[str, ...]]:
    """The sample the app opens on (?sample=…&vocab=…&pattern=… may choose another).

    `params` are those settings (the URL's when None; {} for the default sample).
    """
    params = st.query_params if params is None else params
    sample = SAMPLES.get(params.get("sample", DEFAULT_SAMPLE), SAMPLES[DEFAULT_SAMPLE])
    if params.get("sample", DEFAULT_SAMPLE) not in SAMPLES:
        asked = _shown_value(str(params.get("sample")))
        _add_note(
            f"The link's sample={asked} is not one of the app's samples: {sample.title} "
            "opened instead."
        )
    vocab_size = _link_number(params, "vocab", 256, MAX_APP_VOCAB_SIZE) or sample.vocab_size
    pattern = params.get("pattern", sample.pattern)
    try:
        compile_pattern(resolve_pattern(pattern))
    except PatternError as refused:  # a link's broken or huge pattern: the sample's own
        pattern = _pattern_instead(pattern, str(refused), sample.pattern)
    tie_rule = params.get("tie_rule", DEFAULT_TIE_RULE.value)
    tie_rule = tie_rule if tie_rule in TIE_RULE_NAMES else DEFAULT_TIE_RULE.value
    corpus = sample_corpus(sample, sample_text(sample.key))
    held_out = 0 if sample.word_counts else _holdout_param(params, corpus.texts)
    notes_before = list(_notes())
    allowed = _within_budget(vocab_size, sample.title, corpus.texts, pattern)
    spec = training_spec(
        corpus, allowed, pattern, (), 1, TieRule(tie_rule), holdout_percent=held_out
    )
    problem = _slow_pattern_problem(spec, corpus.texts)  # too slow here: the sample's own
    if problem:
        pattern = _pattern_instead(pattern, problem, sample.pattern)
        _notes()[:] = notes_before  # the budget is the sample pattern's, not the custom one's
        allowed = _within_budget(vocab_size, sample.title, corpus.texts, pattern)
        spec = training_spec(
            corpus, allowed, pattern, (), 1, TieRule(tie_rule), holdout_percent=held_out
        )
    return spec, corpus.texts


def _holdout_param(params: Mapping[str, str], texts: tuple[str, ...]) -> int:
    """The link's held-out share (`holdout=10`), when the sample can hold it out; else 0."""
    percent = _link_number(params, "holdout", 0, MAX_PERCENT) or 0
    if percent < MIN_PERCENT:
        return 0
    try:
        split_holdout(texts, percent)
    except HoldoutError:
        return 0
    return percent


def _within_budget(vocab_size: int, title: str, texts: tuple[str, ...], pattern: str) -> int:
    """The vocab size a link may train on these texts (ui/session/link_budget.py); a lowered
    one leaves a note saying what the link asked for."""
    corpus_bytes = sum(len(text.encode("utf-8", "surrogatepass")) for text in texts)
    allowed = link_budget.link_vocab_size(vocab_size, corpus_bytes, pattern)
    if allowed < vocab_size:
        shown = preset_name(resolve_pattern(pattern)) or "a custom regex"
        cut = link_budget.LinkCut(vocab_size, allowed, title.split(" (")[0], shown)
        _add_note(cut.notice())
        st.session_state[keys.LINK_NOTES]["cut"] = True
    return allowed


def _link_number(params: Mapping[str, str], name: str, low: int, high: int) -> int | None:
    """A whole number the link gives for `name`, or None: missing, or unreadable or out of
    low..high (then a note says it was left out)."""
    number, note = read_link_number(params.get(name), name, low, high)
    if note:
        _add_note(note)
    return number


def read_link_number(value: str | None, name: str, low: int, high: int) -> tuple[int | None, str]:
    """A link's value for `name` as a number in low..high, or None and a note saying why
    it was left out ("" when the link does not give one).

    >>> read_link_number("280", "view", 256, 50_000)
    (280, '')
    >>> read_link_number("²", "view", 256, 50_000)[1][:48]
    "The link's view=² was left out: it must be a who"
    """
    if value is None:
        return None, ""
    number = whole_number_or_none(value, low, high)
    if number is not None:
        return number, ""
    return None, (
        f"The link's {name}={_shown_value(str(value))} was left out: it must be a whole "
        f"number from {low:,} to {high:,}, written in digits 0-9."
    )


def _shown_value(text: str) -> str:
    """A link's value as a note quotes it: its start only."""
    return text if len(text) <= SHOWN_VALUE_CHARS else f"{text[:SHOWN_VALUE_CHARS]}…"


def _notes() -> list[str]:
    notes = st.session_state.setdefault(keys.LINK_NOTES, {"run": None, "notes": []})
    return notes["notes"]


def _add_note(note: str) -> None:
    if note not in _notes():
        _notes().append(note)


def _keep_notes(spec: RunSpec) -> None:
    """The link's notes belong to the run it opened: shown while that run is on screen."""
    st.session_state.setdefault(keys.LINK_NOTES, {"run": None, "notes": []})["run"] = spec.name
