"""One section of a page that fails alone: a short message there, and the rest still drawn.

Every page draws its sections inside `guarded(...)` (and a fragment's body through
`guarded_function`), so an unexpected exception — a file or a link no test thought of —
costs that section, not the page: the section shows one plain sentence, the details go to
the server's log, never to the screen, and the sections after it run as usual.

Streamlit's own control flow passes through untouched: `st.rerun()` and `st.stop()` raise
subclasses of BaseException, which `except Exception` never sees; and a fragment's error
Streamlit has already shown (its FragmentHandledException, through the door
ui/server/streamlit_internals.py) is logged, not shown twice.

    >>> section_message("The merge log")[:60]
    'The merge log could not be shown: something unexpected went '
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec

import streamlit as st

from ui.server.streamlit_internals import FragmentHandled

log = logging.getLogger(__name__)
P = ParamSpec("P")


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
    except FragmentHandled:
        # subtle: a fragment that raised was already reported by Streamlit; going on
        # keeps the rest of the page (fragments' own bodies are guarded, see below)
        log.warning("a fragment in %s failed", what)
    except Exception:
        log.exception("the section %r failed", what)
        st.error(section_message(what), icon=":material/error:")


def guarded_function(what: str, func: Callable[P, None]) -> Callable[P, None]:
    """`func` drawn inside `guarded(what)`: for a fragment's body, which reruns alone.

    The wrapper keeps `func`'s name, so Streamlit knows it as the same fragment each run.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        with guarded(what):
            func(*args, **kwargs)

    return wrapper
