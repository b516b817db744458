"""The Tokens page on a text too long to encode on the server: its start drawn, the whole
counted by a child Python (a real one), the text kept whole; a busy server says so."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from explorer import train
from tests.app.server.test_child_jobs import Background, until
from tests.app.tokens.test_app_tokens import count, tokens_html
from tests.app_support import open_app, texts_of
from ui.server import heavy_work, job_child
from ui.server.child_jobs import JobCancelled, JobRunner
from ui.server.job_queue import Client
from ui.session.samples import sample_text
from ui.tokens.whole_text import DRAWN_CHARS, ENCODE_HERE_MAX_CHARS


def long_text() -> str:
    """The UDHR sample, repeated past what the server encodes, ending on a half word."""
    udhr = sample_text("udhr")
    return (udhr * (ENCODE_HERE_MAX_CHARS // len(udhr) + 2))[: ENCODE_HERE_MAX_CHARS + 54_321]


@pytest.fixture
def fresh_runner(monkeypatch: pytest.MonkeyPatch) -> Iterator[JobRunner]:
    """The server's runner for this test only: one slot, no waiting place."""
    runner = JobRunner(slots=1, queue_limit=0)
    monkeypatch.setattr(heavy_work, "_runner", runner)
    yield runner


def test_a_long_text_is_drawn_in_part_and_counted_whole(fresh_runner: JobRunner) -> None:
    app = open_app("tokens")
    text = long_text()
    app.text_area(key="tokens_text").input(text).run()
    assert not app.exception
    tokenizer = train(sample_text("shakespeare"), 2000, pattern="gpt4").tokenizer
    assert count(app, "Tokens") == len(tokenizer.encode(text))  # the whole text's count
    assert count(app, "Characters") == len(text)
    assert tokens_html(app).count('<span class="c-') == 10_000
    notes = [c for c in texts_of(app.caption) if c.startswith("Showing the first 10,000 tokens")]
    assert len(notes) == 1 and f"of {len(text):,} characters" in notes[0]
    drawn = int(notes[0].split("from the first ")[1].split(" of")[0].replace(",", ""))
    assert DRAWN_CHARS - 5_000 < drawn <= DRAWN_CHARS and text[drawn].isspace()  # a word ends
    assert app.text_area(key="tokens_text").value == text  # nothing lost
    assert any(e.label.startswith(f"Token ids ({count(app, 'Tokens'):,})") for e in app.expander)
    assert fresh_runner.busy() == (0, 0) and not fresh_runner.children


def test_a_busy_server_counts_the_drawn_part_and_says_so(fresh_runner: JobRunner) -> None:
    wanted = threading.Event()
    wanted.set()
    other = Background(
        fresh_runner, job_child.sleep_then, 60, still_wanted=wanted.is_set, client=Client("b")
    )
    try:
        assert until(lambda: fresh_runner.busy() == (1, 0))
        app = open_app("tokens")
        text = "Another text. " + long_text()  # not counted before (counts are kept)
        app.text_area(key="tokens_text").input(text).run()
        assert not app.exception
        (warning,) = [w for w in texts_of(app.warning) if "could not be counted" in w]
        assert "could not be counted: the server is busy: 1 job ahead" in warning
        assert "The counts below cover its first" in warning
        assert count(app, "Characters") < len(text)  # the drawn part's counts, as it says
        assert app.text_area(key="tokens_text").value == text
    finally:
        wanted.clear()
        assert isinstance(other.join(), JobCancelled)
