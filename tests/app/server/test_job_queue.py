"""The queue's fair shares: one client filling it gives way to a newcomer, by session and
by address; a newcomer's job runs before a holder's second. Real child processes run the
jobs (ui.server.child_jobs); the pure rules are tested on FairQueue alone."""

from __future__ import annotations

import threading

import pytest

from tests.app.server.test_child_jobs import Background, until
from ui.server import job_child
from ui.server.child_jobs import JobCancelled, JobRunner, ServerBusy
from ui.server.job_queue import Client, FairQueue

HOLDER, NEWCOMER = Client("holder-session"), Client("newcomer-session")


def test_a_client_filling_the_queue_gives_way_to_a_newcomer() -> None:
    runner, wanted = JobRunner(slots=1, queue_limit=2), threading.Event()
    wanted.set()
    first = Background(
        runner, job_child.sleep_then, 60, "first", still_wanted=wanted.is_set, client=HOLDER
    )
    assert until(lambda: runner.busy() == (1, 0) and bool(runner.children))
    held = [
        Background(runner, pow, 2, k, still_wanted=wanted.is_set, client=HOLDER) for k in (1, 2)
    ]
    assert until(lambda: runner.busy() == (1, 2))  # nobody else waits: the places are his
    with pytest.raises(ServerBusy, match="you already have 3 jobs running or waiting"):
        runner.run(pow, 2, 3, client=HOLDER)  # his fourth is refused, not queued
    newcomer = Background(runner, pow, 2, 10, still_wanted=wanted.is_set, client=NEWCOMER)
    refused = held[1].join()  # the holder's latest gives its place to the newcomer
    assert isinstance(refused, ServerBusy)
    assert str(refused).startswith("this job gave its place in the queue to another visitor")
    assert "you have 2 jobs running or waiting" in str(refused)
    assert until(lambda: runner.busy() == (1, 2))
    wanted.clear()  # end the long job: the newcomer's turn comes before the holder's second
    for job in (first, held[0], newcomer):
        assert isinstance(job.join(), JobCancelled)
    assert runner.busy() == (0, 0)


def test_a_newcomers_job_runs_before_a_holders_second() -> None:
    runner, finished = JobRunner(slots=1, queue_limit=3), []

    def record(name: str, seconds: float, client: Client) -> Background:
        def done(value: str) -> None:
            finished.append(value)

        job = Background(runner, job_child.sleep_then, seconds, name, client=client)
        threading.Thread(target=lambda: done(str(job.join()))).start()
        return job

    record("holder 1", 1.0, HOLDER)
    assert until(lambda: runner.busy() == (1, 0))
    record("holder 2", 0, HOLDER)
    assert until(lambda: runner.busy() == (1, 1))
    record("newcomer", 0, NEWCOMER)  # arrives last, holding nothing
    assert until(lambda: len(finished) == 3)
    assert finished == ["holder 1", "newcomer", "holder 2"]


def test_sessions_from_one_address_share_one_client_s_places() -> None:
    queue = FairQueue(slots=1, queue_limit=2)
    room = [Client(f"tab {k}", "10.0.0.7") for k in range(3)]
    assert queue.take_slot(queue.enter(room[0]))
    waiting = [queue.enter(room[1]), queue.enter(room[2])]  # three tabs, one address
    assert queue.held(Client("another tab", "10.0.0.7")) == 3
    phone = queue.enter(Client("phone", "10.0.0.9"))
    assert waiting[1].refused is not None and waiting[0].refused is None
    assert queue.ahead_of(phone) == 1  # only the running job: it overtakes the address's second
    laptop = queue.enter(Client("laptop", "10.0.0.10"))  # the address still held two places
    assert waiting[0].refused is not None
    assert queue.busy() == (1, 2) and queue.ahead_of(laptop) == 2
    with pytest.raises(ServerBusy, match="try again in a minute"):
        queue.enter(Client("tablet", "10.0.0.11"))  # one place each now: the newcomer waits
    with pytest.raises(ServerBusy, match="gave its place"):
        queue.take_slot(waiting[1])


def test_clients_holding_one_place_each_refuse_the_next_plainly() -> None:
    queue = FairQueue(slots=1, queue_limit=1)
    queue.take_slot(queue.enter(Client("a")))
    queue.enter(Client("b"))
    with pytest.raises(ServerBusy, match=r"the server is busy: 2 jobs ahead"):
        queue.enter(Client("c"))
