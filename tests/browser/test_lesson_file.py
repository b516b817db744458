"""The lesson file in Chromium, opened from disk with the network blocked: it steps with
its buttons and the keyboard, says what the Animate page says, draws its charts and pair
table, keeps the step in the URL, shows hostile text as text, and passes axe-core; and
the one Animate downloads plays the same way."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from explorer import train
from explorer.training.corpus import count_chunks
from harness.app_server import Server
from scripts.make_lesson import SAMPLE_LESSON
from tests.browser.conftest import (
    IDLE_SECONDS,
    ScriptRuns,
    keyed,
    main_area,
    wait_until_idle,
)
from tests.browser.test_accessibility import BLOCKING, axe_violations, report
from ui.animate.animation import narration
from ui.animate.lesson.page import lesson_html
from ui.session.samples import sample_text

CLASSIC = train("aaabdaaabac", 259, pattern="none")


@pytest.fixture
def offline(page: Page) -> Iterator[list[str]]:
    """Every request the page makes; anything but a file:// one is aborted (and fails the test)."""
    with guarded(page) as requests:
        yield requests


@contextmanager
def guarded(page: Page) -> Iterator[list[str]]:
    """Block the network for this page; afterwards, check nothing left it and no error."""
    requests: list[str] = []

    def guard(route: Route) -> None:
        requests.append(route.request.url)
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            route.abort()

    page.route("**/*", guard)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield requests
    assert requests, "the guard saw no request: it is not in place"
    assert [url for url in requests if not url.startswith("file://")] == []
    assert errors == []


