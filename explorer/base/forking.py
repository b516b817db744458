"""Whether this process may fork: fork copies only the calling thread.

>>> isinstance(can_fork(), bool)
True
"""

from __future__ import annotations

import threading


def can_fork() -> bool:
    """Whether fork is available and safe: it copies only the calling thread, so only
    while this process runs no other."""
    import multiprocessing

    return threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()
