"""Runs outlive the tab: a page's URL opens the same view in another browser, after a
restart, and after the server was killed in the middle of saving another run.

The test starts its own servers on a runs folder of its own (BPE_EXPLORER_RUNS_DIR), so
a restart finds exactly what the test left there.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.app_server import Server, start_server, stop_server
from tests.browser.conftest import (
    IDLE_SECONDS,
    SAMPLE_TOKENIZER,
    ScriptRuns,
    after_step_label,
    go_to,
    keyed,
    main_area,
    require_chromium,
    sidebar_tokenizer,
    train_pasted,
    wait_until_idle,
)
from ui.session.run_store import PAUSE_VARIABLE

TEXT = "How much wood would a woodchuck chuck if a woodchuck could chuck wood? " * 12
OTHER = "She sells sea shells by the sea shore; the shells she sells are sea shells. " * 12


class Servers:
    """Servers of one test, one after another, on one runs folder."""

    def __init__(self, folder: Path, logs: Path) -> None:
        self.folder, self.logs, self.started = folder, logs, []

    def start(self, **env: str) -> Server:
        log = self.logs / f"server{len(self.started)}.log"
        server = start_server(log, env={"BPE_EXPLORER_RUNS_DIR": str(self.folder), **env})
        self.started.append(server)
        return server


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Servers]:
    require_chromium()
    made = Servers(tmp_path / "runs", tmp_path)
    yield made
    for server in made.started:
        stop_server(server)


# a fresh server's first page (imports, the run read from disk, the bundled vocabularies'
# preload beside it) took over 60 s once in CI, three test workers on two cores
FIRST_PAGE_SECONDS = 3 * IDLE_SECONDS


def open_page(browser: Browser, url: str, timeout_s: float = FIRST_PAGE_SECONDS) -> Page:
    """The URL in a new browser context: a new session, as another person's browser."""
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.set_default_timeout(IDLE_SECONDS * 1000)
    ScriptRuns.watch(page)  # its reruns seen on the websocket: a short quiet period will do
    page.goto(url, timeout=timeout_s * 1000)
    wait_until_idle(page, timeout_s)
    return page


def step_forward(page: Page, times: int) -> None:
    for _ in range(times):
        keyed(page, "animate_next").get_by_role("button").click()
        wait_until_idle(page)


def expect_step(page: Page, step: int) -> None:
    expect(after_step_label(main_area(page), step)).to_be_visible()


def test_a_link_outlives_the_tab_a_restart_and_a_kill_while_saving(
    browser: Browser, servers: Servers, tmp_path: Path
) -> None:
    """One run, trained once, through both stories in turn: its link opens the same run
    and step in another browser and after a clean restart; then a second run's save is
    cut short by SIGKILL, and after the next start the first run is whole, the cut one
    is said to be gone and a file damaged by hand is said to be damaged.

    (Two tests did this with four servers and two trainings of TEXT; the pause file only
    acts once it exists, so both servers may have its variable from the start.)"""
    pause = tmp_path / "pause-saves"
    server = servers.start(**{PAUSE_VARIABLE: str(pause)})
    page = open_page(browser, server.url + "train")  # Train: "/" is the front door
    name = train_pasted(page, TEXT, 290)
    go_to(page, "Animate merges")
    step_forward(page, 3)
    expect_step(page, 3)
    url = page.url
    assert "run=" in url and "animate_step=3" in url

    elsewhere = open_page(browser, url)  # another browser: no shared session
    assert sidebar_tokenizer(elsewhere) == name
    expect_step(elsewhere, 3)
    for done in (page, elsewhere):  # pages left open would only try to reconnect
        done.context.close()

    stop_server(server)  # a clean stop (SIGTERM), then a new process on the same folder
    restarted = servers.start(**{PAUSE_VARIABLE: str(pause)})
    kept_url = url.replace(server.url, restarted.url)
    again = open_page(browser, kept_url)
    assert sidebar_tokenizer(again) == name
    expect_step(again, 3)
    expect(main_area(again).locator('[data-testid="stAlert"]')).to_have_count(0)
    again.context.close()

    page = open_page(browser, restarted.url + "train")
    pause.touch()  # the next save stops between its temporary file and the rename
    keyed(page, "train_source").get_by_text("Paste text", exact=True).click()
    area = keyed(page, "train_paste").locator("textarea")
    area.fill(OTHER)
    area.press("Control+Enter")
    wait_until_idle(page)
    click_train_without_waiting(page)
    temporary = wait_for_file(servers.folder, ".tmp")
    restarted.process.kill()  # SIGKILL: no clean-up of any kind
    restarted.process.wait(timeout=30)
    half_key = temporary.name.split(".")[1]
    damaged = servers.folder / f"{'f' * 16}.run"  # a run cut short on disk, by hand
    kept_file = next(servers.folder.glob("*.run"))
    damaged.write_bytes(kept_file.read_bytes()[:200])

    base = servers.start().url
    lost = open_page(browser, f"{base}animate?run={half_key}")
    expect(main_area(lost).get_by_text("no longer on this server")).to_be_visible()
    assert sidebar_tokenizer(lost) == SAMPLE_TOKENIZER
    broken = open_page(browser, f"{base}?run={'f' * 16}")
    expect(main_area(broken).get_by_text("damaged")).to_be_visible()
    expect(broken.get_by_text("Traceback")).to_have_count(0)
    whole = open_page(browser, kept_url.replace(restarted.url, base))
    assert sidebar_tokenizer(whole) == name
    expect_step(whole, 3)
    expect(main_area(whole).get_by_text("no longer on this server")).to_have_count(0)


def click_train_without_waiting(page: Page) -> None:
    button = keyed(page, "train_go").get_by_role("button")
    expect(button).to_be_enabled()
    button.click()


def wait_for_file(folder: Path, suffix: str) -> Path:
    """The first file in folder with this suffix, once a save has written it."""
    deadline = time.monotonic() + IDLE_SECONDS
    while time.monotonic() < deadline:
        found = [path for path in folder.iterdir() if path.suffix == suffix]
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError(f"no {suffix} file appeared in {folder}")
