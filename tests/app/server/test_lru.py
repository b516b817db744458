"""ui.server.lru.SharedLru: the caches an Animate step reads, shared by every session's thread."""

from __future__ import annotations

import threading
import time

import pytest

from ui.server.lru import SharedLru


def test_the_cache_keeps_the_most_recent_entries() -> None:
    cache = SharedLru(3)
    for step in range(5):
        cache.put(("run", step), step)
    cache.get(("run", 2))  # used: kept over 3
    cache.put(("run", 9), 9)
    assert [cache.get(("run", s)) for s in (1, 2, 3, 4, 9)] == [None, 2, None, 4, 9]


def test_the_cache_is_bounded_by_weight_too() -> None:
    cache = SharedLru(10, max_weight=100)
    for step in range(4):
        cache.put(("run", step), step, weight=40)
    assert [cache.get(("run", s)) for s in range(4)] == [None, None, 2, 3]
    cache.put(("big", 0), "big", weight=500)  # alone over the budget: kept, the rest go
    assert cache.get(("big", 0)) == "big" and cache.get(("run", 3)) is None


def test_sessions_asking_at_once_wait_for_one_making() -> None:
    cache = SharedLru(4)
    made: list[int] = []
    start = threading.Barrier(8)

    def make() -> str:
        made.append(1)
        time.sleep(0.05)  # long enough for the others to arrive while it is made
        return "value"

    def ask(found: list[str]) -> None:
        start.wait()
        found.append(cache.get_or_make("key", make, len))

    found: list[str] = []
    threads = [threading.Thread(target=ask, args=(found,)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert found == ["value"] * 8 and len(made) == 1


def test_a_failed_making_is_not_kept_and_is_tried_again() -> None:
    cache = SharedLru(4)

    def broken() -> str:
        raise ValueError("no")

    with pytest.raises(ValueError):
        cache.get_or_make("key", broken, len)
    assert cache.get("key") is None
    assert cache.get_or_make("key", lambda: "ok", len) == "ok"
