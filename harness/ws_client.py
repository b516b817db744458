"""A Streamlit session without a browser: the app's own websocket protocol, spoken directly.

bench/load/load_test.py's `--client ws` mode uses it, so thirty sessions cost the machine a
few protobufs each instead of thirty renderers. What it does is what the frontend does:

- connect to `ws://127.0.0.1:PORT/_stcore/stream` with the subprotocol "streamlit" (the
  XSRF token the frontend sends in the same header only unlocks auth cookies, which this
  app has none of, so nothing is switched off on the server);
- send a `BackMsg.rerun_script` (a `ClientState`: page, query string, widget values) and
  read `ForwardMsg`s until the run's `script_finished` (a run ended by `st.rerun()` says
  FINISHED_EARLY_FOR_RERUN and is followed by the next run);
- keep the widget values it set and send them again while their widgets are on screen,
  and name a clicked button's fragment (a delta's `fragment_id`), as the frontend does,
  so the server reruns that fragment alone;
  keep the query string the server sets (`page_info_changed`), and cache the elements the
  server marks cacheable, listing their hashes so the server may send a reference instead.

Widgets are found by their keys: Streamlit names a keyed widget `$$ID-<hash>-<key>`.

    async with connected(port) as client:
        run = await client.rerun()                      # the default page
        run = await client.rerun(values={"train_vocab": ("int_value", 500)})
        run = await client.rerun(trigger="train_go", until="Tokenizer: ")
        print(run.shown_s, run.finished_s, run.texts[:3])
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect

from ui.server.streamlit_internals import BackMsg, ForwardMsg, WidgetState

FINISHED = ForwardMsg.ScriptFinishedStatus
RUN_ENDS = {
    FINISHED.FINISHED_SUCCESSFULLY,
    FINISHED.FINISHED_WITH_COMPILE_ERROR,
    FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,  # a click inside a fragment reruns it alone
}
WIDGET_PREFIX = "$$ID-"
Client = TypeVar("Client", bound="StreamlitClient")


def widget_key(widget_id: str) -> str | None:
    """The user's key inside a widget id: `"$$ID-0a1b-train_go"` -> `"train_go"`."""
    if not widget_id.startswith(WIDGET_PREFIX):
        return None
    parts = widget_id.split("-", 2)
    return parts[2] if len(parts) == 3 and parts[2] != "None" else None


@dataclass
class ScriptRun:
    """What one rerun request brought back, and when (seconds from the request)."""

    texts: list[str] = field(default_factory=list)  # every element's body or label
    kinds: list[str] = field(default_factory=list)  # the element types, in order
    widgets: dict[str, Any] = field(default_factory=dict)  # key -> the widget's proto
    shown_s: float | None = None  # the first element whose text holds `until`
    finished_s: float | None = None  # the last script_finished of the request
    statuses: list[int] = field(default_factory=list)
    messages: int = 0
    fragment_ids: list[str] = field(default_factory=list)  # empty: the whole page ran

    def text_with(self, needle: str) -> str:
        """The first element text that holds `needle` ("" when none does)."""
        return next((text for text in self.texts if needle in text), "")


def element_text(element: Any) -> str:
    """What an element says: a markdown or HTML body, a heading, a label and its value."""
    inner = getattr(element, element.WhichOneof("type"))
    parts = [getattr(inner, name, "") for name in ("label", "body")]
    return " ".join(part for part in parts if isinstance(part, str) and part)


