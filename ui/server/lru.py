"""A small LRU shared by every session's thread, for values a step of a page reuses.

Streamlit's `st.cache_resource` hashes its arguments and inspects the function's
signature on every call: about 0.3 ms, a tenth of an Animate step's server time when a
step made three such calls (py-spy, `bench/load/step_cpu.py --paste --profile`). The step's
caches are these instead, keyed on plain values the caller builds.

Which cache, the app's rule (docs/layout.md says it too):

- `functools.cache` / `functools.lru_cache(maxsize=N)`: a pure function of a few small
  hashable values (text, numbers, bytes, tuples of them) whose results are small and
  cheap, so a count bound is a memory bound and two sessions computing one at once
  cost nothing worth a lock (`ui.session.markdown._escaped_short`,
  `ui.animate.charts._marker_bytes`); `functools.cache` only for a fixed set of
  arguments (none, or a handful). The engine (`explorer/`) uses only these.
- `SharedLru`: what belongs to a run (a tokenizer at a size, a step's encoding, tables,
  chart specs, metric counts), keyed on the run's key and plain values, never on a
  Tokenizer: values that vary in size get a weight bound, and `get_or_make` has
  sessions asking for one key at once wait for one make; and anything on a step's path.
- `st.cache_resource` / `st.cache_data`: a process's one object (the class store), or a
  page's once-a-view work that wants Streamlit's spinner or a ttl (the Vocabulary table,
  the check-up), never on a step's path.

    >>> cache = SharedLru(2)
    >>> cache.put(("run", 1), "one"); cache.put(("run", 2), "two"); cache.put(("run", 3), "3")
    >>> cache.get(("run", 1)), cache.get(("run", 3))
    (None, '3')
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

Value = TypeVar("Value")


class SharedLru:
    """A thread-safe LRU of immutable values keyed on plain values (no Streamlit), bounded
    in entries and, when values are given a weight, in total weight."""

    def __init__(self, max_entries: int, max_weight: int | None = None) -> None:
        self.max_entries = max_entries
        self.max_weight = max_weight
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()
        self._making: dict[Hashable, threading.Lock] = {}  # a lock per key being made

    def held(self) -> tuple[int, int]:
        """(entries, their total weight) kept now.

        >>> cache = SharedLru(4, max_weight=10); cache.put("a", 1, weight=3); cache.held()
        (1, 3)
        """
        with self._lock:
            return len(self._entries), self._weight

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            if key not in self._entries:
                return None
            self._entries.move_to_end(key)
            return self._entries[key][0]

    def put(self, key: Hashable, value: Any, weight: int = 0) -> None:
        with self._lock:
            if key in self._entries:
                self._weight -= self._entries[key][1]
            self._entries[key] = (value, weight)
            self._entries.move_to_end(key)
            self._weight += weight
            while len(self._entries) > 1 and (
                len(self._entries) > self.max_entries
                or (self.max_weight is not None and self._weight > self.max_weight)
            ):
                self._weight -= self._entries.popitem(last=False)[1][1]

    def get_or_make(
        self, key: Hashable, make: Callable[[], Value], weight: Callable[[Value], int]
    ) -> Value:
        """The kept value, or `make()` kept with its weight; sessions asking for the same
        key at once wait for one `make()`, as `st.cache_resource` has them do.

        >>> cache = SharedLru(4)
        >>> cache.get_or_make("k", lambda: [1], len), cache.get_or_make("k", lambda: [2], len)
        ([1], [1])
        """
        # subtle: a key holds what one `make` made, so a value kept under it is a Value
        found = cast("Value | None", self.get(key))
        if found is not None:
            return found
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        try:
            with making:
                found = cast("Value | None", self.get(key))  # made while this one waited
                if found is None:
                    found = make()
                    self.put(key, found, weight(found))
        finally:
            with self._lock:
                self._making.pop(key, None)
        return found