def focus_nothing(page: Page) -> None:
    """Keys go to the page, as after a click on its text (a focused button takes Space)."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")


def test_the_sample_steps_with_buttons_and_keys(page: Page, offline: list[str]) -> None:
    page.goto(SAMPLE_LESSON.as_uri())
    says = [narration(CLASSIC.history, step, CLASSIC.tokenizer) for step in range(4)]
    expect(page.locator("#narration")).to_have_text(says[0])
    expect(page.locator("#narration")).to_have_attribute("aria-live", "polite")
    expect(page.get_by_role("button", name="« First")).to_be_disabled()

    page.get_by_role("button", name="Step ▶").click()
    expect(page.locator("#narration")).to_have_text(says[1])
    expect(page.locator("#step-label")).to_have_text("Step 1 of 3")
    expect(page.locator("#before .h")).to_have_count(4)  # a a, twice
    expect(page.locator("#after .h")).to_have_count(2)  # aa, twice
    expect(page.locator("#after sub")).to_have_count(0)
    page.get_by_label("Show token ids").check()
    expect(page.locator("#after sub").first).to_have_text("256")
    page.get_by_role("button", name="Step ▶").focus()
    page.keyboard.press("ArrowRight")  # the focused button leaves arrows to the page
    expect(page.locator("#narration")).to_have_text(says[2])
    assert page.url.endswith("#step=2")
    page.get_by_role("button", name="◀ Back").click()
    expect(page.locator("#narration")).to_have_text(says[1])
    page.keyboard.press("End")
    expect(page.locator("#narration")).to_have_text(says[3])
    expect(page.get_by_role("button", name="Step ▶")).to_be_disabled()
    page.keyboard.press("Home")
    expect(page.locator("#narration")).to_have_text(says[0])
    page.keyboard.press("ArrowLeft")  # nothing before step 0
    expect(page.locator("#narration")).to_have_text(says[0])

    page.locator("#speed").select_option("4")
    focus_nothing(page)
    page.keyboard.press("Space")  # play to the end; it stops there
    expect(page.get_by_role("button", name="⏸ Pause")).to_be_visible()
    expect(page.locator("#narration")).to_have_text(says[3])
    expect(page.get_by_role("button", name="▶ Play")).to_be_visible()


def test_the_step_is_in_the_url_and_survives_a_reload(page: Page, offline: list[str]) -> None:
    page.goto(SAMPLE_LESSON.as_uri() + "#step=2")
    expect(page.locator("#narration")).to_have_text(
        narration(CLASSIC.history, 2, CLASSIC.tokenizer)
    )
    page.keyboard.press("ArrowRight")
    page.reload()
    expect(page.locator("#step-label")).to_have_text("Step 3 of 3")
    expect(page.locator("#narration")).to_contain_text("This is the last merge")


def test_charts_and_pair_table_are_drawn(page: Page, offline: list[str]) -> None:
    page.goto(SAMPLE_LESSON.as_uri() + "#step=2")
    for chart, title, axis in [
        ("#count-chart", "How often the merged pair occurred", "Pair count (log scale)"),
        ("#length-chart", "Corpus length after each step", "Tokens in the corpus"),
    ]:
        svg = page.locator(chart)
        expect(svg.locator("path.line")).to_have_count(1)
        expect(svg.locator("text.chart-title")).to_have_text(title)
        expect(svg.locator("text.axis-title")).to_have_text(["Step (merges so far)", axis])
        expect(svg.locator("line.marker")).to_have_count(1)
        expect(svg.locator("circle.marker-dot")).to_have_count(1)
    expect(page.locator("#count-chart desc")).to_have_text(
        "Step 2: the merged pair occurred 2 times."
    )
    rows = page.locator("#pairs tbody tr")
    expect(rows).to_have_count(5)  # after 2 merges: aaa b d aaa b a c
    expect(rows.nth(0)).to_contain_text("next: merge 3 → token 258")
    page.keyboard.press("ArrowLeft")  # step 1, as Animate shows it: the table picks merge 2
    expect(page.locator("#table-title")).to_have_text(
        "Pair counts after merge 1: the top pair becomes merge 2"
    )
    expect(rows).to_have_count(6)
    expect(rows.first).to_have_class("winner")
    expect(rows.nth(0)).to_contain_text("aaa")  # ('aa', 'a'): two chips
    expect(rows.nth(0)).to_contain_text("next: merge 2 → token 257, tied")
    expect(rows.nth(1)).to_contain_text("tied")
    expect(page.locator("#table-note")).to_contain_text("shared with 1 other pair")


def test_hostile_text_stays_text(page: Page, offline: list[str], tmp_path: Path) -> None:
    nasty = "</script><b>bold</b> & <img src=x onerror=alert(1)> aaab aaab"
    text = nasty + " " + sample_text("shakespeare")[:3000]
    result = train(text, 300, pattern="gpt4")
    path = tmp_path / "lesson.html"
    path.write_text(
        lesson_html(
            result.history,
            result.tokenizer,
            nasty,
            steps=20,
            chunk_counts=count_chunks([text], "gpt4"),
            title=f"<i>{nasty}</i>",
        ),
        encoding="utf-8",
    )
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(path.as_uri() + "#step=20")
    expect(page.locator("h1")).to_have_text(f"<i>{nasty}</i>")
    shown = page.locator("#after .bpe").inner_text()
    assert "</script><b>bold</b>" in shown.replace("·", " ")
    assert page.locator("main b, main img, main i").count() == 0
    expect(page.locator("#narration")).to_have_text(narration(result.history, 20, result.tokenizer))
    assert dialogs == []


def test_no_serious_accessibility_violation(page: Page, offline: list[str]) -> None:
    page.goto(SAMPLE_LESSON.as_uri() + "#step=1")
    expect(page.locator("#pairs tbody tr")).to_have_count(6)
    token = page.locator(".bpe > span").first
    backgrounds = []
    for scheme in ("light", "dark"):  # the file follows the reader's system setting
        page.emulate_media(color_scheme=scheme)
        expect(page.locator("body")).to_have_css(
            "background-color", "rgb(255, 255, 255)" if scheme == "light" else "rgb(23, 22, 20)"
        )
        backgrounds.append(token.evaluate("t => getComputedStyle(t).backgroundColor"))
        violations = axe_violations(page)  # axe is injected inline: no request
        blocking = [v for v in violations if v["impact"] in BLOCKING]
        assert not blocking, f"{scheme}:\n{report(violations)}"
    assert backgrounds[0] != backgrounds[1]  # the chips' colours follow it too


def test_animate_downloads_a_lesson_that_plays_offline(
    page: Page, streamlit_server: Server, tmp_path: Path
) -> None:
    page.set_default_timeout(IDLE_SECONDS * 1000)
    ScriptRuns.watch(page)  # its reruns seen on the websocket: a short quiet period will do
    page.goto(f"{streamlit_server.url}animate?sample=aaabdaaabac&vocab=259&pattern=none")
    wait_until_idle(page)
    main_area(page).get_by_text("Lesson file: these steps").click()
    button = keyed(page, "animate_lesson_download").get_by_role("button")
    expect(button).to_be_visible()
    wait_until_idle(page)  # subtle: the button opened and still, not mid-rerun (1 CI run of ~40)
    with page.expect_download() as download:
        button.click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "aaabdaaabac-none-259-lesson-3.html"

    lesson = page.context.new_page()
    with guarded(lesson):
        lesson.goto(saved.as_uri())
        lesson.keyboard.press("End")
        expect(lesson.locator("#narration")).to_have_text(
            narration(CLASSIC.history, 3, CLASSIC.tokenizer)
        )
