"""Shared fixtures: a real text to train on, and the developers' ../shared corpora when present."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]

# CI draws the same examples on every run: a property test that finds a new counterexample
# does so on a developer's (random) run, where it is pinned with @example, instead of
# failing a landing by chance. Developers' runs stay random and keep exploring.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")
SHARED = ROOT.parent / "shared"


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
