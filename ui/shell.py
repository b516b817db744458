"""The app's shell: its pages, the navigation, the shared sidebar, and page set-up.

`streamlit_app.py` calls `run_app()`; every file in `pages/` ends with `run_page(main)`.

subtle: Streamlit 1.67 treats a folder named `pages/` beside the entry file as its old
auto-discovered multipage app until `st.navigation` is first called in the process
(`PagesManager.uses_pages_directory`). So the very first request a new server gets — a
bookmarked `/vocabulary` or a shared `/animate?animate_step=37` after a restart — runs
that page file alone, without the entry file: no session set-up, no sidebar, titles taken
from file names. `run_page()` notices (the entry file was not around it) and runs the
whole app in its place: the app's own navigation is registered (which ends the old mode
for the whole process) and opens this same page, with the same query parameters, inside
the shell. No rerun: a click that arrives with that first run is seen once.
(AppTest starts every run in the old mode, so its runs all take this path.)
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from pathlib import Path

import streamlit as st

from explorer import StopReason
from explorer.encoding.pretokenize import PatternError, preset_name
from explorer.encoding.regex_budget import regex_budget
from explorer.models.model import LoadedModel
from explorer.training.tie_rules import DEFAULT_TIE_RULE
from ui.classroom import following
from ui.classroom import session as classroom
from ui.classroom.panel import class_sidebar, class_top
from ui.server.gc_tuning import freeze_after_first_run
from ui.server.run_events import keep_finished_runs
from ui.session import state as keys
from ui.session.links import notices as link_notices
from ui.session.links import urls
from ui.session.markdown import markdown_text
from ui.session.opening import NEUTRAL_SOURCES, init_session, retrain_from_link
from ui.session.run_cache import preload_bundled
from ui.session.run_spec import RunKind
from ui.session.runs import (
    Run,
    current_model_run,
    current_run_or_error,
    current_spec,
    fit_view_size,
    run_specs,
    trained_vocab_size,
    view_vocab_size,
)
from ui.session.warm_up import warm_up_once
from ui.views.formatting import plural, sentence
from ui.views.present import inject_style, presenter_toggle
from ui.views.section import guarded, new_run

PAGES_DIR = Path(__file__).resolve().parents[1] / "pages"


def veiled_sentence(merge: int) -> str:
    """What the sidebar says while a class's open question hides merge `merge` onward.

    >>> veiled_sentence(1204)[:60]
    "A class's question is open on this tokenizer: merge 1,204 an"
    """
    return (
        f"A class's question is open on this tokenizer: merge {merge:,} and those after it "
        "are on no page until you answer it or the teacher reveals it."
    )


APP_TITLE = "BPE Merge Explorer"

_this_run = threading.local()  # .inside_app: the entry file is running the current page
# A custom pattern's matching time in one page view, in all (a training's, an encode's, each
# sit inside it): a page that encodes many things with a slow pattern stops within this
PAGE_REGEX_SECONDS = 10.0


FRONT_PATH = ""  # the front door's url_path: the address with no path (pages/front.py)


def navigation() -> st.Page:
    """Register the app's pages (titles, icons, URLs) and return the one the URL asks for.

    The front door is the address with no path; Train has its own, /train (a link to "/"
    with a query, from when "/" was Train, is forwarded there: ui/front/door.py).
    """
    return st.navigation(
        [
            st.Page(PAGES_DIR / "front.py", title="Start", icon=":material/home:", default=True),
            st.Page(
                PAGES_DIR / "train.py",
                title="Train",
                icon=":material/model_training:",
                url_path="train",
            ),
            st.Page(PAGES_DIR / "animate.py", title="Animate merges", icon=":material/animation:"),
            st.Page(PAGES_DIR / "tokens.py", title="Tokens", icon=":material/palette:"),
            st.Page(PAGES_DIR / "vocabulary.py", title="Vocabulary", icon=":material/menu_book:"),
            st.Page(PAGES_DIR / "compare.py", title="Compare", icon=":material/query_stats:"),
        ]
    )


def forward_old_root_link(page: st.Page) -> None:
    """A link to "/" with a query (`/?run=…&sample=…`, `/?class=…`) is one of Train's from
    before the front door, when "/" was Train: open Train with the query whole, as the
    first thing the run does (st.switch_page ends it), so every old link opens what it
    opened and nothing it says is read twice."""
    if page.url_path == FRONT_PATH and st.query_params:
        st.switch_page(PAGES_DIR / "train.py", query_params=st.query_params.to_dict())


def within_page_regex_budget(draw: Callable[[], None]) -> Callable[[], None]:
    """Run a page view inside one regex budget (PAGE_REGEX_SECONDS); a pattern that spends
    it is said in a message, where no section said it first."""

    @functools.wraps(draw)
    def drawn() -> None:
        with regex_budget(PAGE_REGEX_SECONDS, "in all on this page"):
            try:
                draw()
            except PatternError as exc:
                st.error(markdown_text(sentence(str(exc))), icon=":material/timer_off:")

    return drawn


@within_page_regex_budget
def run_app() -> None:
    """What the entry file does on every run: set up the session, route, draw the sidebar."""
    st.set_page_config(page_title=APP_TITLE, page_icon=":material/join_inner:", layout="wide")
    new_run()  # a class out of reach is said once in this run, however many parts meet it
    page = navigation()
    forward_old_root_link(page)  # before anything is drawn or read from the link
    keep_finished_runs()  # once per process: a run's drawing is not lost to the next request
    preload_bundled()  # once per process, when the server asks for it
    init_session(page.url_path)
    with guarded("The class"):
        following.arrive()  # ?class=CODE: this session joins (and gets the class's run)
        following.follow_class()  # a student's step, passage and trace: the teacher's
    with guarded("The class's question"):
        following.veil_runs()  # a class's open question: its merge is on no page yet
    run = None
    with st.sidebar, guarded("The sidebar"):
        run = sidebar()
    with guarded("The link's notice"):
        link_notice()
    inject_style()
    with guarded("The class"):
        class_top(page.url_path)
    if classroom.seat() is not None:  # a student checks the class's version, drawing nothing
        st.fragment(following.follow_poll, run_every=classroom.FOLLOW_SECONDS)(page.url_path)
    if page.url_path == FRONT_PATH:
        pass  # the front door's address stays bare: a query there is an old link to Train
    elif run is not None:
        view = view_vocab_size(run)
        full = trained_vocab_size(run)
        urls.sync_url(st.query_params, page.url_path, run.spec, view if view < full else None)
    elif run_specs() and current_spec().kind.is_model:  # a model's link reopens it too
        urls.sync_url(st.query_params, page.url_path, current_spec(), None)
    st.session_state[keys.HUB_LINK_SEEN] = st.query_params.get("hub")  # opened already
    _this_run.inside_app = True
    try:
        page.run()
    finally:
        _this_run.inside_app = False
    freeze_after_first_run(page.url_path)  # once per page: later full collections are short
    warm_up_once()  # once per server: the other pages' imports, now the first page is drawn


def run_page(main: Callable[[], None]) -> None:
    """The last line of every page file: run the page's `main` inside the app's shell.

    Inside the entry file's run it just calls `main`. Run alone (a fresh server's first
    request, see the module docstring) it runs the whole app instead, which registers
    the navigation and runs this same file again, now inside the shell.
    """
    if getattr(_this_run, "inside_app", False):
        with guarded("This page"):  # sections are guarded too; this catches the rest
            main()
    else:
        run_app()


def sidebar() -> Run | None:
    """The presenter view; which tokenizer the pages show, at which vocab size; the run."""
    names = [spec.name for spec in run_specs()]
    with st.sidebar:
        presenter_toggle()
        st.selectbox(
            "Tokenizer", names, key=keys.SIDEBAR_RUN, help="Tokenizers trained in this session"
        )
        if current_spec().kind.is_model:
            model_sidebar()
            return None
        run = current_run_or_error()
        if run is None:
            return None
        full = trained_vocab_size(run)
        followed = keys.follow_run(st.session_state, keys.SIDEBAR_VIEW_RUN, run.spec.name)
        # subtle: a real model's run draws no view-size slider, so Streamlit drops its key;
        # coming back to the run shown before it, the size starts again from the whole run
        if followed or keys.SIDEBAR_VIEW_SIZE not in st.session_state:
            linked = st.session_state.pop(keys.LINK_VIEW, None)  # a link's view=
            st.session_state[keys.SIDEBAR_VIEW_SIZE] = max(256, min(full, linked or full))
        fit_view_size(st.session_state, full, run.veiled_at is not None)
        if full > 256:
            view_size_controls(full)
        st.caption(run_summary(run))
        if run.veiled_at is not None:
            st.caption(veiled_sentence(run.veiled_at + 1))
        with guarded("The class"):
            class_sidebar()
    return run


def model_sidebar() -> None:
    """What a real model's run is, in the sidebar: its files, ids, merges and numbering."""
    try:
        run = current_model_run()
    except ValueError as exc:
        st.error(f"This tokenizer could not be read: {markdown_text(str(exc))}")
        return
    if run is not None:
        st.caption(model_summary(run.spec.source, run.model))


