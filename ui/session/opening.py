"""A session's first run: the run its URL names (from the server's disk), or a sample.

`?run=KEY` opens a run kept by ui/session/run_store.py, with the pages' own state from the link
(view size, token, text); `?sample=…&vocab=…&pattern=…` (and `&tie_rule=…`) opens or
retrains a bundled sample; a key the server no longer has opens the default sample with
a notice.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping

import streamlit as st

from explorer.encoding.pretokenize import (
    PatternError,
    compile_pattern,
    preset_name,
    resolve_pattern,
)
from explorer.training.holdout import MAX_PERCENT, MIN_PERCENT, HoldoutError, split_holdout
from explorer.training.tie_rules import DEFAULT_TIE_RULE, TIE_RULE_NAMES, TieRule
from ui.session import run_store
from ui.session import state as keys
from ui.session.run_cache import stored_results_cached
from ui.session.run_spec import BUNDLED_RUNS, RunSpec, text_key
from ui.session.runs import MAX_APP_VOCAB_SIZE, add_run, bundled_spec, train_spec
from ui.session.samples import DEFAULT_SAMPLE, SAMPLES, sample_text
from ui.session.train_inputs import sample_corpus, training_spec

SAMPLE_PARAMS = ("sample", "vocab", "pattern", "tie_rule", "holdout")  # retrains a sample run


def init_session() -> None:
    """Set the shared keys once; on first open, the run the URL names (or the default)."""
    st.session_state.setdefault(keys.RUNS, {})
    st.session_state.setdefault(keys.TEXTS, {})
    if not st.session_state[keys.RUNS]:
        open_linked_run()
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
    key = st.query_params.get("run")
    if key is None:
        add_run(*default_spec())
        return
    found, problem = _linked_run(key)
    if found is not None:
        spec = add_run(*found)
        _seed_link_state(spec)
        return
    settings = {n: st.query_params[n] for n in SAMPLE_PARAMS if n in st.query_params}
    from_url = default_spec(settings) if "sample" in settings else None
    if from_url is not None and from_url[0].store_key == key:  # the same run, trained again
        _seed_link_state(add_run(*from_url))
        return
    fallback = add_run(*default_spec({}))
    st.session_state[keys.LINK_NOTICE] = {
        "key": key,
        "problem": problem,
        "shown_instead": fallback.name,
        "retrain": settings if from_url is not None else None,
    }


def _linked_run(key: str) -> tuple[tuple[RunSpec, tuple[str, ...]] | None, str]:
    """The spec and documents kept under key (or None, and why not, in plain words)."""
    if key in BUNDLED_RUNS:
        return (bundled_spec(key), ()), ""
    try:
        stored = run_store.load(run_store.config_from_env(), key)
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
    return (spec, stored.documents), ""


def _seed_link_state(spec: RunSpec) -> None:
    """The pages' own state from the link (view size, token, text), for the linked run."""
    state, params = st.session_state, st.query_params
    view = params.get("view", "")
    if view.isdigit():
        state[keys.LINK_VIEW] = int(view)
    token = params.get("token", "")
    if token.isdigit():
        state[keys.VOCAB_TOKEN] = int(token)
        state[keys.VOCAB_TOKEN_RUN] = spec.name
    if "text" in params:  # a text someone chose, kept like a typed one
        state[keys.TOKENS_TEXT] = params["text"][: keys.MAX_LINK_TEXT]
        state[keys.TOKENS_TEXT_RUN] = spec.name
        state[keys.TOKENS_TEXT_EDITED] = True


def retrain_from_link(settings: dict[str, str]) -> None:
    """The notice's button: train the sample the link named, with the link's settings."""
    st.session_state.pop(keys.LINK_NOTICE, None)
    add_run(*default_spec(settings))


# (text key, pattern) -> why it failed: a later visitor of the same link waits for nothing
_SLOW_LINK_PATTERNS: OrderedDict[tuple[str, str], str] = OrderedDict()
SLOW_LINK_PATTERNS_KEPT = 64


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
        _SLOW_LINK_PATTERNS[known] = str(exc)
        while len(_SLOW_LINK_PATTERNS) > SLOW_LINK_PATTERNS_KEPT:
            _SLOW_LINK_PATTERNS.popitem(last=False)
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
    vocab_size = _int_param("vocab", sample.vocab_size, 256, MAX_APP_VOCAB_SIZE, params)
    pattern = params.get("pattern", sample.pattern)
    try:
        compile_pattern(resolve_pattern(pattern))
    except PatternError as refused:  # a link's broken or huge pattern: the sample's own
        pattern = _pattern_instead(pattern, str(refused), sample.pattern)
    tie_rule = params.get("tie_rule", DEFAULT_TIE_RULE.value)
    tie_rule = tie_rule if tie_rule in TIE_RULE_NAMES else DEFAULT_TIE_RULE.value
    corpus = sample_corpus(sample, sample_text(sample.key))
    held_out = 0 if sample.word_counts else _holdout_param(params, corpus.texts)
    spec = training_spec(
        corpus, vocab_size, pattern, (), 1, TieRule(tie_rule), holdout_percent=held_out
    )
    problem = _slow_pattern_problem(spec, corpus.texts)  # too slow here: the sample's own
    if problem:
        pattern = _pattern_instead(pattern, problem, sample.pattern)
        spec = training_spec(
            corpus, vocab_size, pattern, (), 1, TieRule(tie_rule), holdout_percent=held_out
        )
    return spec, corpus.texts


def _holdout_param(params: Mapping[str, str], texts: tuple[str, ...]) -> int:
    """The link's held-out share (`holdout=10`), when the sample can hold it out; else 0."""
    percent = _int_param("holdout", 0, 0, MAX_PERCENT, params)
    if percent < MIN_PERCENT:
        return 0
    try:
        split_holdout(texts, percent)
    except HoldoutError:
        return 0
    return percent


def _int_param(name: str, default: int, low: int, high: int, params: Mapping[str, str]) -> int:
    try:
        return min(high, max(low, int(params.get(name, default))))
    except ValueError:
        return default
