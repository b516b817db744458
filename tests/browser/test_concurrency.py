"""Ten people at once: each trains on their own text and sees only their own tokenizer.

Ten browser contexts (ten Streamlit sessions) paste ten different texts and train at the
same time, each with its own vocab size so the run names differ. Meanwhile the server must
keep answering /_stcore/health. `pytest -s` prints the wall time and the server's peak RSS.

The sync Playwright of pytest-playwright belongs to the main thread, so the ten users run
on the async API in a thread of their own, in one chromium with ten contexts.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.async_api import Browser, Page, async_playwright, expect

from tests.app_support import pasted_name
from tests.browser.conftest import (
    ARTIFACTS,
    BUSY,
    CHROMIUM,
    CHROMIUM_ARGS,
    SAMPLE_TOKENIZER,
    VIEWPORT,
    WATCHED_QUIET_SECONDS,
    IdleWatch,
    ScriptRuns,
    Server,
    trained_size,
)

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "kilo"]
# a bound on the loop, not a speed check: all ten, start to finish (about 15 s on a quiet
# 2-core machine); speed is measured in bench/load/load_test.py
BUDGET_SECONDS = 600
STEP_MS = 90_000  # any one action of one user
MAX_PEAK_RSS = 2 * 1024**3


@dataclass(frozen=True)
class User:
    """One person: a word all their text is made of, and a vocab size nobody else uses."""

    index: int

    @property
    def word(self) -> str:
        return WORDS[self.index]

    @property
    def vocab_size(self) -> int:
        return 300 + self.index

    @property
    def tokenizer(self) -> str:
        return pasted_name(self.text(), trained_size(self.text(), self.vocab_size))

    def text(self) -> str:
        """Their own words only, varied enough to give every merge something to do."""
        return " ".join(f"{self.word}{n % 17} {self.word}s" for n in range(300))


@dataclass(frozen=True)
class Seen:
    """What a user saw after training: the sidebar's choice and menu, the preview's text."""

    current: str
    menu: list[str]
    preview: str


@dataclass
class HealthLog:
    """Polls /_stcore/health in a thread until stopped; keeps every answer."""

    server: Server
    answers: list[bool] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        while not self.stop.is_set():
            self.answers.append(self.server.healthy(timeout=10))
            self.stop.wait(0.5)


async def wait_idle(page: Page, timeout_s: float = STEP_MS / 1000) -> None:
    """conftest.wait_until_idle on a watched page, for the async API: the page's websocket
    (ScriptRuns) shows a rerun from the moment it is asked for, so the quiet period only
    outlasts a frame's trip (a blind 1 s per action, ten pages polling, was most of the
    test's wall time)."""
    runs = ScriptRuns.of(page)  # type: ignore[arg-type]  # its callbacks are API-neutral
    assert runs is not None, "watch the page (ScriptRuns.watch) before it opens the app"
    watch = IdleWatch(quiet_seconds=WATCHED_QUIET_SECONDS, timeout_seconds=timeout_s)
    while not watch.settled(
        busy=await page.locator(BUSY).count() > 0 or runs.busy(time.monotonic())
    ):
        await page.wait_for_timeout(100)


async def sidebar_menu(page: Page) -> list[str]:
    """The sidebar's tokenizer menu, opened and closed again."""
    await page.locator('.st-key-sidebar_run input[aria-label="Tokenizer"]').click()
    options = page.get_by_role("option")
    await options.first.wait_for()
    names = [name.strip() for name in await options.all_inner_texts()]
    await page.keyboard.press("Escape")
    return names


async def train_as(browser: Browser, url: str, user: User) -> Seen:
    """Open the app in a new context, paste the user's text, train, and read the result."""
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    page.set_default_timeout(STEP_MS)
    ScriptRuns.watch(page)  # type: ignore[arg-type]  # before the app opens: every rerun seen
    try:
        await page.goto(url)
        await wait_idle(page)
        await page.locator(".st-key-train_source").get_by_text("Paste text", exact=True).click()
        await wait_idle(page)
        area = page.locator(".st-key-train_paste textarea")
        await area.fill(user.text())
        await area.press("Control+Enter")
        await wait_idle(page)
        vocab = page.locator(".st-key-train_vocab input")
        await vocab.fill(str(user.vocab_size))
        await vocab.press("Enter")
        await wait_idle(page)
        await page.locator(".st-key-train_go button").click()
        sidebar = page.locator('.st-key-sidebar_run input[aria-label="Tokenizer"]')
        await expect(sidebar).to_have_value(user.tokenizer, timeout=STEP_MS)
        await wait_idle(page)
        heading = page.get_by_role("heading", name=f"Tokenizer: {user.tokenizer}")
        await expect(heading).to_be_visible(timeout=STEP_MS)
        preview = await page.locator('[data-testid="stMain"] .bpe').first.inner_text()
        return Seen(await sidebar.input_value(), await sidebar_menu(page), preview)
    except BaseException:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / f"test_concurrency_{user.word}.png"))
        raise
    finally:
        await context.close()


async def everyone(url: str, users: list[User]) -> list[Seen | BaseException]:
    """All users at once in one chromium; an exception stands in for a user who failed."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            runs = asyncio.gather(
                *(train_as(browser, url, u) for u in users), return_exceptions=True
            )
            return await asyncio.wait_for(runs, BUDGET_SECONDS)
        finally:
            await browser.close()


def in_thread(work: Callable[[], list[Seen | BaseException]]) -> list[Seen | BaseException]:
    """Run `work` in a new thread (which has no event loop of pytest-playwright's)."""
    result: list[list[Seen | BaseException]] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            result.append(work())
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=target, name="ten-users")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


def test_ten_sessions_train_at_once_and_stay_apart(streamlit_server: Server) -> None:
    users = [User(i) for i in range(len(WORDS))]
    health = HealthLog(streamlit_server)
    poller = threading.Thread(target=health.run, name="health", daemon=True)
    poller.start()
    started = time.monotonic()
    try:
        outcomes = in_thread(lambda: asyncio.run(everyone(streamlit_server.url + "train", users)))
    finally:
        health.stop.set()
        poller.join(timeout=15)
    seconds = time.monotonic() - started
    peak = streamlit_server.peak_rss_bytes()
    print(
        f"\n{len(users)} sessions trained at once in {seconds:.1f} s; "
        f"server peak RSS (VmHWM) {peak / 2**20:.0f} MiB; "
        f"{sum(health.answers)}/{len(health.answers)} health checks answered"
    )
    failed = {u.word: repr(o) for u, o in zip(users, outcomes) if isinstance(o, BaseException)}
    assert not failed, f"these sessions did not finish: {failed}"
    for user, seen in zip(users, outcomes):
        assert isinstance(seen, Seen)
        assert seen.current == user.tokenizer
        assert seen.menu == [SAMPLE_TOKENIZER, user.tokenizer]
        assert user.word in seen.preview
        others = [w for w in WORDS if w != user.word and w in seen.preview]
        assert not others, f"{user.word}'s session shows text of {others}"
    assert health.answers and all(health.answers)
    assert streamlit_server.healthy()
    assert peak < MAX_PEAK_RSS
