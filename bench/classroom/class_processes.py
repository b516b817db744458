"""A class on several processes (issue 37 §5): the stack as `bash scripts/run.sh
--processes N` starts it (harness/stack.py), what its processes cost together, the process
killed midway, and the scores read back at the end.

- which process holds whom: each page's websocket is one connection from nginx to a
  Streamlit process's port (/proc/net/tcp), so the teacher's process is the one that has
  a connection when the teacher alone is in;
- the kill: `kill -9` of the process, other than the teacher's, that holds the most
  students, at the middle of the lesson; the students it held are those whose sockets
  closed, and each is back when its page follows the teacher again, in the same seat;
- answers kept: at the end the teacher shows the scores, and the answers the class
  counted at its reveals (before the kill and after) are each still in a student's
  "Answered" column.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from harness import app_server
from harness.stack import Stack
from harness.ws_client import ScriptRun, StreamlitClient


class Measured(Protocol):
    """What class_load measures of its server: one process, or the stack's together."""

    @property
    def port(self) -> int: ...

    def cpu_seconds(self) -> float: ...

    def peak_rss_bytes(self) -> int: ...


@dataclass
class StackMeter:
    """The figures class_load takes of one server, over every Streamlit process of the
    stack: CPU summed (a killed process's kept as last read), peak RSS the largest."""

    stack: Stack
    cpu: dict[int, float] = field(default_factory=dict)  # pid -> CPU seconds last read
    rss: dict[int, int] = field(default_factory=dict)  # pid -> VmHWM bytes last read

    @property
    def port(self) -> int:
        return self.stack.port

    def read(self) -> None:
        for app in self.stack.record().get("apps", []):
            pid = int(app["pid"])
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                fields = stat.rsplit(")", 1)[1].split()
                ticks = int(fields[11]) + int(fields[12])
                self.cpu[pid] = ticks / os.sysconf("SC_CLK_TCK")
                self.rss[pid] = app_server.proc_status_kib(pid, "VmHWM") * 1024
            except (OSError, ValueError):
                continue  # ended: its last reading stands

    def cpu_seconds(self) -> float:
        self.read()
        return sum(self.cpu.values())

    def peak_rss_bytes(self) -> int:
        self.read()
        return max(self.rss.values(), default=0)


@dataclass
class Kill:
    """The process killed midway: its port, when, and the pages it held then."""

    port: int
    at: float
    pages: int


def teacher_port(stack: Stack, before: dict[int, int]) -> int | None:
    """The process that gained one page since `before` (the counts when the teacher's page
    was not open yet), while the teacher's is the only page opened: looked at for up to
    10 s, as a connection from a health check may linger a moment."""
    for _ in range(50):  # bounded: 50 x 0.2 s
        now = stack.established(stack.app_ports())
        gained = [port for port, count in now.items() if count > before.get(port, 0)]
        if len(gained) == 1 and sum(now.values()) - sum(before.values()) == 1:
            print(f"  the teacher's page is on the process on port {gained[0]}", flush=True)
            return gained[0]
        time.sleep(0.2)
    print(f"  the teacher's process not found: pages per port {now}", flush=True)
    return None


def kill_one(stack: Stack, spare: int | None) -> Kill | None:
    """`kill -9` the process (not `spare`, the teacher's) holding the most pages; none
    when the teacher's is not known (the bench would lose its teacher)."""
    counts = stack.established(stack.app_ports())
    if spare is None:
        print("  no process killed: the teacher's process is not known", flush=True)
        return None
    candidates = [(count, port) for port, count in counts.items() if port != spare and count]
    if not candidates:
        return None
    pages, port = max(candidates)
    os.kill(stack.app_pid(port), signal.SIGKILL)
    kill = Kill(port, time.monotonic(), pages)
    print(
        f"  killed the process on port {port} (kill -9), which held {pages} pages; the "
        f"pages per process were {sorted(counts.values(), reverse=True)}",
        flush=True,
    )
    return kill


class Scorer(StreamlitClient):
    """The teacher's session, keeping the tables its page draws (the class's scores)."""

    tables: list[bytes]

    def read_delta(self, message: Any, run: ScriptRun, until: str | None, t0: float) -> None:
        super().read_delta(message, run, until, t0)
        if message.delta.WhichOneof("type") == "new_element":
            element = message.delta.new_element
            if element.WhichOneof("type") in ("dataframe", "arrow_data_frame"):
                inner = getattr(element, element.WhichOneof("type"))
                data = inner.arrow_data.data if inner.HasField("arrow_data") else inner.data
                self.tables.append(bytes(data))


def answered_total(table: bytes) -> int | None:
    """The sum of a scores table's "Answered" column (None: no such table)."""
    import pyarrow as pa

    try:
        frame = pa.ipc.open_stream(table).read_all()
    except (pa.ArrowInvalid, OSError):
        return None
    if "Answered" not in frame.column_names:
        return None
    return int(sum(value or 0 for value in frame.column("Answered").to_pylist()))


async def answers_kept(teacher: Scorer) -> int | None:
    """Show the class's scores (the teacher's toggle) and sum what they say was answered."""
    teacher.tables = []
    await teacher.rerun(values={"class_scores": ("bool_value", True)})
    run = await teacher.rerun()
    del run
    totals = [total for total in map(answered_total, teacher.tables) if total is not None]
    return totals[-1] if totals else None