def model_summary(source: str, model: LoadedModel) -> str:
    """One line naming a real model's tokenizer: its files, ids, merges, base, normalizer."""
    base = "bytes" if model.base == "bytes" else "characters with byte fallback"
    normalizer = f" · normalizer {markdown_text(model.normalizer)}" if model.normalizer else ""
    what = "" if source == NEUTRAL_SOURCES[RunKind.LOADED_MODEL] else " · a real model's tokenizer"
    return (
        f"**{markdown_text(source)}**{what} ({markdown_text(model.file_kind)})"
        f" · {model.vocab_size:,} ids · {len(model.merges):,} merges (ranks from 0) · "
        f"base symbols: {base}{normalizer}. Its ids are its own: merge ranks do not make them."
    )


def link_notice() -> None:
    """Say why a link's tokenizer is not shown, while its stand-in is (see
    ui/session/opening.py)."""
    link_pattern_notice()
    link_notes()
    notice = link_notices.run_not_found(st.session_state)
    if notice is None:
        return
    if current_spec().name != notice.shown_instead:
        link_notices.drop_run_not_found(st.session_state)  # the user has moved on
        return
    why = f" ({notice.problem.rstrip('.')})" if notice.problem else ""
    st.warning(
        f"This link's tokenizer (run {markdown_text(notice.key[:40])}) is no longer on "
        f"this server{markdown_text(why)}. A tokenizer trained on your own text is kept "
        "by the server that trained it until its runs folder is full and the oldest go. "
        f"Shown instead: **{markdown_text(notice.shown_instead)}**.",
        icon=":material/link_off:",
    )
    if notice.retrain:
        st.button(
            "Train it again from the settings in the link",
            key=keys.LINK_RETRAIN,
            on_click=retrain_from_link,
            args=(notice.retrain,),
            icon=":material/model_training:",
        )


