"""One allowance of regex matching time for a whole operation, shared by all its calls.

A training, an encode or a page view may spend so many seconds matching a custom
pattern, in all: every segment between special tokens, every block of a file and every
document draws on the same allowance, so cutting a text into many pieces buys no time.
An operation's budget sits inside the budget of whatever runs it (a page view, opened
with `regex_budget`), and may spend only what both have left.

subtle: seconds are the process's CPU time, the clock regex's own `timeout=` counts (C's
`clock()`, see _regex.c): on a loaded machine a match given 1 s ran 3 s of wall time. On
a server, other sessions' threads count too, so a budget runs out sooner, never later.

    >>> with regex_budget(2.0, "this page") as page:
    ...     training = RegexBudget(5.0, "this training", parent=current_budget())
    ...     training.charge(1.5)
    ...     training.remaining(), page.remaining()
    (0.5, 0.5)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")


class BudgetSpent(TimeoutError):
    """A match ran out of regex time; `budget` is the one that ran out."""

    def __init__(self, budget: RegexBudget) -> None:
        super().__init__(f"{budget.purpose} used up its {budget.seconds or 0:.2g} s of regex time")
        self.budget = budget


class RegexBudget:
    """Seconds of matching an operation may spend (None: no limit), and what it has spent.

    Time spent is charged to the budgets around it too (`parent`), and `remaining` is the
    least any of them has left.
    """

    def __init__(
        self, seconds: float | None, purpose: str, parent: RegexBudget | None = None
    ) -> None:
        self.seconds = seconds
        self.purpose = purpose
        self.parent = parent
        self.spent = 0.0

    def remaining(self) -> float | None:
        """Seconds still to spend: the least this budget and those around it have left."""
        own = None if self.seconds is None else max(0.0, self.seconds - self.spent)
        around = None if self.parent is None else self.parent.remaining()
        if own is None or around is None:
            return own if around is None else around
        return min(own, around)

    def charge(self, seconds: float) -> None:
        self.spent += seconds
        if self.parent is not None:
            self.parent.charge(seconds)

    def limiting(self) -> RegexBudget:
        """The budget with the least of its own left: this one, or one around it."""
        chain: list[RegexBudget] = []
        budget: RegexBudget | None = self
        while budget is not None:
            if budget.seconds is not None:
                chain.append(budget)
            budget = budget.parent
        return min(chain, key=lambda b: (b.seconds or 0.0) - b.spent, default=self)

    @contextmanager
    def match_call(self) -> Iterator[float | None]:
        """Time one match call: yields its `timeout=`, charges what it took.

        A call made with nothing left, or that runs out, raises BudgetSpent naming the
        budget that ran out (regex's own TimeoutError is turned into it).
        """
        if self.seconds is None and self.parent is None:  # a preset's: not timed
            yield None
            return
        timeout = self.remaining()
        if timeout is not None and timeout <= 0.0:
            raise BudgetSpent(self.limiting())
        started = time.process_time()
        try:
            yield timeout
        except TimeoutError:
            raise BudgetSpent(self.limiting()) from None
        finally:
            self.charge(time.process_time() - started)


UNLIMITED = RegexBudget(None, "a preset")  # presets are never timed, nor charged

_current: ContextVar[RegexBudget | None] = ContextVar("regex_budget", default=None)


def current_budget() -> RegexBudget | None:
    """The budget the caller runs inside (a page view's), if any."""
    return _current.get()


@contextmanager
def regex_budget(seconds: float, purpose: str) -> Iterator[RegexBudget]:
    """Run the block inside a budget of its own (and inside the one around it, if any)."""
    budget = RegexBudget(seconds, purpose, parent=current_budget())
    token = _current.set(budget)
    try:
        yield budget
    finally:
        _current.reset(token)


def within_budget(
    seconds: float | None, purpose: str, function: Callable[..., T], /, *args: Any, **kwargs: Any
) -> T:
    """function(*args, **kwargs) inside a budget of `seconds` (None: no budget of its own).

    How work sent to a child Python keeps what its page view had left: the child opens
    a budget of that many seconds around the work, so one page view's regex time stays
    one budget wherever its work runs.

    >>> within_budget(1.5, "this page", lambda: current_budget().seconds)
    1.5
    """
    if seconds is None:
        return function(*args, **kwargs)
    with regex_budget(seconds, purpose):
        return function(*args, **kwargs)
