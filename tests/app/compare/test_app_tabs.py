"""Compare's tabs (ui/compare/sections.py): only the open tab's sections run, a link
names the tab (`?compare_section=`), and every section is in exactly one tab."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from explorer.files import bundled
from tests.app_support import open_app, open_compare, open_tab, texts_of
from ui.session import state as keys

# each section's function, as pages/compare.py looks it up at each run
SECTIONS = {
    "curve": "ui.compare.curve.curve_section",
    "heldout": "ui.compare.heldout.heldout_section",
    "overlay": "ui.compare.overlay.section.overlay_section",
    "passage": "ui.compare.passage.passage_section",
    "pair": "ui.compare.pair.section.pair_section",
    "languages": "ui.compare.languages.languages_section",
    "growth": "ui.compare.languages.language_growth_section",
    "fairness": "ui.compare.fairness.fairness_section",
    "overlap": "ui.compare.overlap.overlap_section",
}
IN_TAB = {
    "Compression": {"curve", "heldout"},
    "Every run": {"overlay"},
    "One passage": {"passage"},
    "Two tokenizers": {"pair"},
    "Languages": {"languages", "growth", "fairness"},
    "GPT overlap": {"overlap"},
}
HEADERS = {  # the first header each tab draws
    "Compression": "Compression as the vocabulary grows",
    "Every run": "Every run on one text",
    "One passage": "One passage, side by side",
    "Two tokenizers": "Two tokenizers, merge by merge",
    "Languages": "Across 26 languages",
    "GPT overlap": "How much of your vocabulary GPT already has",
}


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sections run since the list was last cleared (each still draws as before)."""
    ran: list[str] = []

    def recorded(name: str, section: Callable[..., None]) -> Callable[..., None]:
        def section_that_says_so(*args: object, **kwargs: object) -> None:
            ran.append(name)
            section(*args, **kwargs)

        return section_that_says_so

    for name, target in SECTIONS.items():
        module, _, function = target.rpartition(".")
        original = getattr(__import__(module, fromlist=[function]), function)
        monkeypatch.setattr(target, recorded(name, original))
    return ran


def test_only_the_open_tab_runs(calls: list[str]) -> None:
    app = open_app("compare", {"sample": "aaabdaaabac"})
    assert [tab.label for tab in app.tabs][: len(IN_TAB)] == list(IN_TAB)
    assert set(calls) == IN_TAB["Compression"]  # no other section computed anything
    assert HEADERS["Compression"] in texts_of(app.header)
    for tab, sections in IN_TAB.items():
        calls.clear()
        open_tab(app, tab)
        assert set(calls) == sections, tab
        headers = texts_of(app.header)
        assert HEADERS[tab] in headers
        assert not {HEADERS[other] for other in IN_TAB if other != tab} & set(headers)


def test_the_first_tab_loads_no_bundled_vocabulary(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compression needs the run alone: a first visitor does not wait for OpenAI's three."""
    loaded: list[str] = []
    original = bundled._kept
    monkeypatch.setattr(
        bundled, "_kept", lambda name, load: loaded.append(name) or original(name, load)
    )
    app = open_app("compare", {"sample": "aaabdaaabac"})
    assert HEADERS["Compression"] in texts_of(app.header) and not loaded
    open_tab(app, "One passage")  # its third view sets yours beside all three
    assert sorted(set(loaded)) == ["cl100k_base", "gpt2", "o200k_base"]


@pytest.mark.parametrize("tab", ["Languages", "Two tokenizers"])
def test_a_link_opens_its_tab(calls: list[str], tab: str) -> None:
    app = open_compare(tab, {"sample": "aaabdaaabac"})
    assert set(calls) >= IN_TAB[tab] and not set(calls) & IN_TAB["Compression"]
    assert HEADERS[tab] in texts_of(app.header)
    assert app.session_state[keys.COMPARE_SECTION] == tab
    assert app.query_params[keys.COMPARE_SECTION] == tab  # the link still says so
    assert app.query_params["sample"] == "aaabdaaabac"  # and still names the run


def test_a_link_to_a_tab_there_is_not_opens_the_first(calls: list[str]) -> None:
    app = open_compare("<b>Nowhere</b>", {"sample": "aaabdaaabac"})
    assert not app.exception
    assert set(calls) == IN_TAB["Compression"]
    assert keys.COMPARE_SECTION not in app.query_params  # the unknown value is dropped


def test_another_page_drops_the_tab_from_its_link() -> None:
    app = open_compare("Languages", {"sample": "aaabdaaabac"})
    app.switch_page("pages/tokens.py").run()
    assert not app.exception and keys.COMPARE_SECTION not in app.query_params
