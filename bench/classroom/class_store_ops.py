"""What one call of the class store costs, in this process's memory and in Redis.

Not a test: it starts a redis-server of its own (harness/redis_server.py: loopback, a free
port, a password, AOF with fsync on every write, as a school's stack runs it), fills one
class of `--students` seats in each store, and times the calls a lesson makes: a
student's poll (`version` with the seat: the fragment every 0.75 s), the bare version,
the whole view, an answer, a join, a teacher's step (`move`) and `hidden_steps` (every
page run). Each figure is the median of `--rounds` rounds of one call per seat (or of
`--students` steps).

    python -m bench.classroom.class_store_ops --students 60 --rounds 5

Last lines, one a store: `memory: poll P µs, version V µs, view W µs, answer A µs,
join J µs, step S µs, hidden_steps H µs` (then `redis: ...`), and the ratio of the poll.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from harness.redis_server import RedisServer
from ui.classroom import redis_store
from ui.classroom.model import Place
from ui.classroom.rules import Limits
from ui.classroom.store import ClassStore
from ui.classroom.stores import ClassStoreLike

RUN = "0123456789abcdef"


def timed(call: Callable[[int], object], count: int, rounds: int) -> float:
    """The median over rounds of the mean µs of `count` calls."""
    means = []
    for _ in range(rounds):
        started = time.perf_counter()
        for k in range(count):
            call(k)
        means.append((time.perf_counter() - started) / count * 1e6)
    return statistics.median(means)


def measure(store: ClassStoreLike, students: int, rounds: int) -> dict[str, float]:
    teacher = store.start(RUN, "bench")
    joined: list[str] = []
    figures = {
        "join": timed(lambda k: joined.append(store.join(teacher.code, f"s{k}").seat), students, 1)
    }
    store.ask(teacher.code, teacher.secret, 1, ("a", "b", "c"), winner=0, detail={})
    figures["poll"] = timed(lambda k: store.version(teacher.code, joined[k]), students, rounds)
    figures["version"] = timed(lambda k: store.version(teacher.code), students, rounds)
    figures["view"] = timed(lambda k: store.view(teacher.code), students, rounds)
    figures["answer"] = timed(lambda k: store.answer(teacher.code, joined[k], k % 3), students, 1)
    figures["step"] = timed(
        lambda k: store.move(teacher.code, teacher.secret, Place(step=k + 2)), students, 1
    )
    figures["hidden_steps"] = timed(lambda k: store.hidden_steps(None, None), students, rounds)
    store.end(teacher.code, teacher.secret)
    return figures


def line(name: str, figures: dict[str, float]) -> str:
    order = ("poll", "version", "view", "answer", "join", "step", "hidden_steps")
    return f"{name}: " + ", ".join(f"{what} {figures[what]:,.0f} µs" for what in order)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    limits = Limits(seats_per_client=0, max_students=max(120, args.students))
    memory = measure(ClassStore(max_students=limits.max_students), args.students, args.rounds)
    with tempfile.TemporaryDirectory() as folder:
        server = RedisServer.start(Path(folder), aof=True)
        try:
            store = redis_store.RedisClassStore(redis_store.connect(server.url), limits=limits)
            shared = measure(store, args.students, args.rounds)
        finally:
            server.stop()
    print(line("memory", memory))
    print(line("redis", shared))
    print(f"a student's poll in Redis: {shared['poll'] / memory['poll']:,.0f}× memory's")


if __name__ == "__main__":
    main()