class StreamlitClient:
    """One session: a websocket, the widget values set so far, the page and its query."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.ids: dict[str, str] = {}  # widget key -> its id in the latest run
        self.fragments: dict[str, str] = {}  # widget key -> the fragment that drew it
        self.values: dict[str, WidgetState] = {}  # widget key -> the value we set
        self.pages: dict[str, str] = {}  # url path ("" for the default) -> page hash
        self.page_hash = ""
        self.page_name = ""
        self.query_string = ""
        self.cache: dict[str, ForwardMsg] = {}  # hash -> a cacheable message
        self.session_id = ""  # the server's name for this session (uploads need it)

    def request(self, trigger: str | None) -> BackMsg:
        """The rerun request a browser would send now (plus a button's trigger)."""
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query_string
        state.page_script_hash = self.page_hash
        state.page_name = self.page_name
        state.cached_message_hashes.extend(self.cache)
        for key, value in self.values.items():
            if key in self.ids:  # a browser sends the values of widgets on screen
                value.id = self.ids[key]
                state.widget_states.widgets.append(value)
        if trigger is not None:
            state.widget_states.widgets.append(
                WidgetState(id=self.ids[trigger], trigger_value=True)
            )
            state.fragment_id = self.fragments.get(trigger, "")
        return message

    async def rerun(
        self,
        *,
        page: str | None = None,
        query: str | None = None,
        values: dict[str, tuple[str, Any]] | None = None,
        trigger: str | None = None,
        until: str | None = None,
        timeout: float = 120,
    ) -> ScriptRun:
        """Request a run (another page, a query, new widget values, a click) and read it."""
        if page is not None:  # as a sidebar link: the page, and no query of the old one
            self.page_name, self.page_hash = page, self.pages.get(page, "")
            self.query_string = query or ""
        elif query is not None:
            self.query_string = query
        for key, (kind, value) in (values or {}).items():
            self.values[key] = WidgetState(**{kind: value})
        started = time.monotonic()
        await self.socket.send(self.request(trigger).SerializeToString())
        return await asyncio.wait_for(self.read_run(started, until), timeout)

    async def read_run(self, started: float, until: str | None) -> ScriptRun:
        run = ScriptRun()
        while True:
            message = ForwardMsg()
            message.ParseFromString(await self.socket.recv())
            run.messages += 1
            kind = message.WhichOneof("type")
            if kind == "ref_hash":
                message = self.cache[message.ref_hash]
                kind = "delta"
            if kind == "delta":
                self.read_delta(message, run, until, started)
            elif kind == "navigation":
                self.read_navigation(message)
            elif kind == "page_info_changed":
                self.query_string = message.page_info_changed.query_string
            elif kind == "new_session":
                self.page_hash = message.new_session.page_script_hash
                self.session_id = message.new_session.initialize.session_id or self.session_id
                run.fragment_ids = list(message.metadata.run.fragment_ids)
                if not message.metadata.run.fragment_ids:
                    # a new run of the page: the widgets on screen are the ones it draws
                    # (a fragment's run leaves the others where they are)
                    self.ids, self.fragments = {}, {}
            elif kind == "script_finished":
                run.statuses.append(message.script_finished)
                if message.script_finished in RUN_ENDS:
                    run.finished_s = time.monotonic() - started
                    return run

    def read_delta(self, message: ForwardMsg, run: ScriptRun, until: str | None, t0: float) -> None:
        if message.metadata.cacheable:
            self.cache[message.hash] = message
        if message.delta.WhichOneof("type") != "new_element":
            return
        element = message.delta.new_element
        kind = str(element.WhichOneof("type"))  # a new element always has one
        inner = getattr(element, kind)
        key = widget_key(getattr(inner, "id", "") or "")
        if key is not None:
            self.ids[key] = inner.id
            self.fragments[key] = message.delta.fragment_id
            run.widgets[key] = inner
        text = element_text(element)
        run.kinds.append(kind)
        run.texts.append(text)
        if until is not None and run.shown_s is None and until in text:
            run.shown_s = time.monotonic() - t0

    def read_navigation(self, message: ForwardMsg) -> None:
        navigation = message.navigation
        self.pages = {page.url_pathname: page.page_script_hash for page in navigation.app_pages}
        self.page_hash = navigation.page_script_hash


def device_address(index: int) -> str:
    """A loopback address of its own for device `index` (Linux routes all of 127/8 to
    this machine), so a room's devices are told apart as on a real network.

    >>> device_address(0), device_address(300)
    ('127.0.1.1', '127.0.2.46')
    """
    return f"127.0.{1 + index // 255}.{1 + index % 255}"


@asynccontextmanager
async def connected(
    port: int,
    kind: type[Client] = StreamlitClient,  # type: ignore[assignment]  # python/mypy#3737
    *,
    source: str | None = None,
    cookie: str | None = None,
) -> AsyncIterator[Client]:
    """A new session on the app at 127.0.0.1:port (closed, and so ended, on exit);
    `kind`: a subclass of StreamlitClient that reads more of what comes; `source`: the
    loopback address to connect from (`device_address(k)`: one device of a room each, as
    the server's per-client bounds count them), else 127.0.0.1; `cookie`: the Cookie
    header a browser would send (the stack's proxy keeps a browser on one process by it)."""
    async with connect(
        f"ws://127.0.0.1:{port}/_stcore/stream",
        subprotocols=["streamlit"],  # type: ignore[list-item]
        max_size=None,  # a page's elements may be megabytes
        ping_interval=None,  # as the frontend: no protocol-level pings to miss under load
        open_timeout=120,
        local_addr=(source, 0) if source else None,
        additional_headers={"Cookie": cookie} if cookie else None,
    ) as socket:
        yield kind(socket)
