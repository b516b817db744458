"""The Redis class store's own behaviour, on a real redis-server: idle classes expire by
key TTL, every key under the prefix and no user text a key, two processes racing on one
class (never two seats one token, never one seat two answers), Redis stopped (one error,
one sentence, the password never said) and restarted with AOF (nothing lost)."""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import secrets
import time
from pathlib import Path
from typing import Any

import pytest
import redis

from harness.redis_server import RedisServer
from tests.app.classroom.conftest import redis_store, require_redis
from ui.classroom import codes
from ui.classroom import redis_store as backend
from ui.classroom.model import Place
from ui.classroom.rules import ClassError, ClassesUnavailable, Limits
from ui.classroom.stores import from_env

RUN = "0123456789abcdef"
RACE_SEATS = 40


def keys_of(server: RedisServer, prefix: str) -> list[str]:
    client = redis.Redis.from_url(server.url, decode_responses=True)
    try:
        return sorted(str(key) for key in client.scan_iter(f"{prefix}*", count=1000))
    finally:
        client.close()


def every_key(server: RedisServer) -> list[str]:
    return keys_of(server, "")


def test_an_idle_class_ends_by_key_expiry(redis_server: RedisServer) -> None:
    prefix = f"idle-{secrets.token_hex(4)}:"
    store = redis_store(redis_server.url, prefix, idle_seconds=1.0)
    teacher = store.start(RUN, "r")
    ada = store.join(teacher.code, "Ada")
    assert store.version(teacher.code, ada.seat) == 1
    time.sleep(0.6)
    store.move(teacher.code, teacher.secret, Place(step=1))  # activity: the TTL again
    time.sleep(0.6)
    assert store.view(teacher.code) is not None  # 1.2 s after the start, 0.6 s idle
    time.sleep(1.2)
    assert store.version(teacher.code) is None and store.view(teacher.code) is None
    with pytest.raises(ClassError, match="no class"):
        store.join(teacher.code, "late")
    assert keys_of(redis_server, prefix) == [f"{prefix}classes"]  # the class's keys went
    store.start(RUN, "r")  # and the set of codes forgets the expired one
    client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    assert teacher.code not in client.smembers(f"{prefix}classes")
    client.close()


def test_keys_are_namespaced_and_user_text_is_never_a_key(redis_server: RedisServer) -> None:
    prefix = f"ns-{secrets.token_hex(4)}:"
    store = redis_store(redis_server.url, prefix)
    before = set(every_key(redis_server))
    teacher = store.start(RUN, "Bobby'); DROP TABLE classes;--", Place(passage="*\r\nFLUSHALL"))
    hostile = ["*", "ABC2*", "bpe:classes", "ABC23:room", "A\r\nFLUSHALL", "", "ÅÅÅÅÅ"]
    for code in hostile:
        assert store.version(code) is None and store.view(code) is None
        assert store.version(code, "seat-token-000000") is None
        with pytest.raises(ClassError):
            store.join(code, "x")
        assert not store.answer(code, "seat-token-000000", 0)
    seat = store.join(teacher.code, "'; FLUSHALL; --", "x" * 16 + "*:{}")
    store.ask(teacher.code, teacher.secret, 1, ("*", "$1\r\n"), winner=0, detail={"k": "\r\n"})
    assert store.answer(teacher.code, seat.seat, 1)
    store.rename(teacher.code, seat.seat, "return redis.call('FLUSHALL')")
    new = set(every_key(redis_server)) - before
    assert new and all(key.startswith(prefix) for key in new)
    assert {key.removeprefix(prefix) for key in new} == {
        "classes",
        *(f"class:{teacher.code}:{part}" for part in ("version", "room", "students", "answers")),
        f"class:{teacher.code}:seen",
    }
    view = store.view(teacher.code)
    assert view is not None and view.place.passage == "*\r\nFLUSHALL"
    assert view.run_name == "Bobby'); DROP TABLE classes;--"


def test_the_backend_is_picked_by_one_variable(redis_server: RedisServer) -> None:
    assert type(from_env({}, limits=Limits())).__name__ == "ClassStore"
    assert type(from_env({"BPE_EXPLORER_REDIS_URL": " "}, limits=Limits())).__name__ == (
        "ClassStore"
    )
    shared = from_env({"BPE_EXPLORER_REDIS_URL": redis_server.url}, limits=Limits())
    other = from_env({"BPE_EXPLORER_REDIS_URL": redis_server.url}, limits=Limits())
    assert isinstance(shared, backend.RedisClassStore)
    teacher = shared.start(RUN, "r")
    assert other.view(teacher.code) is not None  # another process's store sees it
    other.end(teacher.code, teacher.secret)
    assert shared.view(teacher.code) is None


