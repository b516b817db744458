"""Shared fixtures: a real text to train on, and the developers' ../shared corpora when present."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from harness.hub_cache import HubCache, build_hub_cache

ROOT = Path(__file__).resolve().parents[1]

# CI draws the same examples on every run: a property test that finds a new counterexample
# does so on a developer's (random) run, where it is pinned with @example, instead of
# failing a landing by chance. Developers' runs stay random and keep exploring.
# No deadline in CI either: the browser tests share its two cores, and a property test with
# the default 200 ms deadline failed there on how long one example took, not on what it
# returned (test_holdout's test_single_bytes_property took 294 ms once, 11 ms again).
settings.register_profile("ci", derandomize=True, database=None, deadline=None)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")
SHARED = ROOT.parent / "shared"
# The app loads OpenAI's three vocabularies in child Pythons from a server's first run on
# (ui/session/run_cache.py preload_bundled); here they load when a test needs them, so
# each browser test's server and the AppTests do not start three children each.
os.environ.setdefault("BPE_EXPLORER_PRELOAD", "0")


@pytest.fixture(scope="session")
def hub_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> HubCache:
    """A Hugging Face Hub cache of the open-weight models, built once per test session
    (harness/hub_cache.py: meta-llama/Meta-Llama-3-8B, Qwen/Qwen3-0.6B, deepseek-ai/DeepSeek-V3,
    google/gemma-3-1b-it, meta-llama/Llama-2-7b-hf, mistralai/Pixtral-12B-2409); skips
    without ../shared."""
    shared_path("reference", "open-weight", "SOURCES.md")
    return build_hub_cache(tmp_path_factory.mktemp("hub-cache"))


@pytest.fixture
def hub_cache(hub_cache_folder: HubCache, monkeypatch: pytest.MonkeyPatch) -> HubCache:
    """That cache as this test's Hub: HF_HUB_CACHE points at it and HF_HUB_OFFLINE=1, so
    the real loading code (explorer/models/hub.py) reads it and never the network. The
    app's children (downloads, large reads) inherit both through the environment."""
    monkeypatch.setenv("HF_HUB_CACHE", str(hub_cache_folder.path))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return hub_cache_folder


def shared_path(*parts: str) -> Path:
    """A file under ../shared, or skip: a user's clone does not have it."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is not here (../shared is only beside developer checkouts)")
    return path


@pytest.fixture(scope="session")
def sample_text() -> str:
    """Real English prose that ships with the product (sample_texts/), else a fallback."""
    for candidate in sorted((ROOT / "sample_texts").glob("*.txt")):
        text = candidate.read_bytes().decode("utf-8")
        if len(text) > 20000:
            return text
    return _FALLBACK * 40


_FALLBACK = """It was the best of times, it was the worst of times, it was the age of wisdom,
it was the age of foolishness, it was the epoch of belief, it was the epoch of incredulity,
it was the season of Light, it was the season of Darkness, it was the spring of hope,
it was the winter of despair, we had everything before us, we had nothing before us.
"""


@pytest.fixture(autouse=True, scope="session")
def runs_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Runs the app keeps on disk go to a folder of this test session, not the repo's .runs.

    Browser servers started by the tests inherit it through the environment.
    """
    folder = tmp_path_factory.mktemp("runs")
    os.environ["BPE_EXPLORER_RUNS_DIR"] = str(folder)
    return folder


# --- the order the two xdist workers take the tests in (scripts/test.sh: --dist loadfile) --

BROWSER = "tests/browser/"
# the browser tests that take longest (pytest --durations), started first so that neither
# worker is left with one of them at the end while the other has finished; a test not
# listed here still runs, after these
LONGEST_FIRST = (
    "tests/browser/test_class_live.py",
    "tests/browser/test_concurrency.py",
    "tests/browser/test_persistence.py",
    "tests/browser/test_accessibility.py::test_each_page_has_no_serious_violation",
    "tests/browser/test_classroom.py::test_the_pages_follow_a_second_run",
    "tests/browser/test_uploads.py",
    "tests/browser/test_injection.py",
    "tests/browser/test_languages.py",
    "tests/browser/test_heldout.py",
    "tests/browser/test_heavy_work.py",
    "tests/browser/test_deep_links.py",
)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under `--dist loadfile`: each browser test is a unit of its own, the rest go by file,
    longest first.

    xdist's loadfile keeps a file on one worker and hands out the files with most tests
    first, which left the browser files (few tests, each many seconds) for the end and
    kept a whole browser file on one worker. A browser test shares nothing with the others
    of its file but the worker's server and browser, which every worker has (session
    fixtures), so each may run on either worker; other files keep their module fixtures
    on one worker, as before. Order: LONGEST_FIRST, the other browser tests, LONGEST_OTHERS,
    then the other files, most tests first (many short units last, so the workers end
    together).
    """
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class LongestFirst(LoadFileScheduling):  # type: ignore[misc]
        _ordered = False

        def _split_scope(self, nodeid: str) -> str:
            return nodeid if _alone(nodeid) else super()._split_scope(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            if not self._ordered:  # the queue is complete before the first unit is handed out
                units = sorted(self.workqueue.items(), key=lambda unit: _rank(*unit))
                self.workqueue.clear()
                self.workqueue.update(units)
                self._ordered = True
            super()._assign_work_unit(node)

    return LongestFirst(config, log)


# other files of few tests that take long (summed durations, busy full run of 26 Nov,
# seconds / tests): first of the other files, in this order. By test count alone
# test_parallel_encode (39 s / 3) was a worker's last unit.
LONGEST_OTHERS = (
    "tests/engine/analysis/vocabulary/test_checkup.py",  # 84 / 10
    "tests/engine/test_cli.py",  # 42 / 30
    "tests/engine/encoding/test_parallel_encode.py",  # 39 / 3
    "tests/engine/test_cli_check.py",  # 37 / 4
    "tests/app/train/test_app_interop.py",  # 27 / 9
    "tests/app/classroom/test_app_class.py",  # 27 / 11
    "tests/app/compare/test_app_overlay.py",  # 23 / 6
    "tests/app/compare/test_app_merge_diff.py",  # 23 / 9
)

# browser files whose tests share one class on a module's server, in order: one unit
TOGETHER = ("tests/browser/test_class_live.py",)


def _alone(nodeid: str) -> bool:
    """Whether a test is a scheduling unit of its own (a browser test, unless its file
    keeps its tests together)."""
    return nodeid.startswith(BROWSER) and not nodeid.startswith(TOGETHER)


def _rank(scope: str, tests: dict[str, bool]) -> tuple[int, int]:
    for index, prefix in enumerate(LONGEST_FIRST):
        if scope.startswith(prefix):
            return (0, index)
    if scope.startswith(BROWSER):
        return (1, 0)
    if scope in LONGEST_OTHERS:
        return (2, LONGEST_OTHERS.index(scope) - len(LONGEST_OTHERS) - 10**6)
    return (2, -len(tests))
