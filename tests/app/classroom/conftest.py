"""The class store's two backends for one set of behaviour tests: this process's memory,
and a real `redis-server` (harness/redis_server.py) on a free loopback port with a
password. Without redis-server the Redis half skips, except under CI=true, where it
fails: CI must run it (scripts/test.sh installs it)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.redis_server import MISSING, RedisServer, installed
from ui.classroom.rules import Limits
from ui.classroom.store import ClassStore
from ui.classroom.stores import ClassStoreLike

StoreMaker = Callable[..., ClassStoreLike]


def require_redis() -> None:
    """Skip without Debian's redis-server; under CI=true, fail."""
    if installed():
        return
    if os.environ.get("CI") == "true":
        pytest.fail(MISSING, pytrace=False)
    pytest.skip(MISSING)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One Redis for this worker's tests (each test keeps its keys under its own prefix)."""
    require_redis()
    server = RedisServer.start(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis of this test alone, with AOF on (every write on disk before its answer):
    for tests that stop and start it."""
    require_redis()
    server = RedisServer.start(tmp_path / "redis", aof=True)
    yield server
    server.stop()


def redis_store(url: str, prefix: str | None = None, **options: Any) -> ClassStoreLike:
    """A Redis class store on the URL, with the memory store's keyword options."""
    from ui.classroom import redis_store as backend

    clock = options.pop("clock", None)
    runs_folder = options.pop("runs_folder", None)
    limits = Limits(**options)
    return backend.RedisClassStore(
        backend.connect(url),
        prefix=prefix or f"test-{secrets.token_hex(4)}:",
        runs_folder=runs_folder,
        limits=limits,
        **({"clock": clock} if clock is not None else {}),
    )


@pytest.fixture(params=["memory", "redis"])
def make_store(request: pytest.FixtureRequest) -> StoreMaker:
    """Makes a store of one backend with ClassStore's options (clock, max_classes, ...);
    the Redis stores of one test share a prefix, as processes sharing one Redis do."""
    if request.param == "memory":
        return ClassStore
    server: RedisServer = request.getfixturevalue("redis_server")
    prefix = f"test-{secrets.token_hex(4)}:"

    def make(**options: Any) -> ClassStoreLike:
        return redis_store(server.url, prefix, **options)

    return make