def test_a_view_is_read_once_a_version_and_never_older_than_a_second(
    redis_server: RedisServer,
) -> None:
    prefix = f"views-{secrets.token_hex(4)}:"
    here, there = redis_store(redis_server.url, prefix), redis_store(redis_server.url, prefix)
    teacher = here.start(RUN, "r")
    first = here.view(teacher.code)
    assert first is not None and first.students == 0
    there.join(teacher.code, "Ada")  # another process: no new version
    assert here.view(teacher.code) is first  # the same version, read lately: kept
    there.move(teacher.code, teacher.secret, Place(step=5))  # a new version: read again
    moved = here.view(teacher.code)
    assert moved is not None and moved.place.step == 5 and moved.students == 1
    there.join(teacher.code, "Bo")
    time.sleep(backend.VIEW_FRESH_SECONDS + 0.1)
    later = here.view(teacher.code)
    assert later is not None and later.students == 2  # at most a second late
    here.join(teacher.code, "Cy")  # a change through this store: at once
    assert here.view(teacher.code).students == 3  # type: ignore[union-attr]


# --- two processes at once ---------------------------------------------------------------


def _racer(url: str, prefix: str, code: str, tokens: list[str], start_at: float, out: Any) -> None:
    """One process: join every seat (the same tokens as the other process), then answer
    each with this process's own option, as fast as it can."""
    store = redis_store(url, prefix, seats_per_client=0)
    time.sleep(max(0.0, start_at - time.time()))
    joined = [store.join(code, f"s{k}", token).seat for k, token in enumerate(tokens)]
    fresh = [store.join(code, "").seat for _ in range(5)]  # seats without a token
    option = int(multiprocessing.current_process().name[-1]) % 2
    while time.time() < start_at + 1.0:
        time.sleep(0.01)
    counted = sum(store.answer(code, token, option) for token in tokens)
    out.put((joined, fresh, counted))


def test_two_processes_racing_never_share_a_seat_or_answer_twice(
    redis_server: RedisServer,
) -> None:
    prefix = f"race-{secrets.token_hex(4)}:"
    store = redis_store(redis_server.url, prefix, seats_per_client=0)
    teacher = store.start(RUN, "r")
    store.ask(teacher.code, teacher.secret, 0, ("a", "b"), winner=0, detail={})
    tokens = [codes.new_seat() for _ in range(RACE_SEATS)]
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    start_at = time.time() + 3.0  # both processes have imported and connected by then
    racers = [
        context.Process(
            target=_racer,
            args=(redis_server.url, prefix, teacher.code, tokens, start_at, out),
            name=f"racer-{k}",
        )
        for k in range(2)
    ]
    for racer in racers:
        racer.start()
    results = [out.get(timeout=60) for _ in racers]
    for racer in racers:
        racer.join(timeout=30)
        assert racer.exitcode == 0
    for joined, _, _ in results:
        assert joined == tokens  # a token is one seat, whichever process took it first
    fresh = [seat for _, seats_, _ in results for seat in seats_]
    assert len(set(fresh)) == len(fresh) == 10 and not set(fresh) & set(tokens)
    assert sum(counted for _, _, counted in results) == RACE_SEATS  # each seat once
    roster = store.roster(teacher.code, teacher.secret)
    assert len(roster) == RACE_SEATS + 10
    assert len({row.name for row in roster}) == len(roster)  # told apart
    tally = store.tally(teacher.code, teacher.secret)
    assert tally is not None and tally.answered == RACE_SEATS and sum(tally.counts) == RACE_SEATS


def _starter(url: str, prefix: str, start_at: float, out: Any) -> None:
    store = redis_store(url, prefix, max_classes=5, classes_per_client=0)
    time.sleep(max(0.0, start_at - time.time()))
    started = []
    for _ in range(5):
        with contextlib.suppress(ClassError):
            started.append(store.start(RUN, "r").code)
    out.put(started)


def test_two_processes_starting_classes_at_once_keep_the_bound(redis_server: RedisServer) -> None:
    prefix = f"starts-{secrets.token_hex(4)}:"
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    start_at = time.time() + 3.0
    starters = [
        context.Process(target=_starter, args=(redis_server.url, prefix, start_at, out))
        for _ in range(2)
    ]
    for starter in starters:
        starter.start()
    started = [code for _ in starters for code in out.get(timeout=60)]
    for starter in starters:
        starter.join(timeout=30)
    assert len(started) == len(set(started)) == 5  # five classes, five codes, no more


# --- Redis stopped, Redis restarted ------------------------------------------------------


