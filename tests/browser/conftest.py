"""Fixtures of the real-browser suite: a Streamlit server on a free port, Debian's chromium.

pytest-playwright provides `page` (a fresh browser context per test, so a fresh Streamlit
session); this file points it at /usr/bin/chromium, starts one server for the whole run,
and has the helpers the journeys share: wait until Streamlit is idle, follow a sidebar
link, read the sidebar's tokenizer, commit a text area.

Without /usr/bin/chromium the tests skip, except under CI=true, where they fail: CI must
run them (scripts/test.sh installs chromium when it can).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Locator, Page, WebSocket, expect

from explorer import train
from harness.app_server import (
    BUSY,
    CHROMIUM,
    CHROMIUM_ARGS,
    IdleWatch,
    Server,
    start_server,
    stop_server,
)
from harness.ws_client import connected
from tests.app_support import pasted_name
from ui.server.streamlit_internals import BackMsg, ForwardMsg

ROOT = Path(__file__).resolve().parents[2]
MISSING_CHROMIUM = "Debian's chromium is missing: apt-get install chromium"
ARTIFACTS = ROOT / "artifacts" / "browser"
VIEWPORT = {"width": 1400, "height": 1000}
IDLE_SECONDS = 60  # the longest a page may keep running before a helper gives up
QUIET_SECONDS = 1.0  # no script running for this long: Streamlit has settled
# With the page's websocket watched (ScriptRuns), a rerun asked for is seen as it is sent,
# so the quiet period only has to outlast a frame's trip, not guess at one
WATCHED_QUIET_SECONDS = 0.15
# a test's own screenshots when it passed too (for looking at pages by hand): each is
# 0.1-0.7 s of a worker's time, and CI reads only a failure's
EVERY_SCREENSHOT = os.environ.get("BPE_EXPLORER_TEST_SCREENSHOTS") == "1"
CALL_FAILED = pytest.StashKey[bool]()
SAMPLE_TOKENIZER = "Shakespeare · gpt4 · 2k"  # the tokenizer every new session opens on
expect.set_options(timeout=20_000)  # a loaded 2-core machine can take more than the 5 s default


def require_chromium() -> None:
    """Skip without Debian's chromium; under CI=true, fail, since CI must run these tests."""
    if CHROMIUM.exists():
        return
    if os.environ.get("CI") == "true":
        pytest.fail(MISSING_CHROMIUM, pytrace=False)
    pytest.skip(MISSING_CHROMIUM)


def pytest_configure(config: pytest.Config) -> None:
    # pytest-playwright 0.10's own base_url fixture trips a pytest 9 deprecation warning
    config.addinivalue_line(
        "filterwarnings", "ignore:Session-scoped fixtures defined as instance methods"
    )


# --- the server (harness/app_server.py) -------------------------------------------------


@contextlib.contextmanager
def serving(log: Path, env: dict[str, str] | None = None) -> Iterator[Server]:
    """A server for a fixture's `with`: started (a start that fails fails the test in one
    line, the server's own words), then stopped.

        with serving(tmp_path / "server.log", {"HF_HUB_OFFLINE": "1"}) as server:
            yield server
    """
    try:
        server = start_server(log, env)
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        stop_server(server)


@pytest.fixture(scope="session")
def streamlit_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the whole browser suite; each test's new context is a new session."""
    require_chromium()  # no browser, no need for a server
    with serving(tmp_path_factory.mktemp("streamlit") / "server.log") as server:
        warm_up(server)
        yield server


def warm_up(server: Server, timeout_s: float = 3 * IDLE_SECONDS) -> None:
    """One session's first run, over a websocket, before any test's page: the server's
    imports, its sample run and its other pages' imports (ui/session/warm_up.py) are then
    done, and no test's first page pays for them inside its own waits.

    subtle: in two CI runs the first browser test of a worker, on a new server beside two
    others starting, saw the page's text but not its widgets within the test's wait; a
    fresh server's first request is tested on its own servers (test_deep_links.py,
    test_persistence.py). A warm-up that fails is left to the tests to report.
    """

    async def first_run() -> None:
        async with connected(server.port) as client:
            await client.rerun(timeout=timeout_s)

    def in_its_own_loop() -> None:
        with contextlib.suppress(Exception):  # the tests meet the same server and say so
            asyncio.run(first_run())

    worker = threading.Thread(target=in_its_own_loop)
    worker.start()  # a thread: a worker that ran Playwright has an event loop running
    worker.join(timeout_s + 10)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed browser test shows the end of the server's log."""
    report = yield
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed  # blank_page's screenshot reads it
    server = getattr(item, "funcargs", {}).get("streamlit_server")
    if report.failed and isinstance(server, Server) and server.log.exists():
        report.sections.append(("streamlit server log (tail)", server.log_tail()))
    return report


