"""Keep the garbage collector's full passes short in a server that holds many objects.

A full collection visits every container object the interpreter tracks. In the app's
server those are mostly what importing streamlit, pandas, pyarrow and altair made, and
the pages' modules: objects that live as long as the process. In a load test of thirty
sessions (`bench/load/load_test.py`, gc callbacks timing each pass) the server made 10 full
passes of ~120 ms each while the room stepped; every pass stalls every session, since
their scripts share one interpreter. `gc.freeze()` moves the objects alive now to a
permanent generation that collections skip, so later passes visit only what sessions
made since. It is called once per page, after the page's first run in this process
(by then its modules are imported), after one last full collection so that no garbage
is frozen with them.

    >>> freeze_after_first_run("example"), freeze_after_first_run("example")
    (True, False)
"""

from __future__ import annotations

import gc
import threading

# Python collects the youngest generation every 700 allocations; a step allocates tens of
# thousands of short-lived objects (HTML pieces, protobufs) that reference counting frees
# anyway, so most of those passes find nothing: fewer passes, the same garbage freed
YOUNG_THRESHOLD = 20_000
_frozen: set[str] = set()
_lock = threading.Lock()


def freeze_after_first_run(page: str) -> bool:
    """Collect and freeze once per page and process; whether this call did."""
    with _lock:
        if page in _frozen:
            return False
        _frozen.add(page)
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    return True