def test_redis_stopped_is_one_error_and_the_class_comes_back(
    own_redis: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    store = redis_store(own_redis.url, "stop:")
    teacher = store.start(RUN, "r", Place(step=3))
    ada = store.join(teacher.code, "Ada")
    store.ask(teacher.code, teacher.secret, 3, ("a", "b"), winner=1, detail={})
    assert store.answer(teacher.code, ada.seat, 1)
    own_redis.stop()
    caplog.set_level(logging.INFO)
    calls = [
        lambda: store.version(teacher.code),
        lambda: store.version(teacher.code, ada.seat),
        lambda: store.view(teacher.code),
        lambda: store.join(teacher.code, "Bo"),
        lambda: store.answer(teacher.code, ada.seat, 0),
        lambda: store.move(teacher.code, teacher.secret, Place(step=4)),
        lambda: store.hidden_steps(None, None),
        lambda: store.start(RUN, "r"),
        lambda: store.is_teacher(teacher.code, teacher.secret),
    ]
    for call in calls:
        with pytest.raises(ClassesUnavailable) as raised:
            call()
        assert "out of reach" in str(raised.value) and "\n" not in str(raised.value)
    assert own_redis.password not in caplog.text
    assert "Traceback" not in caplog.text
    own_redis.restart()
    deadline = time.monotonic() + backend.RETRY_SECONDS + 10
    while True:  # after RETRY_SECONDS the store tries Redis again, and reconnects
        try:
            view = store.view(teacher.code)
            break
        except ClassesUnavailable:
            assert time.monotonic() < deadline, "the store did not come back"
            time.sleep(0.2)
    assert view is not None and view.place.step == 3
    assert store.seated(teacher.code, ada.seat)
    assert store.move(teacher.code, teacher.secret, Place(step=4))


def test_redis_killed_and_restarted_with_aof_loses_nothing(own_redis: RedisServer) -> None:
    store = redis_store(own_redis.url, "aof:")
    teacher = store.start(RUN, "r", Place(step=2, passage="to be"))
    seats = [store.join(teacher.code, name) for name in ("Ada", "Bo", "Cy")]
    store.ask(teacher.code, teacher.secret, 2, ("a", "b"), winner=0, detail={"counts": [3]})
    assert store.answer(teacher.code, seats[0].seat, 0)
    assert store.answer(teacher.code, seats[1].seat, 1)
    before = store.view(teacher.code)
    own_redis.stop(kill=True)  # SIGKILL: no shutdown save; only the AOF has the writes
    own_redis.restart()
    again = redis_store(own_redis.url, "aof:")  # a process that starts after the restart
    assert again.view(teacher.code) == before
    assert again.is_teacher(teacher.code, teacher.secret)
    assert not again.answer(teacher.code, seats[0].seat, 1)  # still answered
    assert again.answer(teacher.code, seats[2].seat, 0)
    again.reveal(teacher.code, teacher.secret)
    view = again.view(teacher.code)
    assert view is not None and view.question is not None
    assert view.question.counts == (2, 1)
    assert [row.name for row in again.roster(teacher.code, teacher.secret)] == ["Ada", "Bo", "Cy"]


def test_a_wrong_password_is_one_error_and_never_said(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    wrong = redis_server.url.replace(redis_server.password, "not-the-password")
    store = redis_store(wrong, "auth:")
    caplog.set_level(logging.INFO)
    with pytest.raises(ClassesUnavailable):
        store.start(RUN, "r")
    assert "not-the-password" not in caplog.text and redis_server.password not in caplog.text


def test_a_redis_on_a_unix_socket_with_a_password(tmp_path: Path) -> None:
    require_redis()
    server = RedisServer.start(tmp_path / "r", unix=True)  # no TCP port at all
    try:
        store = from_env({"BPE_EXPLORER_REDIS_URL": server.url}, limits=Limits())
        teacher = store.start(RUN, "r")
        assert store.version(teacher.code) == 1
        wrong = server.url.replace(server.password, "not-it")
        with pytest.raises(ClassesUnavailable):
            from_env({"BPE_EXPLORER_REDIS_URL": wrong}, limits=Limits()).view(teacher.code)
    finally:
        server.stop()


def test_pins_follow_the_shared_classes(redis_server: RedisServer, tmp_path: Path) -> None:
    from ui.session import run_store

    prefix = f"pins-{secrets.token_hex(4)}:"
    first = redis_store(redis_server.url, prefix, runs_folder=tmp_path)
    second = redis_store(redis_server.url, prefix, runs_folder=tmp_path)
    one = first.start(RUN, "r")
    two = second.start("fedcba9876543210", "r")
    assert run_store.pinned_keys(tmp_path) == {RUN, "fedcba9876543210"}
    first.end(two.code, two.secret)  # ended by the other process's store
    assert run_store.pinned_keys(tmp_path) == {RUN}
    second.end(one.code, one.secret)
    assert run_store.pinned_keys(tmp_path) == set()