# --- the browser (pytest-playwright's fixtures, pointed at Debian's chromium) -------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    require_chromium()
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": VIEWPORT, "accept_downloads": True}


@pytest.fixture
def dialogs(page: Page) -> list[str]:
    """Every alert, confirm or prompt the page opens (dismissed at once); should stay empty."""
    opened: list[str] = []

    def record(dialog: Any) -> None:
        opened.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", record)
    return opened


@pytest.fixture
def blank_page(page: Page, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A new browser context's page, not yet on the app, for a test whose first step opens
    an address of its own (each goto is a new session, so `app`'s first page would only
    be thrown away); its script runs watched; a screenshot if it failed.

    The screenshot goes to artifacts/browser/<test name>.png (passed ones too with
    BPE_EXPLORER_TEST_SCREENSHOTS=1).
    """
    page.set_default_timeout(IDLE_SECONDS * 1000)
    ScriptRuns.watch(page)
    yield page
    if not (EVERY_SCREENSHOT or request.node.stash.get(CALL_FAILED, True)):
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{request.node.originalname}.png"), full_page=True)


@pytest.fixture
def app(blank_page: Page, streamlit_server: Server) -> Page:
    """Train in a new session, trained sample shown; a screenshot if it failed. (Train has
    its own address, /train; the address with no path is the front door.)"""
    blank_page.goto(streamlit_server.url + "train")
    wait_until_idle(blank_page)
    # a fresh server's first page can draw its text before its widgets on a loaded machine
    # (a CI run saw the page idle, its sidebar's menu not yet there after 20 s)
    expect(sidebar_tokenizer_input(blank_page)).to_have_value(
        SAMPLE_TOKENIZER, timeout=IDLE_SECONDS * 1000
    )
    return blank_page


# --- helpers the journeys share ----------------------------------------------------------


class ScriptRuns:
    """What a page's websocket says about its script runs: a rerun the page asked for
    (BackMsg.rerun_script) is pending until the server finishes it (a script_finished that
    is not "finished early for a rerun": `st.rerun()` goes on by itself), and the server's
    session status says whether a script is running.

    The DOM's busy signs (BUSY) only show once the server has started the run; these frames
    show the gap between a click and that start, which a long quiet period had to cover.
    """

    _EARLY = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN

    def __init__(self) -> None:
        self.pending = False  # a rerun was asked for and has not finished
        self.running = False  # the server's last session status
        self.asked_at = 0.0

    @classmethod
    def watch(cls, page: Page) -> ScriptRuns:
        """Start watching a page's websockets; call before the page opens the app. A page
        already watched keeps its watcher."""
        if (known := _WATCHED.get(page)) is not None:
            return known
        runs = cls()
        page.on("websocket", runs._attach)
        _WATCHED[page] = runs
        return runs

    @classmethod
    def of(cls, page: Page) -> ScriptRuns | None:
        return _WATCHED.get(page)

    def busy(self, now: float) -> bool:
        # a rerun that nothing answers for 10 s is left to the DOM signs and the quiet period
        stale = self.pending and not self.running and now - self.asked_at > 10
        return self.running or (self.pending and not stale)

    def _attach(self, socket: WebSocket) -> None:
        socket.on("framesent", self._sent)
        socket.on("framereceived", self._received)
        socket.on("close", self._closed)

    def _closed(self, _socket: WebSocket) -> None:
        """A closed socket runs nothing: what it said no longer holds (a reload opens anew)."""
        self.pending = self.running = False

    def _sent(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes) and BackMsg.FromString(payload).HasField("rerun_script"):
            self.pending, self.asked_at = True, time.monotonic()

    def _received(self, payload: str | bytes) -> None:
        if not isinstance(payload, bytes):
            return
        message = ForwardMsg.FromString(payload)
        kind = message.WhichOneof("type")
        if kind == "session_status_changed":
            self.running = message.session_status_changed.script_is_running
        elif kind == "script_finished" and message.script_finished != self._EARLY:
            self.pending = False


_WATCHED: weakref.WeakKeyDictionary[Page, ScriptRuns] = weakref.WeakKeyDictionary()


def wait_until_idle(page: Page, timeout_s: float = IDLE_SECONDS) -> None:
    """Wait until Streamlit has drawn the page and no script has run for the quiet period
    (WATCHED_QUIET_SECONDS on a page ScriptRuns watches, else QUIET_SECONDS)."""
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=timeout_s * 1000)
    runs = ScriptRuns.of(page)
    quiet = QUIET_SECONDS if runs is None else WATCHED_QUIET_SECONDS
    watch = IdleWatch(quiet_seconds=quiet, timeout_seconds=timeout_s)
    while not watch.settled(
        busy=page.locator(BUSY).count() > 0 or (runs is not None and runs.busy(time.monotonic()))
    ):
        page.wait_for_timeout(50 if runs is not None else 100)


def main_area(page: Page) -> Locator:
    """The page's own content, without the sidebar."""
    return page.locator('[data-testid="stMain"]')


def keyed(page: Page, key: str) -> Locator:
    """The element of a widget by its key (Streamlit gives its container class st-key-KEY)."""
    return page.locator(f".st-key-{key}")


def grid_cells(area: Locator, timeout_s: float = 10.0) -> list[str]:
    """The text of the cells st.dataframe draws (its grid is a canvas; these back it).

    Only the rows in view are there: scroll or search to bring others in. Read in one
    step in the page, and again until two reads agree: a rerun redraws the grid.
    """
    cells = area.locator('[data-testid="stDataFrame"] [role="gridcell"]')
    expect(cells.first).to_be_attached()
    return _settled(
        lambda: cells.evaluate_all("cells => cells.map(cell => cell.textContent)"),
        complete=bool,
        timeout_s=timeout_s,
    )


_GRID_ROWS_JS = """table => [...table.querySelectorAll('[role="row"]')]
    .map(row => [...row.querySelectorAll('[role="gridcell"]')].map(cell => cell.innerText))
    .filter(cells => cells.length > 0)"""


def grid_rows(table: Locator, timeout_s: float = 10.0) -> list[list[str]]:
    """The cells of each row st.dataframe has drawn, read once the grid has settled.

    The grid redraws its rows after a rerun, so one read can catch a row half drawn: the
    rows are read in one step in the page, and again until every row has a cell under
    each header and two reads agree. Only the rows in view are there.
    """
    expect(table.locator('[role="gridcell"]').first).to_be_attached()

    def complete(rows: list[list[str]]) -> bool:
        headers = table.locator('[role="columnheader"]').count()
        return bool(rows) and all(len(cells) >= headers for cells in rows)

    return _settled(lambda: table.evaluate(_GRID_ROWS_JS), complete=complete, timeout_s=timeout_s)


Read = TypeVar("Read")


def _settled(
    read: Callable[[], Read], *, complete: Callable[[Read], bool], timeout_s: float
) -> Read:
    """read() once it is complete and the same twice running (a redraw has finished)."""
    deadline = time.monotonic() + timeout_s
    last: Read | None = None
    while True:
        now = read()
        done = complete(now)
        if done and now == last:
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"the grid did not settle (complete: {done}): {now}")
        last = now if done else None
        time.sleep(0.1)


