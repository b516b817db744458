"""What bench/load/load_test.py records for each session, in either client (Chromium or websocket).

Shared by load_test.py (which runs and reports) and load_ws.py (the websocket client's
sessions), so neither imports the other.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

GATE_SECONDS = 600  # the longest the first session at the Train gate waits for the rest


class Gate:
    """Holds sessions until all have arrived (or given up), so they click at once."""

    def __init__(self, count: int) -> None:
        self.left = count
        self.open = asyncio.Event()

    def arrive(self) -> None:
        self.left -= 1
        if self.left <= 0:
            self.open.set()

    async def wait(self) -> None:
        await asyncio.wait_for(self.open.wait(), GATE_SECONDS)


@dataclass
class Student:
    index: int
    finished: bool = False
    error: str | None = None
    open_s: float | None = None  # goto -> the Train page idle
    train_s: float | None = None  # click Train -> "Tokenizer: <run>" heading
    train_settled_s: float | None = None  # ... -> the whole page redrawn
    step_s: list[float] = field(default_factory=list)  # click -> "After step N"
    step_settled_s: list[float] = field(default_factory=list)  # ... -> run finished (ws)
    sidebar_run: str | None = None
    mismatches: list[str] = field(default_factory=list)  # steps showing another corpus


@dataclass
class DeepLink:
    index: int
    link: str
    title: str
    seconds: float | None = None  # navigation start -> ready (title, current page, idle)
    connected_s: float | None = None  # navigation start -> the server's first message
    shown_title: str | None = None
    exceptions: int = 0
    error: str | None = None
