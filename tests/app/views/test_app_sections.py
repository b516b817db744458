"""A section that raises costs that section only (ui/views/section.py): a plain message
there, no traceback, and the rest of the page (and the sidebar) still drawn."""

from __future__ import annotations

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from tests.app_support import APP, TIMEOUT, open_app, texts_of
from ui.views.section import section_message


def broken(*args: object, **kwargs: object) -> None:
    raise RuntimeError("a secret detail that must stay on the server")


def messages(app) -> list[str]:
    return texts_of(app.error)


@pytest.mark.parametrize(
    ("page", "target", "what", "still_there"),
    [
        ("compare", "ui.compare.curve.curve_section", "The compression curve", "Compare"),
        ("vocabulary", "ui.vocabulary.table_view.show_table", "The token table", "Vocabulary"),
        ("tokens", "ui.tokens.summary.show_counts", "The counts", "Tokens"),
        ("train", "ui.train.results.preview", "The training text in tokens", "Train a tokenizer"),
    ],
)
def test_one_failing_section_says_so_and_the_rest_is_drawn(
    monkeypatch: pytest.MonkeyPatch, page: str, target: str, what: str, still_there: str
) -> None:
    app = open_app(page, {"sample": "aaabdaaabac"})
    monkeypatch.setattr(target, broken)  # the page looks it up at each run
    app.run()
    assert not app.exception, app.exception
    assert section_message(what) in messages(app), messages(app)
    assert not any("secret detail" in text for text in messages(app))
    assert still_there in texts_of(app.title)
    assert app.sidebar.selectbox(key="sidebar_run").value  # the sidebar is whole


def test_the_sections_after_a_failing_one_still_run(monkeypatch: pytest.MonkeyPatch) -> None:
    app = open_app("compare", {"sample": "aaabdaaabac"})
    headers_before = texts_of(app.header) + texts_of(app.subheader)
    monkeypatch.setattr("ui.compare.curve.curve_section", broken)
    app.run()
    headers_after = texts_of(app.header) + texts_of(app.subheader)
    assert headers_after and set(headers_after) <= set(headers_before)
    assert len(headers_after) >= len(headers_before) - 1  # only the curve's own is gone


def test_a_failing_sidebar_leaves_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    app = open_app("tokens", {"sample": "aaabdaaabac"})
    monkeypatch.setattr("ui.views.present.presenter_toggle", broken)
    monkeypatch.setattr("ui.shell.presenter_toggle", broken)
    app.run()
    assert not app.exception, app.exception
    assert section_message("The sidebar") in messages(app)
    assert "Tokens" in texts_of(app.title)


def test_rerun_and_stop_pass_through_the_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """st.stop() inside a section ends the run as Streamlit means it to, without a message."""
    app = open_app("compare", {"sample": "aaabdaaabac"})
    monkeypatch.setattr("ui.compare.curve.curve_section", lambda *a, **k: st.stop())
    app.run()
    assert not app.exception and not messages(app)
    assert not texts_of(app.header) + texts_of(app.subheader)  # nothing after the stop


def test_a_failing_fragment_says_so_and_the_page_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Animate's stage is a fragment (it reruns alone): its body is guarded too."""
    app = open_app("animate", {"sample": "aaabdaaabac"})
    monkeypatch.setattr("ui.animate.stage.step_view", broken)
    app.run()
    assert not app.exception, app.exception
    assert section_message("The animation") in messages(app)
    assert "Animate merges" in texts_of(app.title)


def test_a_link_that_fails_to_open_shows_the_default_with_a_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("ui.session.opening._linked_run", broken)
    app = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    app.query_params["run"] = "0123456789abcdef"
    app.switch_page("pages/tokens.py").run()
    assert not app.exception, app.exception
    assert app.sidebar.selectbox(key="sidebar_run").value.startswith("Shakespeare")
    assert any("could not be opened" in text for text in texts_of(app.info))
    assert not any("secret detail" in text for text in texts_of(app.info))