# A token's hover card is its ::after: whether it shows, and its text (the CSS string
# read: escapes decoded, Unicode isolates dropped), its font size, and what could delay it.
_CARD_JS = r"""token => {
  const after = getComputedStyle(token, '::after'), css = after.content;
  const text = css.startsWith('"') ? css.slice(1, -1).replace(/\\([0-9a-fA-F]{1,6}) ?|\\(.)/g,
    (m, hex, char) => hex ? String.fromCodePoint(parseInt(hex, 16)) : char) : '';
  return {shown: after.display !== 'none' && css !== 'none',
          text: text.replace(/[\u2066-\u2069]/g, ''), fontSize: after.fontSize,
          delay: [after.transitionDuration, after.transitionDelay, after.animationName]};
}"""


def card(token: Locator) -> dict[str, Any]:
    """A token's hover card now: {"shown": bool, "text": str, "fontSize": "14px", "delay":
    [transition duration, transition delay, animation name]}."""
    found: dict[str, Any] = token.evaluate(_CARD_JS)
    return found


def wait_for_card(token: Locator, *, shown: bool = True, timeout_s: float = 5.0) -> str:
    """Wait until the token's card is shown (or hidden); returns its text."""
    deadline = time.monotonic() + timeout_s
    while (now := card(token))["shown"] != shown:
        if time.monotonic() > deadline:
            raise AssertionError(f"the card is {'hidden' if shown else 'shown'}: {now}")
        time.sleep(0.02)
    return str(now["text"])


