"""A server's first minute (ui/session/warm_up.py, ui/session/run_cache.py): the pages'
imports after the first run, and the vocabularies' preload, both on unless turned off."""

from __future__ import annotations

import importlib
import threading

import pytest

from ui.session import run_cache, warm_up


def test_the_warm_up_imports_what_every_page_imports() -> None:
    names = warm_up.page_imports()
    for page in ("train", "animate", "tokens", "vocabulary", "compare"):
        assert any(name.startswith(f"ui.{page}") for name in names), page
    assert "ui.shell" in names and "streamlit" in names
    for name in names:  # what the thread will do: none of them fails
        importlib.import_module(name)


def test_the_warm_up_starts_once_and_not_when_turned_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[str] = []
    monkeypatch.setattr(warm_up, "_import_pages", lambda: started.append("imports"))
    monkeypatch.setattr(warm_up, "_started", False)
    monkeypatch.setenv(run_cache.PRELOAD_VARIABLE, "0")
    warm_up.warm_up_once()
    assert not started and not warm_up._started
    monkeypatch.delenv(run_cache.PRELOAD_VARIABLE)  # the default: on
    for _ in range(3):
        warm_up.warm_up_once()
    for thread in threading.enumerate():
        if thread.name == "warm-up-imports":
            thread.join(timeout=10)
    assert started == ["imports"]


@pytest.mark.parametrize(
    ("value", "wanted"), [(None, True), ("1", True), ("0", False), (" no ", False), ("x", True)]
)
def test_the_preload_is_on_unless_turned_off(value: str | None, wanted: bool) -> None:
    environ = {} if value is None else {run_cache.PRELOAD_VARIABLE: value}
    assert run_cache.preload_wanted(environ) is wanted
