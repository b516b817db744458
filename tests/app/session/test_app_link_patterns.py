"""A link's pattern that is huge to compile or slow to match opens the sample on its own
pattern, with a notice, never the error screen (issue 21); each page view has one regex
budget. The budgets are patched small so that each test is quick; no test times anything."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

import explorer.encoding.pretokenize
import ui.session.run_cache
import ui.shell
from tests.app_support import open_app, texts_of
from ui.server.lru import SharedLru
from ui.session import opening
from ui.session import state as keys
from ui.session.samples import SAMPLES

HUGE = "(?:(?:a{100}){100}){1000}"  # issue 21: 1.4 GB per distinct link
SLOW = r"(?:[\w\s]|\w\s)+\d"  # issue 21: an uncaught PatternError in init_session after 8 s


@pytest.fixture(autouse=True)
def fresh_memory_of_slow_patterns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opening, "_SLOW_LINK_PATTERNS", SharedLru(opening.SLOW_LINK_PATTERNS_KEPT))


def notices(app) -> list[str]:
    """The link-pattern notices, as a reader sees them (texts_of undoes markdown's escapes)."""
    return [text for text in texts_of(app.warning) if "pre-tokenizer pattern" in text]


def the_run(app):
    runs = list(app.session_state[keys.RUNS].values())
    assert len(runs) == 1, runs
    return runs[0]


def test_a_huge_pattern_opens_the_sample_on_its_own_pattern() -> None:
    app = open_app(query={"sample": "aaabdaaabac", "pattern": HUGE})
    assert not app.exception
    [notice] = notices(app)
    assert f"pattern {HUGE} was not used" in notice and "counted repeats multiply" in notice
    assert "its own pattern, none" in notice
    run = the_run(app)
    assert run.pattern == SAMPLES["aaabdaaabac"].pattern and run.vocab_size == 259


def test_a_slow_pattern_opens_the_sample_on_its_own_pattern(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(explorer.encoding.pretokenize, "CUSTOM_TIMEOUT_SECONDS", 0.1)
    monkeypatch.setattr(explorer.encoding.pretokenize, "CUSTOM_TIMEOUT_SECONDS_PER_MB", 0.0)
    # a child Python would not see the patched seconds: train this custom regex here
    monkeypatch.setattr(ui.session.run_cache, "trains_here", lambda *_: True)
    app = open_app(query={"sample": "shakespeare", "pattern": SLOW})
    assert not app.exception
    [notice] = notices(app)
    assert "took longer than 0.1 s on this text" in notice
    run = the_run(app)
    assert (run.pattern, run.vocab_size) == (SAMPLES["shakespeare"].pattern, 2000)  # trained
    assert app.query_params["pattern"] != SLOW  # the link now says what is shown
    again = open_app(query={"sample": "shakespeare", "pattern": SLOW})  # another visitor
    assert notices(again) == [notice] and not again.exception  # told at once, not retrained


def test_the_page_views_budget_holds_the_links_training(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ui.shell, "PAGE_REGEX_SECONDS", 0.1)  # the training's own is 8 s
    app = open_app(query={"sample": "shakespeare", "pattern": SLOW})
    assert not app.exception
    [notice] = notices(app)
    assert "took longer than 0.1 s in all on this page" in notice
    assert the_run(app).pattern == SAMPLES["shakespeare"].pattern


def test_an_ordinary_custom_pattern_in_a_link_is_trained_without_a_notice() -> None:
    app = open_app(query={"sample": "aaabdaaabac", "pattern": r"\w{1,3}"})
    assert not app.exception and not notices(app)
    assert the_run(app).pattern == r"\w{1,3}"


def test_a_pattern_error_no_section_caught_is_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page that encodes many things with a custom pattern stops when the page view's
    budget is spent, and says so; here the budget is nothing, so the first encode stops."""

    def page_encoding_many_texts() -> None:
        import streamlit as st

        from explorer import Tokenizer
        from ui.shell import within_page_regex_budget

        @within_page_regex_budget
        def draw() -> None:
            tokenizer = Tokenizer(pattern=r"\w+|\s+")
            for n in range(5):
                st.write(len(tokenizer.encode(f"text number {n}")))

        draw()

    monkeypatch.setattr(ui.shell, "PAGE_REGEX_SECONDS", 0.0)
    app = AppTest.from_function(page_encoding_many_texts, default_timeout=30).run()
    assert not app.exception
    [error] = texts_of(app.error)
    assert error.startswith("The pre-tokenizer regex '\\\\w+|\\\\s+' took longer than 0 s")
    assert error.endswith(
        "in all on this page (catastrophic backtracking?). Simplify it or choose a preset."
    )
    assert not app.markdown  # nothing was encoded
