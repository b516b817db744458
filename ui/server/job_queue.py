"""The heavy-work queue's rules: a few slots, a bounded wait, and a fair share per client.

Five sessions pasting 6 MB texts took the one slot and all four waiting places, and every
other visitor was told "the server is busy" for as long as ten minutes (issue 35). The
places are now shared by client — a browser session, and the address it connects from,
when known (`Client`): one client holding several places gives them up to newcomers.

- A job enters when a slot or a waiting place is free, whoever asks.
- When all are taken, a newcomer takes the place of the latest job of the client that
  holds the most places, if that client would still hold more than the newcomer; else the
  newcomer is refused. A client that already holds places is told so when refused.
- A free slot goes to the waiting job whose client had the fewest places when it asked
  (its `turn`), then to the earliest: a newcomer overtakes a second or third job.

    >>> queue = FairQueue(slots=1, queue_limit=1)
    >>> alice, bob = Client("alice"), Client("bob")
    >>> first = queue.enter(alice); queue.take_slot(first)
    True
    >>> second = queue.enter(alice)  # the waiting place was free
    >>> third = queue.enter(bob)  # full, but alice holds two places: her second gives way
    >>> second.refused[:56]
    'this job gave its place in the queue to another visitor:'
    >>> try:
    ...     queue.enter(alice)  # full, and everyone holds one place: alice waits her turn
    ... except ServerBusy as busy:
    ...     print(str(busy).replace(": ", ":\\n"))
    the server is busy, and you already have 1 job running or waiting:
    try again when it has finished
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from itertools import count


class JobError(ValueError):
    """The child could not do the job: it ran out of memory or time, or it died."""


class ServerBusy(JobError):
    """Every slot is taken and the wait queue is full (or this client's share of it)."""


@dataclass(frozen=True)
class Client:
    """Who asks for a job: a session, and the address it connects from (None: unknown,
    so only the session counts; no session either: a client of its own each time)."""

    session: str | None = None
    address: str | None = None

    def shares_with(self, other: Client) -> bool:
        """The same session or the same address: one client for the queue's shares.

        >>> Client("s1", "10.0.0.5").shares_with(Client("s2", "10.0.0.5"))
        True
        >>> Client("s1").shares_with(Client("s2")), Client().shares_with(Client())
        (False, False)
        """
        return (self.session is not None and self.session == other.session) or (
            self.address is not None and self.address == other.address
        )


@dataclass(eq=False)
class Ticket:
    """One job's place: who asked, how many places they held then, when; and, once it has
    had to give way, the sentence that says why."""

    client: Client
    turn: int
    arrival: int
    refused: str | None = None
    running: bool = field(default=False)


class FairQueue:
    """Slots and waiting places shared fairly between clients (thread-safe)."""

    def __init__(self, slots: int, queue_limit: int) -> None:
        if slots < 1 or queue_limit < 0:
            raise ValueError(f"need slots >= 1 and queue_limit >= 0: {slots}, {queue_limit}")
        self.slots, self.queue_limit = slots, queue_limit
        self.changed = threading.Condition()  # notified whenever a place frees or moves
        self._running: list[Ticket] = []
        self._waiting: list[Ticket] = []
        self._arrivals = count()

    def enter(self, client: Client) -> Ticket:
        """A waiting place for the client's job, or ServerBusy with the sentence to show."""
        with self.changed:
            held = self.held(client)
            ticket = Ticket(client, turn=held, arrival=next(self._arrivals))
            if len(self._running) >= self.slots and len(self._waiting) >= self.queue_limit:
                self._make_room(held)
            self._waiting.append(ticket)
            return ticket

    def take_slot(self, ticket: Ticket) -> bool:
        """Whether the ticket now runs (its turn came and a slot was free); raises
        ServerBusy when it has had to give its place away."""
        with self.changed:
            if ticket.refused is not None:
                raise ServerBusy(ticket.refused)
            if len(self._running) >= self.slots or self._next() is not ticket:
                return False
            self._waiting.remove(ticket)
            self._running.append(ticket)
            ticket.running = True
            return True

    def ahead_of(self, ticket: Ticket) -> int:
        """Jobs running or before this one in the order the slots are given."""
        with self.changed:
            order = sorted(self._waiting, key=_priority)
            return len(self._running) + (order.index(ticket) if ticket in order else 0)

    def leave(self, ticket: Ticket) -> None:
        """The job ended, or stopped waiting: its place is free."""
        with self.changed:
            for places in (self._running, self._waiting):
                if ticket in places:
                    places.remove(ticket)
            self.changed.notify_all()

    def busy(self) -> tuple[int, int]:
        """(jobs running, jobs waiting) now."""
        with self.changed:
            return len(self._running), len(self._waiting)

    def held(self, client: Client) -> int:
        """Places (running or waiting) held by this client, by session or by address."""
        with self.changed:
            return sum(t.client.shares_with(client) for t in self._running + self._waiting)

    # --- the rules -----------------------------------------------------------------------

    def _next(self) -> Ticket | None:
        return min(self._waiting, key=_priority, default=None)

    def _make_room(self, newcomer_holds: int) -> None:
        """Refuse the latest job of the client holding the most places, when it would
        still hold more than the newcomer; else refuse the newcomer (raise ServerBusy)."""
        holdings = {id(t): self.held(t.client) for t in self._waiting}
        candidates = [t for t in self._waiting if holdings[id(t)] >= newcomer_holds + 2]
        if not candidates:
            raise ServerBusy(self._busy_sentence(newcomer_holds))
        victim = max(candidates, key=lambda t: (holdings[id(t)], t.turn, t.arrival))
        others = holdings[id(victim)] - 1
        victim.refused = (
            "this job gave its place in the queue to another visitor: the server is busy, "
            f"and you have {_jobs(others)} running or waiting; try again when "
            f"{'it has' if others == 1 else 'one has'} finished"
        )
        self._waiting.remove(victim)
        self.changed.notify_all()

    def _busy_sentence(self, newcomer_holds: int) -> str:
        if newcomer_holds:
            return (
                f"the server is busy, and you already have {_jobs(newcomer_holds)} running or "
                f"waiting: try again when {'it has' if newcomer_holds == 1 else 'one has'} "
                "finished"
            )
        ahead = len(self._running) + len(self._waiting)
        return (
            f"the server is busy: {_jobs(ahead)} ahead (at most {self.slots} run and "
            f"{self.queue_limit} wait at once); try again in a minute"
        )


def _priority(ticket: Ticket) -> tuple[int, int]:
    return ticket.turn, ticket.arrival


def _jobs(n: int) -> str:
    """`_jobs(1) == '1 job'`, `_jobs(3) == '3 jobs'`."""
    return f"{n} job" if n == 1 else f"{n} jobs"
