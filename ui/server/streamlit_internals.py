"""The one door to Streamlit's private internals: everything the app, the harness, the
benches and the tests use of Streamlit that is not its public API, read from Streamlit
1.67.0 (STREAMLIT_READ).

Each use is a small function here with the fallback it degrades to when an upgrade moves
what it reads (so the app still runs, a little less well), and a canary in
tests/app/server/test_streamlit_internals.py that fails with one sentence naming it.
docs/streamlit-internals.md is the table of them and how to upgrade Streamlit.

- `ask_fragment_rerun`: a class's poll reruns the page's step fragment alone (what
  `st.rerun("key")` does from a widget callback); else the whole page reruns.
- `wrap_request_rerun`, `session_event_loop`, `session_runner_stopped`: run_events.py's
  fix for a race in AppSession; else a finished run's drawing may be lost, as before.
- `run_session_id`, `run_yield_check`, `session_connected`: heavy work in a child
  notices Cancel and a closed browser; else the child runs to its end.
- `converts_altair`, `altair_to_vega_lite`: a chart converted once and shared by every
  session; else each session draws with st.altair_chart.
- `FragmentHandled`: a fragment's error Streamlit already showed; else a guarded section
  shows its own message beside Streamlit's.
- `option_set_by_user`: whether the server's address was configured; else the join
  link names the address the server listens on.
- The wire format the harness, the benches and the browser tests speak: `BackMsg`,
  `ForwardMsg`, `WidgetState(s)`, `FileUploaderState`, `UploadedFileInfo`; and
  `MediaFileManager` for a test that records a deferred download. No fallback: what
  speaks the wire format fails at its first use (the canaries name it first).

Nothing else in ui/, pages/, harness/, scripts/, bench/ or tests/ imports
streamlit.runtime, streamlit.proto, streamlit.elements, streamlit.web or streamlit.errors,
or reads a private attribute of a Streamlit object (pyproject.toml's import-linter
contract "streamlit-internals-door" and tests/app/server/test_private_streamlit.py).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from streamlit import config as _config

# The wire format (1.67.0's protobuf messages): the app itself never needs it, so a
# Streamlit that moved it still runs the app; the harness fails at its import instead.
try:
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.Common_pb2 import FileUploaderState, UploadedFileInfo
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
    from streamlit.runtime.media_file_manager import MediaFileManager
except ImportError:  # pragma: no cover - another Streamlit: the canaries name what moved
    logging.getLogger(__name__).warning("Streamlit's wire format moved", exc_info=True)

if TYPE_CHECKING:
    from streamlit.elements.vega_charts import AltairChart

__all__ = [
    "STREAMLIT_READ",
    "BackMsg",
    "FileUploaderState",
    "ForwardMsg",
    "FragmentHandled",
    "MediaFileManager",
    "RequestRerun",
    "UploadedFileInfo",
    "WidgetState",
    "WidgetStates",
    "altair_to_vega_lite",
    "ask_fragment_rerun",
    "converts_altair",
    "option_set_by_user",
    "run_session_id",
    "run_yield_check",
    "session_connected",
    "session_event_loop",
    "session_runner_stopped",
    "wrap_request_rerun",
]

STREAMLIT_READ = "1.67.0"  # the version every use below was read from
log = logging.getLogger(__name__)


# --- a fragment's rerun, asked for from another fragment's body (ui/classroom/step_follow.py)


def ask_fragment_rerun(key: str) -> bool | None:
    """Ask the script runner to rerun the fragment named `key` alone (`st.fragment(key=...)`)
    as soon as this run reaches a yield point: the request `st.rerun("key")` makes from a
    widget callback, which Streamlit refuses from a fragment's body.

    True: asked (the caller reaches a yield point: the runner ends this run there); False:
    the session is stopping (its runner takes no request). None when it cannot be asked
    here: outside a script run, the fragment not drawn in this session, or Streamlit's
    internals moved; the caller reruns the whole page instead (st.rerun()).

    Reads (1.67.0): get_script_run_ctx(); its fragment_storage.resolve_target(key),
    script_requests, query_string, page_script_hash, cached_message_hashes, context_info;
    RerunData's fields of those names plus fragment_id_queue and is_fragment_scoped_rerun;
    ScriptRequests.request_rerun(data) -> bool.

    >>> ask_fragment_rerun("not in a script run") is None
    True
    """
    try:  # subtle: all of it, the RerunData too: a renamed field is a TypeError here
        from streamlit.runtime.scriptrunner import RerunData, get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
        if ctx is None or ctx.script_requests is None:
            return None
        ids = ctx.fragment_storage.resolve_target(key)
        if not ids:
            return None
        data = RerunData(
            query_string=ctx.query_string,
            page_script_hash=ctx.page_script_hash,
            fragment_id_queue=list(ids),
            is_fragment_scoped_rerun=True,
            cached_message_hashes=ctx.cached_message_hashes,
            context_info=ctx.context_info,
        )
        return bool(ctx.script_requests.request_rerun(data))
    except Exception:  # another Streamlit, or no fragment of that key: the whole page
        log.debug("no fragment rerun of %r here", key, exc_info=True)
        return None


# --- AppSession's rerun requests (ui/server/run_events.py) ---------------------------------

RequestRerun = Callable[[Any, Any], None]  # AppSession.request_rerun(self, client_state)
_WRAPPED = "_bpe_explorer_wraps"  # marks our wrapper, so it is installed once a process


def wrap_request_rerun(wrapper: Callable[[RequestRerun], RequestRerun]) -> bool:
    """Replace AppSession.request_rerun, for the whole process, with `wrapper(original)`,
    once (a second call finds it wrapped). False when it is left as it is: wrapped
    already, or this Streamlit has no AppSession.request_rerun(self, client_state).

    Reads (1.67.0): streamlit.runtime.app_session.AppSession.request_rerun.
    """
    try:
        from streamlit.runtime.app_session import AppSession
    except ImportError:
        return False
    original = getattr(AppSession, "request_rerun", None)
    if original is None or getattr(original, _WRAPPED, False):
        return False
    if list(inspect.signature(original).parameters) != ["self", "client_state"]:
        return False
    replacement = functools.wraps(original)(wrapper(original))
    setattr(replacement, _WRAPPED, True)
    # a method of Streamlit's class replaced on purpose; Streamlit types it with its own
    # AppSession and ClientState, which the wrapper only passes on (hence the ignores)
    AppSession.request_rerun = replacement  # type: ignore[method-assign,assignment]
    return True


def session_event_loop(session: object) -> asyncio.AbstractEventLoop | None:
    """The event loop an AppSession hands its runners' events to (None: not known).

    Reads (1.67.0): AppSession._event_loop, set in __init__ to the running loop.
    """
    loop = getattr(session, "_event_loop", None)
    return loop if isinstance(loop, asyncio.AbstractEventLoop) else None


def session_runner_stopped(session: object) -> bool:
    """Whether an AppSession's ScriptRunner takes no more requests: its run is over and
    its thread ending (False when there is none, or it cannot be told).

    Reads (1.67.0): AppSession._scriptrunner, ScriptRunner._requests (ScriptRequests) and
    its _state, ScriptRequestType.STOP once on_scriptrunner_ready found nothing queued.

    >>> class Session:  # nothing of Streamlit's: never counted as stopped
    ...     pass
    >>> session_runner_stopped(Session()), session_runner_stopped(None)
    (False, False)
    """
    try:
        from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType
    except ImportError:
        return False
    requests = getattr(getattr(session, "_scriptrunner", None), "_requests", None)
    return getattr(requests, "_state", None) is ScriptRequestType.STOP


# --- heavy work's checks (ui/server/heavy_work.py) ------------------------------------------


def run_session_id() -> str | None:
    """The id of the session whose script run this thread is (None outside a script run,
    or when Streamlit's internals moved: heavy work then asks nothing while it waits).

    Reads (1.67.0): get_script_run_ctx(suppress_warning=True).session_id.
    """
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
        return None if ctx is None else str(ctx.session_id)
    except Exception:
        return None


def run_yield_check() -> Callable[[], None] | None:
    """This script run's check for a pending stop or rerun: called, it raises Streamlit's
    own stop/rerun signal when the run should end (Cancel pressed, the browser gone).
    None outside a script run or when this Streamlit has none (Cancel is then noticed when
    the work ends, at the run's next element).

    Reads (1.67.0): ScriptRunContext.yield_check (what a cached function's wait calls).
    """
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
    except Exception:
        return None
    check = getattr(ctx, "yield_check", None)
    return check if callable(check) else None


def session_connected(session_id: str) -> bool:
    """Whether the server's runtime still has this session connected; True without a
    runtime (AppTest) or when it cannot be asked ("session known": work goes on).

    Reads (1.67.0): streamlit.runtime.exists(), get_instance().is_active_session(id).
    """
    try:
        from streamlit import runtime

        if not runtime.exists():
            return True
        return bool(runtime.get_instance().is_active_session(session_id))
    except Exception:
        return True


def client_remote_ip() -> str | None:
    """The address this script run's browser connects from, loopback included (public
    `st.context.ip_address` gives None for 127.0.0.1 and ::1, so a script on this machine
    would go uncounted); None outside a served session (AppTest) or when it cannot be read.

    Reads (1.67.0): get_script_run_ctx().session_id, runtime.get_instance()
    .get_client(id).client_context.remote_ip (what st.context.ip_address reads).
    """
    try:
        from streamlit import runtime
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
        if ctx is None or not runtime.exists():
            return None
        client = runtime.get_instance().get_client(ctx.session_id)
        address = getattr(getattr(client, "client_context", None), "remote_ip", None)
    except Exception:
        return None
    return address if isinstance(address, str) and address else None


# --- charts converted once (ui/views/shared_charts.py) --------------------------------------


def _altair_converter() -> Callable[[AltairChart], dict[str, Any]] | None:
    """Streamlit's own altair conversion, if it is there and takes one chart."""
    try:
        from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec
    except ImportError:
        return None
    required = [
        p
        for p in inspect.signature(_convert_altair_to_vega_lite_spec).parameters.values()
        if p.default is inspect.Parameter.empty
    ]
    return _convert_altair_to_vega_lite_spec if len(required) == 1 else None


_TO_VEGA_LITE = _altair_converter()


def converts_altair() -> bool:
    """Whether `altair_to_vega_lite` can convert here (else draw with st.altair_chart)."""
    return _TO_VEGA_LITE is not None


def altair_to_vega_lite(chart: AltairChart) -> dict[str, Any]:
    """An altair chart as the Vega-Lite spec st.altair_chart sends: no altair default
    theme, no 5,000-row limit, each dataframe in `datasets` as Arrow bytes (which
    st.vega_lite_chart passes on unconverted); converted under Streamlit's lock on
    altair's global theme and data transformer, so another session's st.altair_chart
    cannot swap them mid-way. Ask `converts_altair()` first.

    Reads (1.67.0): streamlit.elements.vega_charts._convert_altair_to_vega_lite_spec(chart).
    """
    if _TO_VEGA_LITE is None:
        raise RuntimeError("this Streamlit has no altair conversion: draw with st.altair_chart")
    return _TO_VEGA_LITE(chart)


# --- a fragment's error (ui/views/section.py) -----------------------------------------------


class _NeverRaised(Exception):
    """Stands in for FragmentHandledException in a Streamlit without it."""


def _fragment_handled() -> type[Exception]:
    try:
        from streamlit.errors import FragmentHandledException
    except ImportError:
        return _NeverRaised
    return FragmentHandledException


# Raised out of a fragment (drawn in a full run) whose exception Streamlit has already
# shown in its place. Read from streamlit.errors (1.67.0); without it, a section catches
# the fragment's error as its own and shows its message beside Streamlit's.
FragmentHandled: type[Exception] = _fragment_handled()


# --- the server's configuration (ui/classroom/panel.py) -------------------------------------


def option_set_by_user(name: str) -> bool:
    """Whether a config option ("browser.serverAddress") was set by the user, not left
    at Streamlit's default (st.get_option cannot tell "localhost" set from default);
    False when it cannot be told.

    Reads (1.67.0): streamlit.config.is_manually_set(name).
    """
    try:
        return bool(_config.is_manually_set(name))
    except Exception:
        return False
