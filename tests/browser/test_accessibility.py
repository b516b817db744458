"""WCAG 2.1 AA on every page, light and dark: axe-core finds no serious or critical violation.

axe-core (tests/browser/vendor/axe.min.js, see the README there) runs in Chromium on each
page at 1440 x 900 once Streamlit has settled: the five pages on the trained sample, the
presenter view (Animate with the sidebar's toggle on), and Train after training a pasted
text. A failure lists every violation of any impact, with the elements it found, so the
message alone says what to fix.

Each page is checked in both colour schemes in one session, the second by turning the
browser's system setting over (prefers-color-scheme) while the page is open: the app's
theme follows it without a reload, and so must the HTML it draws. The run after training
opens dark, so a session that starts dark is checked too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import go_to, keyed, train_pasted, wait_until_idle

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
VIEWPORT = {"width": 1440, "height": 900}
BLOCKING = ("serious", "critical")
ALSO_BLOCKING = {"heading-order"}  # moderate, but sections under the title were h3 once
PAGES = ["Train", "Animate merges", "Tokens", "Vocabulary", "Compare"]
PASTED = "The pair of pears paired up. Then the pair of pairs paired again, and again. " * 6


def settle(page: Page, *, quiet: bool = True) -> None:
    """Wait until the page's script has drawn its title and every lazily loaded widget and
    chart, and (when `quiet`) Streamlit is idle: a class student's page checks the class
    every 0.5 s, drawing nothing, and a busy machine may leave it no quiet period."""
    page.locator('[data-testid="stMain"] h1').first.wait_for()
    if quiet:
        wait_until_idle(page)
    page.wait_for_selector('[data-testid="stSkeleton"]', state="detached", timeout=30_000)
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
                 .every(chart => chart.querySelector('svg.marks, canvas'))""",
        timeout=30_000,
    )


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is, with its default rules (WCAG 2.x A and
    AA, and best practice)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']}))
           .violations.map(v => ({
               id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.map(n => ({target: n.target.join(' '),
                                         summary: n.failureSummary || ''})),
           }))"""
    )


def report(violations: list[dict[str, Any]]) -> str:
    """Every violation, worst first, with up to five elements each."""
    order = {"critical": 0, "serious": 1, "moderate": 2, "minor": 3}
    lines = []
    for v in sorted(violations, key=lambda v: order.get(v["impact"], 4)):
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} elements)")
        for node in v["nodes"][:5]:
            summary = " ".join(node["summary"].split())[:240]
            lines.append(f"    {node['target'][:160]}  --  {summary}")
    return "\n".join(lines)


def assert_accessible(page: Page, where: str, *, quiet: bool = True) -> None:
    settle(page, quiet=quiet)
    violations = axe_violations(page)
    blocking = [v for v in violations if v["impact"] in BLOCKING or v["id"] in ALSO_BLOCKING]
    assert not blocking, f"axe-core on {where}:\n{report(violations)}"


def app_scheme(page: Page) -> str:
    """The colour scheme Streamlit's theme gives the app now: "light" or "dark"."""
    return str(
        page.locator('[data-testid="stApp"]').evaluate("app => getComputedStyle(app).colorScheme")
    )


def assert_accessible_in_both_schemes(page: Page, where: str) -> None:
    """Check the page in the scheme it has, then turn the system setting over and again."""
    first = app_scheme(page)
    assert first in ("light", "dark"), first
    assert_accessible(page, f"{where} ({first})")
    other = "light" if first == "dark" else "dark"
    page.emulate_media(color_scheme=other)
    expect(page.locator('[data-testid="stApp"]')).to_have_css("color-scheme", other)
    assert_accessible(page, f"{where} ({other})")


def test_each_page_has_no_serious_violation(app: Page) -> None:
    """The five pages in turn in one session (a session per page only repeated the first
    page's load); every page is checked, and the failure names each page that failed."""
    app.set_viewport_size(VIEWPORT)
    failures = []
    for title in PAGES:
        if title != "Train":
            go_to(app, title)
        try:
            assert_accessible_in_both_schemes(app, title)
        except AssertionError as failure:
            failures.append(str(failure))
    assert not failures, "\n\n".join(failures)


def test_the_presenter_view_has_no_serious_violation(app: Page) -> None:
    app.set_viewport_size(VIEWPORT)
    go_to(app, "Animate merges")
    keyed(app, "sidebar_present").locator("label").click()
    expect(keyed(app, "sidebar_present").get_by_role("switch")).to_be_checked()
    assert_accessible_in_both_schemes(app, "Animate merges, presenter view")
    # Streamlit's own menu overrides the system setting (dark now), and the HTML follows
    token = app.locator('[data-testid="stMain"] .bpe > span').first
    dark_background = token.evaluate("t => getComputedStyle(t).backgroundColor")
    app.locator('[data-testid="stMainMenu"]').click()
    app.locator('[data-testid="stMainMenuItem-theme-Light"]').click()
    expect(app.locator('[data-testid="stApp"]')).to_have_css("color-scheme", "light")
    light_background = token.evaluate("t => getComputedStyle(t).backgroundColor")
    assert light_background != dark_background
    assert token.evaluate("t => getComputedStyle(t).color") == "rgb(26, 26, 26)"  # #1A1A1A


@pytest.mark.browser_context_args(color_scheme="dark")
def test_train_after_training_has_no_serious_violation(app: Page) -> None:
    assert app_scheme(app) == "dark"  # the system setting, from the first page drawn
    app.set_viewport_size(VIEWPORT)
    train_pasted(app, PASTED, 300)
    assert_accessible_in_both_schemes(app, "Train, after training a pasted text")
