"""A large training runs in a child Python that ends when its visitor cancels or leaves.

Eight megabytes of random words trained to 30,000 would hold a core for half a minute;
here the child is found under the server in /proc, then the visitor clicks Cancel (a
message says so, nothing is added) or closes the browser (the session goes), and the
child must be gone within a bounded number of polls.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from harness.app_server import Server
from tests.browser.conftest import (
    IDLE_SECONDS,
    SAMPLE_TOKENIZER,
    VIEWPORT,
    ScriptRuns,
    choose_radio,
    go_to,
    keyed,
    sidebar_tokenizers,
    wait_until_idle,
)

CORPUS_BYTES = 8 << 20  # trains to VOCAB_SIZE in ~25 s on one core of the 2-core machine
VOCAB_SIZE = 30_000
START_POLLS, END_POLLS, POLL_MS = 150, 50, 100  # a child starts within 15 s, ends within 5 s
CANCELLED = "Training cancelled: its worker process has been stopped."


def heavy_corpus(folder: Path, seed: int) -> Path:
    """Random words (a distinct seed per test: a cached training would start no child)."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words, size = [], 0
    while size < CORPUS_BYTES:
        word = "".join(rng.choices(letters, k=rng.randint(2, 9)))
        words.append(word)
        size += len(word) + 1
    path = folder / f"heavy-{seed}.txt"
    path.write_text(" ".join(words), encoding="utf-8")
    return path


def job_children(server: Server) -> list[int]:
    """The server's child Pythons doing jobs (ui.server.job_child), from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):  # it ended while we looked
            continue
        if parent == server.process.pid and b"ui.server.job_child" in command:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


def start_heavy_training(page: Page, server: Server, corpus: Path) -> int:
    """Upload the corpus, ask for VOCAB_SIZE, click Train; returns the training child's pid."""
    go_to(page, "Train")
    choose_radio(page, "train_source", "Upload files")
    uploader = keyed(page, "train_upload")
    uploader.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(corpus)
    wait_until_idle(page)
    vocab = keyed(page, "train_vocab").locator("input")
    vocab.fill(str(VOCAB_SIZE))
    vocab.press("Enter")
    wait_until_idle(page)
    before = set(job_children(server))
    keyed(page, "train_go").get_by_role("button").click()
    expect(keyed(page, "train_cancel").get_by_role("button")).to_be_visible()
    for _ in range(START_POLLS):
        started = set(job_children(server)) - before
        if started:
            return started.pop()
        page.wait_for_timeout(POLL_MS)
    raise AssertionError("no child Python started for the training")


def ended_within_polls(pid: int, page: Page | None = None) -> bool:
    for _ in range(END_POLLS):
        if not alive(pid):
            return True
        if page is not None:
            page.wait_for_timeout(POLL_MS)
        else:
            time.sleep(POLL_MS / 1000)
    return False


def test_cancel_stops_the_training_and_its_child(
    app: Page, streamlit_server: Server, tmp_path: Path
) -> None:
    pid = start_heavy_training(app, streamlit_server, heavy_corpus(tmp_path, seed=1))
    expect(app.get_by_text("Counting chunks").or_(app.get_by_text("Merging"))).to_be_visible()
    keyed(app, "train_cancel").get_by_role("button").click()
    expect(app.get_by_text(CANCELLED)).to_be_visible()
    assert ended_within_polls(pid, app)
    wait_until_idle(app)
    assert sidebar_tokenizers(app) == [SAMPLE_TOKENIZER]  # nothing half-trained was added
    expect(keyed(app, "train_cancel")).to_have_count(0)


def test_a_closed_browser_ends_its_training(
    browser: Browser, streamlit_server: Server, tmp_path: Path
) -> None:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(IDLE_SECONDS * 1000)
    ScriptRuns.watch(page)  # its reruns seen on the websocket: a short quiet period will do
    page.goto(streamlit_server.url + "train")
    wait_until_idle(page)
    pid = start_heavy_training(page, streamlit_server, heavy_corpus(tmp_path, seed=2))
    context.close()  # the visitor leaves mid-training
    assert ended_within_polls(pid)
    assert streamlit_server.healthy()
