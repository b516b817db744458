"""One section of a page that fails alone: a short message there, and the rest still drawn.

Every page draws its sections inside `guarded(...)` (and a fragment's body through
`guarded_function`), so an unexpected exception — a file or a link no test thought of —
costs that section, not the page: the section shows one plain sentence, the details go to
the server's log, never to the screen, and the sections after it run as usual.

Streamlit's own control flow passes through untouched: `st.rerun()` and `st.stop()` raise
subclasses of BaseException, which `except Exception` never sees; and a fragment's error
Streamlit has already shown (its FragmentHandledException, through the door
ui/server/streamlit_internals.py) is logged, not shown twice.

A shared service out of reach (ui/server/outages.py `Unavailable`: the classes' Redis
stopped) is not a failure of the section: its own sentence is shown, once in a run
however many sections met it (`say_once`), and the log has one line, no traceback.

    >>> section_message("The merge log")[:60]
    'The merge log could not be shown: something unexpected went '
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec

import streamlit as st

from ui.server.outages import Unavailable
from ui.server.streamlit_internals import FragmentHandled
from ui.session.markdown import markdown_text

log = logging.getLogger(__name__)
P = ParamSpec("P")
_this_run = threading.local()  # a session's runs are on its script thread, one at a time


def section_message(what: str) -> str:
    """The sentence a failed section shows (`what` is the app's own words, not a user's)."""
    return (
        f"{what} could not be shown: something unexpected went wrong on the server (the "
        "details are in its log). The rest of the page works; reloading may help."
    )


@contextmanager
def guarded(what: str) -> Iterator[None]:
    """Draw a section; an exception in it becomes a message where it stopped.

    No container of its own: the message is drawn where the section's elements end (the
    `with` blocks it was inside have closed), and a page's layout is unchanged.
    """
    try:
        yield
    except Unavailable as exc:
        log.warning("%s: %s", what, exc)
        say_once(markdown_text(str(exc)))  # our sentence, but it may quote a URL
    except FragmentHandled:
        # subtle: a fragment that raised was already reported by Streamlit; going on
        # keeps the rest of the page (fragments' own bodies are guarded, see below)
        log.warning("a fragment in %s failed", what)
    except Exception:
        log.exception("the section %r failed", what)
        st.error(section_message(what), icon=":material/error:")


def new_run() -> None:
    """At the top of a full run: nothing said yet (`say_once`)."""
    _this_run.said = set()


def say_once(text: str, icon: str = ":material/cloud_off:") -> None:
    """A warning (markdown: the caller's own words, or escaped), unless this run said the
    same already: three sections that met one outage show one sentence."""
    said: set[str] = getattr(_this_run, "said", set())
    if text in said:
        return
    _this_run.said = said | {text}
    st.warning(text, icon=icon)


def guarded_function(what: str, func: Callable[P, None]) -> Callable[P, None]:
    """`func` drawn inside `guarded(what)`: for a fragment's body, which reruns alone.

    The wrapper keeps `func`'s name, so Streamlit knows it as the same fragment each run.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        with guarded(what):
            func(*args, **kwargs)

    return wrapper