def link_pattern_notice() -> None:
    """Say why a link's pattern is not used, once: the sample opens on its own instead."""
    notice = link_notices.pop_pattern_not_used(st.session_state)
    if notice is None:
        return
    st.warning(
        f"This link's pre-tokenizer pattern {markdown_text(notice.pattern[:100])} was not "
        f"used: {markdown_text(notice.problem[:400])} Shown instead: the sample with its "
        f"own pattern, {markdown_text(notice.instead[:100])}.",
        icon=":material/link_off:",
    )


def link_notes() -> None:
    """What the link asked for that was left out or lowered (ui/session/opening.py), while
    the run it opened is on screen."""
    notes = link_notices.link_notes(st.session_state)
    if not notes.notes or not run_specs():
        return
    if current_spec().name != notes.run:
        link_notices.drop_link_notes(st.session_state)  # the user has moved on
        return
    for note in notes.notes:
        st.info(markdown_text(note), icon=":material/info:")


def view_size_controls(full: int) -> None:
    """The view-size slider, and a number box beside it for an exact size on a long range.

    The slider's key holds the size; the box is a copy, refreshed from it each run
    (before the box is drawn), that writes back through its callback.
    """
    state = st.session_state
    state[keys.SIDEBAR_VIEW_SIZE_BOX] = state[keys.SIDEBAR_VIEW_SIZE]
    slider, box = st.columns([3, 2], vertical_alignment="bottom")
    slider.slider(
        "View at vocab size",
        min_value=256,
        max_value=full,
        key=keys.SIDEBAR_VIEW_SIZE,
        help="The first k merges are a tokenizer of size 256 + k: every page follows "
        "this without retraining.",
    )
    box.number_input(
        "Vocab size",
        min_value=256,
        max_value=full,
        step=1,
        key=keys.SIDEBAR_VIEW_SIZE_BOX,
        on_change=_box_to_slider,
        label_visibility="collapsed",
        help="Type an exact vocab size",
    )


def _box_to_slider() -> None:
    st.session_state[keys.SIDEBAR_VIEW_SIZE] = st.session_state[keys.SIDEBAR_VIEW_SIZE_BOX]


def run_summary(run: Run) -> str:
    """One line naming what the pages show: corpus, pattern, merges, vocab size."""
    spec = run.spec
    pattern = preset_name(spec.pattern) or spec.pattern
    pattern = pattern if len(pattern) <= 20 else "custom regex"
    merges = trained_vocab_size(run) - 256
    summary = f"**{markdown_text(spec.source)}** · pattern {markdown_text(pattern)}"
    summary += f" · {plural(merges, 'merge')}"
    if run.history is not None and run.history.tie_rule is not DEFAULT_TIE_RULE:
        summary += f" · tie rule `{run.history.tie_rule.value}`"
    stopped = run.history.stop_reason.value if run.history is not None else None
    if stopped not in (None, StopReason.VOCAB_SIZE_REACHED.value):
        summary += f" · stopped early: {StopReason(stopped).describe()}"
    return summary
