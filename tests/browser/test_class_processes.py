"""A class on several processes in Chromium (issue 37 §3): a teacher and two students,
each on a Streamlit process of their own behind the stack's nginx
(`bash scripts/run.sh --processes 3`, harness/stack.py), the classes in the stack's Redis.

Each browser gets the proxy's `bpe_process` cookie chosen so that it lands on its own
process (found by trying values, harness/stack.py `cookies_for_each_process`). The teacher
steps and asks; both students answer; then Bo's process is killed (`kill -9`). Bo's open
page reconnects by itself, through the proxy, to a live process: Bo is back in the same
seat (from `class=` and `seat=` in the URL), at the teacher's step, the answer kept; the
teacher's live count still has both answers, and the reveal reaches Bo.

Heavy (three Streamlit processes and three browsers on two cores): scripts/test.sh runs
it alone, after the parallel suite, beside tests/browser/test_class_live.py.
"""

from __future__ import annotations

import os
import signal
import time
import urllib.parse
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.stack import Stack, cookies_for_each_process, running_stack
from tests.browser.conftest import (
    IDLE_SECONDS,
    VIEWPORT,
    after_step_label,
    keyed,
    main_area,
    require_chromium,
    wait_until_idle,
)
from tests.browser.test_class_live import (
    SHOWN_MS,
    answer,
    joined,
    new_page,
    press_until,
    sees,
    shows_step,
)
from tests.stack.conftest import require_stack_programs
from ui.session import state as keys


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    require_chromium()
    require_stack_programs()
    folder = tmp_path_factory.mktemp("class-processes")
    env = {
        "BPE_EXPLORER_RUNS_DIR": str(folder / "runs"),
        "BPE_EXPLORER_PRELOAD": "0",
        "BPE_EXPLORER_REDIS_URL": "",  # the stack's own Redis, whatever this environment names
    }
    with running_stack(folder / "state", 3, env) as running:
        yield running


def on_process(browser: Browser, stack: Stack, cookie: str, dialogs: list[str]) -> Page:
    """A new person whose browser holds the proxy's cookie `cookie`."""
    page = new_page(browser, dialogs, VIEWPORT)
    page.context.add_cookies([{"name": "bpe_process", "value": cookie, "url": stack.url}])
    return page


def one_page_each(stack: Stack) -> dict[int, int]:
    """The pages' websockets per process, once the pages' files have loaded (a page's
    file requests hold connections of their own for a moment; up to 30 s)."""
    counts = stack.established(stack.app_ports())
    for _ in range(60):  # bounded: 60 x 0.5 s
        if all(count <= 1 for count in counts.values()):
            break
        time.sleep(0.5)
        counts = stack.established(stack.app_ports())
    return counts


def seat_of(page: Page) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)["seat"][0]


def test_a_students_process_killed_mid_question_loses_nothing(
    browser: Browser, stack: Stack
) -> None:
    cookies = cookies_for_each_process(stack)
    assert len(cookies) == 3, f"no cookie for each process: {cookies}"
    (teacher_port, teacher_cookie), (ada_port, ada_cookie), (bo_port, bo_cookie) = sorted(
        cookies.items()
    )
    dialogs: list[str] = []
    teacher = on_process(browser, stack, teacher_cookie, dialogs)
    teacher.goto(f"{stack.url}animate")
    wait_until_idle(teacher)
    teacher.get_by_text("Class: join with a code, or teach").click()
    card = keyed(teacher, keys.CLASS_CARD)
    press_until(teacher, keys.CLASS_START, card.locator("img.class-qr"))
    code = card.locator(".class-code").inner_text().strip()
    link = str(card.get_by_role("link").get_attribute("href"))
    link = urllib.parse.urljoin(stack.url, urllib.parse.urlparse(link).path) + (
        "?" + urllib.parse.urlparse(link).query
    )
    ada = on_process(browser, stack, ada_cookie, dialogs)
    bo = on_process(browser, stack, bo_cookie, dialogs)
    for page in (ada, bo):
        page.goto(link, wait_until="commit")
    for page in (ada, bo):
        joined(page, code)
    assert one_page_each(stack) == {teacher_port: 1, ada_port: 1, bo_port: 1}

    for step in (1, 2):
        press_until(teacher, keys.ANIMATE_NEXT, after_step_label(main_area(teacher), step))
    for page in (ada, bo):
        shows_step(page, 2)
    press_until(teacher, keys.CLASS_ASK, sees(teacher, "Answered: 0 of 2 students"))
    for page, option in ((ada, 0), (bo, 1)):
        expect(keyed(page, keys.CLASS_ANSWER)).to_be_visible(timeout=SHOWN_MS)
        answer(page, option)
    expect(sees(teacher, "Answered: 2 of 2 students")).to_be_visible(timeout=SHOWN_MS)
    bo_seat, bo_banner = seat_of(bo), sees(bo, "Following the teacher").inner_text()

    os.kill(stack.app_pid(bo_port), signal.SIGKILL)
    # Bo's page reconnects by itself; the proxy sends it to a live process, a new session
    # there opens Bo's URL: the same seat, the teacher's step, the answer kept
    expect(sees(bo, "Your answer is in")).to_be_visible(timeout=IDLE_SECONDS * 1000)
    expect(sees(bo, "Following the teacher")).to_have_text(bo_banner, timeout=SHOWN_MS)
    assert seat_of(bo) == bo_seat
    shows_step(bo, 2)
    expect(sees(teacher, "Answered: 2 of 2 students")).to_be_visible(timeout=SHOWN_MS)
    press_until(teacher, keys.CLASS_REVEAL, sees(teacher, "of 2 answers"))
    for page in (ada, bo):
        expect(sees(page, "of 2 answers")).to_be_visible(timeout=SHOWN_MS)
        shows_step(page, 3)
        expect(sees(page, "Following the teacher")).to_be_visible(timeout=SHOWN_MS)
    assert not dialogs
