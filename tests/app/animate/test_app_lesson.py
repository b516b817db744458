"""Animate's lesson file download: the button is there, and its file is the builder's."""

from __future__ import annotations

from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from explorer import train
from explorer.training.corpus import count_chunks
from tests.app_support import open_app
from ui.animate.lesson.page import lesson_html
from ui.server.streamlit_internals import MediaFileManager
from ui.session import state as keys

CLASSIC = {"sample": "aaabdaaabac", "vocab": "259", "pattern": "none"}


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The file each deferred download button would serve, by file name (made on click)."""
    made: dict[str, Any] = {}
    real = MediaFileManager.add_deferred

    def record(  # type: ignore[no-untyped-def]  # MediaFileManager.add_deferred's own
        self, data_callable, mimetype, coordinates, file_name=None, **kwargs
    ) -> str:
        made[file_name] = (data_callable, mimetype)
        return real(self, data_callable, mimetype, coordinates, file_name, **kwargs)

    monkeypatch.setattr(MediaFileManager, "add_deferred", record)
    return made


def lesson_button(app: AppTest) -> Any:
    buttons = [
        b for b in app.get("download_button") if b.proto.id.endswith(keys.ANIMATE_LESSON_DOWNLOAD)
    ]
    assert len(buttons) == 1, [b.proto.label for b in app.get("download_button")]
    return buttons[0]


def test_the_lesson_download_is_the_builders_file(downloads: dict[str, Any]) -> None:
    app = open_app("animate", CLASSIC)
    assert lesson_button(app).proto.label == "Download the lesson (.html)"
    assert app.number_input(key=keys.ANIMATE_LESSON_STEPS).value == 3  # 30, capped by 3 merges
    passage = app.session_state[keys.ANIMATE_PASSAGE]
    assert passage == "aaabdaaabac"
    build, mimetype = downloads["aaabdaaabac-none-259-lesson-3.html"]
    result = train("aaabdaaabac", 259, pattern="none")
    expected = lesson_html(
        result.history,
        result.tokenizer,
        passage,
        steps=3,
        chunk_counts=count_chunks(["aaabdaaabac"], "none"),
        title=str(app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value),
    )
    assert mimetype == "text/html" and build() == expected


def test_fewer_merges_and_a_passage_of_ones_own(downloads: dict[str, Any]) -> None:
    app = open_app("animate", CLASSIC)
    app.number_input(key=keys.ANIMATE_LESSON_STEPS).set_value(2).run()
    app.text_area(key=keys.ANIMATE_PASSAGE).input("</script><b>aaab & aa").run()
    assert not app.exception
    build, _ = downloads["aaabdaaabac-none-259-lesson-2.html"]
    page = build()
    assert "</script><b>" not in page and "Step 2 of" not in page  # the script writes that
    assert '"steps":2' in page


def test_a_run_without_merges_says_so() -> None:
    app = open_app("animate", {"sample": "aaabdaaabac", "vocab": "256", "pattern": "none"})
    assert not app.exception
    assert not [b for b in app.get("download_button") if "lesson" in b.proto.id]
    assert any("This run made no merges" in info.value for info in app.info)
