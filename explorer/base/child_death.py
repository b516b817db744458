"""Make a child process end with its parent, even when the parent is killed with SIGKILL.

A process pool's workers wait on a queue, and a forked encoder runs to the end of its half:
killed with `kill -9`, the command line left them asleep for over a minute, or at 99 % CPU.
Each child calls `end_with_parent(parent)` first. On Linux the kernel delivers SIGKILL to
the child the moment its parent dies (prctl PR_SET_PDEATHSIG); elsewhere a daemon thread
checks once a second whether the parent is still there and ends the process when it is not.

subtle: a parent that died before the child asked is already gone, and the signal would
never come; the child then sees another parent (init or a subreaper) and ends itself.

    >>> import os
    >>> parent_is(os.getppid()), parent_is(-1)
    (True, False)
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
POLL_SECONDS = 1.0  # how often the fallback thread looks for the parent


def end_with_parent(parent: int) -> None:
    """End this process when process `parent` (its parent) ends; at once if it has ended."""
    if not (sys.platform.startswith("linux") and _ask_kernel()):
        threading.Thread(target=_watch, args=(parent,), daemon=True).start()
    if not parent_is(parent):
        os._exit(1)  # the parent died before the request above: nobody waits for us


def parent_is(parent: int) -> bool:
    """Whether this process's parent is still process `parent`."""
    return os.getppid() == parent


def _ask_kernel() -> bool:
    """Ask Linux to send SIGKILL when the parent dies; False if it cannot be asked."""
    import ctypes  # here: only children pay for it

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while parent_is(parent):
        time.sleep(POLL_SECONDS)
    os._exit(1)
