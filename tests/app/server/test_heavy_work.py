"""Trainings and files above ui.server.heavy_work's sizes go to a child Python: the same
results, the same errors, the progress bar's messages, and a busy server says so."""

from __future__ import annotations

import random

import pytest

from explorer import train
from explorer.files.loading import load_uploads
from tests.app_support import open_app, texts_of
from ui.server import heavy_work
from ui.server.child_jobs import JobRunner, ServerBusy
from ui.session.run_spec import RunKind
from ui.train.progress import progress_reporter
from ui.train.tokenizer_files import tokenizer_uploads


def random_words(n_bytes: int, seed: int) -> str:
    rng = random.Random(seed)
    words = ("".join(rng.choices("abcdefgh", k=rng.randint(2, 7))) for _ in range(n_bytes))
    text = " ".join(words)
    return text[:n_bytes]


class CountingRunner(JobRunner):
    """A runner that counts the jobs it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.jobs = 0

    def run(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.jobs += 1
        return super().run(*args, **kwargs)


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CountingRunner:
    counting = CountingRunner()
    monkeypatch.setattr(heavy_work, "_runner", counting)
    return counting


def test_a_large_training_runs_in_a_child_with_the_same_result(runner: CountingRunner) -> None:
    from ui.session.run_cache import train_cached

    text = random_words(heavy_work.TRAIN_HERE_MAX_BYTES + 1000, seed=21)
    shown: list[str] = []
    report = progress_reporter(lambda _fraction, text: shown.append(text))
    result = train_cached((text,), 300, "gpt4", (), 1, RunKind.TEXT, _progress=report)
    assert runner.jobs == 1
    assert result.tokenizer.merges == train([text], 300, pattern="gpt4").tokenizer.merges
    assert shown[-1] == "Merging: 44 of 44 merges"


def test_a_small_training_stays_here(runner: CountingRunner) -> None:
    from ui.session.run_cache import train_cached

    train_cached(("aaabdaaabac",), 259, "none", (), 1, RunKind.TEXT)
    assert runner.jobs == 0


def test_a_large_file_is_read_by_a_child_and_its_errors_stay_clear(runner: CountingRunner) -> None:
    files = [("ranks.tiktoken", _tiktoken(600))]
    assert not heavy_work.reads_here(files[0][1])
    (loaded,) = tokenizer_uploads(files, tiktoken_pattern="none")
    assert runner.jobs == 1
    assert (
        loaded.tokenizer.merges == load_uploads(files, tiktoken_pattern="none")[0].tokenizer.merges
    )
    broken = [("ranks.tiktoken", files[0][1] + b"!!! 9\n")]
    with pytest.raises(ValueError, match=r"ranks\.tiktoken, line"):
        tokenizer_uploads(broken, tiktoken_pattern="none")


def test_a_full_queue_is_a_message_on_the_train_page(monkeypatch: pytest.MonkeyPatch) -> None:
    class Busy(JobRunner):
        def run(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            raise ServerBusy("the server is busy: 5 jobs ahead")

    monkeypatch.setattr(heavy_work, "_runner", Busy())
    app = open_app("train")
    app.radio(key="train_source").set_value("paste").run()
    app.text_area(key="train_paste").input(random_words(heavy_work.TRAIN_HERE_MAX_BYTES + 10, 3))
    app.run().button(key="train_go").click().run()
    assert not app.exception
    assert any("the server is busy: 5 jobs ahead" in error for error in texts_of(app.error))


def _tiktoken(tokens: int) -> bytes:
    import base64

    lines = [f"{base64.b64encode(bytes([i])).decode()} {i}" for i in range(256)]
    lines += [f"{base64.b64encode(b'a' * k).decode()} {254 + k}" for k in range(2, tokens)]
    return ("\n".join(lines) + "\n").encode()


def test_a_custom_pattern_trains_in_a_child_even_when_small(runner: CountingRunner) -> None:
    from ui.session.run_cache import train_cached

    result = train_cached(("aaabdaaabac",), 259, r"a+|[^a]", (), 1, RunKind.TEXT)
    assert runner.jobs == 1
    expected = train(["aaabdaaabac"], 259, pattern=r"a+|[^a]").tokenizer.merges
    assert result.tokenizer.merges == expected


def test_a_waiting_job_shows_its_place_then_the_bar() -> None:
    shown: list[tuple[float, str]] = []
    report = progress_reporter(lambda fraction, text: shown.append((fraction, text)))
    report(heavy_work.WAITING, 2, 0)
    report("merging", 10, 10)
    assert shown == [
        (0.0, "Waiting for the server: 2 jobs ahead of this one…"),
        (1.0, "Merging: 10 of 10 merges"),
    ]
