"""Real models by their Hub name, held once per server process for every session.

A Hub model's run keeps one short text (`hub_texts`: the repo, the commit and the files, as
JSON), never the files: the files live in huggingface_hub's cache on the server's disk,
shared by every visitor, and the model read from them lives here, in one bounded LRU
(`_models`) keyed on (repo, commit, files). A class of thirty opening one model costs one
fetch and one read: sessions asking at once wait for the one `make` (SharedLru.get_or_make).

The fetch runs in a child Python on its own runner of one slot, so downloads go one at a
time per server (others wait their turn, told their place); the read (seconds for a
262,145-id file) runs in a child too, on the heavy-work runner every page shares
(ui/server/heavy_work.py), and the model comes back to this process.

    >>> found = HubFiles("Qwen/Qwen3-0.6B", "a" * 40, ("tokenizer.json",), (11_422_654,))
    >>> hub_files_of(hub_texts(found)) == found
    True
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import cast

from explorer.models.hub import cached_paths, fetch, locate, read_cached
from explorer.models.hub_files import HubError, HubFiles
from explorer.models.model import LoadedModel
from explorer.training.learner import ProgressCallback
from ui.server.child_jobs import JobRunner
from ui.server.clients import current_client
from ui.server.heavy_work import WAITING, in_a_child, session_still_wanted
from ui.server.lru import SharedLru

# A model's memory, measured (BENCHMARKS.md, "Session 16: real models by name"): held
# alone, the server's RSS grows by 174 MB for Llama 3 (128,256 ids, 280,147 merges), 135 MB
# for Qwen 3, 117 MB for DeepSeek-V3 and 347 MB for Gemma 3 (262,145 ids, 514,906 merges):
# ~0.55 KB an id and ~0.4 KB a merge. Six at once (Compare's chart draws up to six) fit
# 2 GB even at Gemma 3's size; a seventh evicts the least used, read again when asked.
MODELS_KEPT = 6
MODELS_BYTES = 2 << 30
BYTES_PER_ID = 560
BYTES_PER_MERGE = 400
FETCH_QUEUE = 8  # downloads waiting for the one slot; one more is told the server is busy
# a name's files, as the Hub listed them, are asked again after this long: a class of thirty
# opening one link asks the Hub once, and a new commit on `main` is seen within minutes
LOCATED_SECONDS = 600
LOCATED_KEPT = 256

_models = SharedLru(MODELS_KEPT, MODELS_BYTES)
_fetcher = JobRunner(slots=1, queue_limit=FETCH_QUEUE)  # one download at a time per server
_located = SharedLru(LOCATED_KEPT)  # name -> (when, HubFiles)
_counting = threading.Lock()
_counts = {"loads": 0, "fetches": 0}


def hub_texts(found: HubFiles) -> tuple[str]:
    """What a Hub model's run keeps: which files of which commit (no file's text)."""
    values = {
        "repo": found.repo,
        "commit": found.commit,
        "files": list(found.files),
        "sizes": list(found.sizes),
    }
    return (json.dumps(values, sort_keys=True),)


def hub_files_of(texts: tuple[str, ...]) -> HubFiles:
    """The files a Hub model's run names; ValueError when its text is not one."""
    try:
        values = json.loads(texts[0])
        sizes = tuple(None if size is None else int(size) for size in values["sizes"])
        return HubFiles(
            str(values["repo"]), str(values["commit"]), tuple(map(str, values["files"])), sizes
        )
    except (IndexError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"this Hub model's run cannot be read ({exc})") from None


def located(name: str) -> HubFiles:
    """`explorer.models.hub.locate(name)`, kept LOCATED_SECONDS for every session (a
    refusal is not kept: the next visitor asks again)."""
    kept = _located.get(name)
    if kept is not None and time.monotonic() - kept[0] < LOCATED_SECONDS:
        return cast(HubFiles, kept[1])
    found = locate(name)
    _located.put(name, (time.monotonic(), found))
    return found


def model_weight(model: LoadedModel) -> int:
    """About the memory a held model takes (see MODELS_BYTES)."""
    return BYTES_PER_ID * model.vocab_size + BYTES_PER_MERGE * len(model.merges)


def held_model(found: HubFiles, progress: ProgressCallback | None = None) -> LoadedModel:
    """The model in these files: the one this process holds, or fetched (when the cache
    lacks a file) and read, once, for every session; HubError says what went wrong."""
    key = (found.repo, found.commit, found.files)
    return _models.get_or_make(key, lambda: _load(found, progress), model_weight)


def is_held(found: HubFiles) -> bool:
    """Whether this process holds the model already (opening it costs nothing)."""
    return _models.get((found.repo, found.commit, found.files)) is not None


def in_cache(found: HubFiles) -> bool:
    """Whether every file of this commit is in the Hub cache (no fetch needed)."""
    try:
        cached_paths(found)
    except HubError:
        return False
    return True


def counts() -> dict[str, int]:
    """Loads and fetches this process made so far (a class of thirty makes one of each)."""
    with _counting:
        return dict(_counts)


def _load(found: HubFiles, progress: ProgressCallback | None) -> LoadedModel:
    if not in_cache(found):
        _count("fetches")
        waiting = None if progress is None else _waiting(progress)
        _fetcher.run(
            fetch,
            found,
            progress=progress,
            still_wanted=session_still_wanted(),
            waiting=waiting,
            client=current_client(),
        )
    _count("loads")
    return in_a_child(read_cached, found)


def _waiting(progress: ProgressCallback) -> Callable[[int], None]:
    return lambda ahead: progress(WAITING, ahead, 0)


def _count(what: str) -> None:
    with _counting:
        _counts[what] += 1


def forget_models() -> None:
    """Drop every held model (tests: as after a restart)."""
    global _models, _located
    _models = SharedLru(MODELS_KEPT, MODELS_BYTES)
    _located = SharedLru(LOCATED_KEPT)