def go_to(page: Page, title: str) -> None:
    """Follow a sidebar link (a reload would start a new session) and wait for the page."""
    link = page.locator('[data-testid="stSidebarNavLink"]', has_text=title)
    link.click()
    expect(link).to_have_attribute("aria-current", "page")
    wait_until_idle(page)


def open_tab(page: Page, title: str) -> None:
    """Click the tab with this label (Compare runs only its open tab) and wait for it."""
    tab = page.get_by_role("tab", name=title, exact=True).first
    tab.click()
    expect(tab).to_have_attribute("aria-selected", "true")
    wait_until_idle(page)


def sidebar_tokenizer_input(page: Page) -> Locator:
    return page.locator('[data-testid="stSidebar"] input[aria-label="Tokenizer"]')


def sidebar_tokenizer(page: Page) -> str:
    """The name of the tokenizer every page shows (the sidebar's choice)."""
    return sidebar_tokenizer_input(page).input_value()


def sidebar_tokenizers(page: Page) -> list[str]:
    """Every tokenizer the session has, as the sidebar's menu lists them."""
    sidebar_tokenizer_input(page).click()
    options = page.get_by_role("option")
    expect(options.first).to_be_visible()
    names = [name.strip() for name in options.all_inner_texts()]
    page.keyboard.press("Escape")
    expect(options).to_have_count(0)
    return names


def set_text_area(area: Locator, text: str) -> None:
    """Type into a Streamlit text area and commit it (Ctrl+Enter), as a user would."""
    area.fill(text)
    area.press("Control+Enter")


def choose_radio(page: Page, key: str, label: str) -> None:
    """Pick a radio option of the widget with this key, and wait for the rerun."""
    keyed(page, key).get_by_text(label, exact=True).click()
    wait_until_idle(page)


def train_pasted(page: Page, text: str, vocab_size: int, pattern: str = "gpt4") -> str:
    """On Train: paste a text, set the vocab size and pattern, train; returns the run's name."""
    choose_radio(page, "train_source", "Paste text")
    set_text_area(keyed(page, "train_paste").locator("textarea"), text)
    vocab = keyed(page, "train_vocab").locator("input")
    vocab.fill(str(vocab_size))
    vocab.press("Enter")
    wait_until_idle(page)
    if pattern != "gpt4":
        choose_option(page, "train_pattern", pattern)
    click_train(page)
    name = pasted_name(text, trained_size(text, vocab_size, pattern), pattern)
    expect(sidebar_tokenizer_input(page)).to_have_value(name)
    return name


def trained_size(text: str, vocab_size: int, pattern: str = "gpt4") -> int:
    """The vocab size training on text reaches (it stops early when pairs run out)."""
    return train([text], vocab_size, pattern=pattern).tokenizer.vocab_size


def choose_option(page: Page, key: str, starts_with: str) -> None:
    """Pick the option of a selectbox that starts with this text."""
    keyed(page, key).locator("input").click()
    page.get_by_role("option").filter(has_text=starts_with).first.click()
    wait_until_idle(page)


def click_train(page: Page) -> None:
    button = keyed(page, "train_go").get_by_role("button")
    expect(button).to_be_enabled()
    button.click()
    wait_until_idle(page)


def after_step_label(area: Locator, step: int) -> Locator:
    """Animate's "After step N" label over the passage (not the pair table's "after step")."""
    return area.locator(".am-label strong").get_by_text(f"After step {step:,}", exact=True)
