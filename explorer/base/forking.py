"""Whether this process may fork (fork copies only the calling thread), and on how many cores
its children may run.

>>> isinstance(can_fork(), bool), usable_cores() >= 1
(True, True)
"""

from __future__ import annotations

import os
import threading


def can_fork() -> bool:
    """Whether fork is available and safe: it copies only the calling thread, so only
    while this process runs no other."""
    import multiprocessing

    return threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13
    if counted is not None:
        return max(1, int(counted() or 1))
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)
