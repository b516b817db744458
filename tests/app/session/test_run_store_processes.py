"""One runs folder shared by several real processes (scripts/run.sh --processes): saves
stay atomic, and eviction stays correct while they all write, read and evict at once."""

from __future__ import annotations

import multiprocessing
import random
import time
from pathlib import Path
from typing import Any

from ui.session import run_store as store

WRITERS = 4
SAVES = 60
KEPT = 10  # runs the cap holds, the pinned one among them
PINNED = "f" * 16


def run_of(key: str) -> store.StoredRun:
    """Runs of one size: the cap holds exactly KEPT of them."""
    return store.StoredRun({"name": key}, (f"{key} " * 200,), "model", None)


def run_size() -> int:
    return len(store.encode(run_of("0" * 16)))


def shared_config(folder: Path) -> store.StoreConfig:
    size = run_size()
    return store.StoreConfig(folder, cap_bytes=KEPT * size + size // 2, run_cap_bytes=2 * size)


def _writer(folder: str, number: int, start_at: float, out: Any) -> None:
    """Save SAVES runs (every third one also saved by the other writers), reading others'
    runs between saves; report what went wrong, if anything."""
    config = shared_config(Path(folder))
    problems = []
    chooser = random.Random(number)
    time.sleep(max(0.0, start_at - time.time()))
    for k in range(SAVES):
        key = f"{k:08x}{'00000000' if k % 3 == 0 else f'{number + 1:08x}'}"
        try:
            if not store.save(config, key, run_of(key)):
                problems.append(f"{key} not saved")
            for _ in range(3):  # a read touches a run: the eviction's order changes
                other = f"{chooser.randrange(k + 1):08x}{chooser.randrange(WRITERS) + 1:08x}"
                found = store.load(config, other)
                if found is not None and found != run_of(other):
                    problems.append(f"{other} read back different")
        except Exception as exc:  # every failure is reported to the test
            problems.append(f"{key}: {type(exc).__name__}: {exc}")
    out.put(problems)


def test_several_processes_share_one_runs_folder(tmp_path: Path) -> None:
    config = shared_config(tmp_path)
    assert store.save(config, PINNED, run_of(PINNED))
    store.write_pins(tmp_path, "classes", {PINNED})  # a live class's run, in another process
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    start_at = time.time() + 3.0  # every writer has imported by then
    writers = [
        context.Process(target=_writer, args=(str(tmp_path), number, start_at, out))
        for number in range(WRITERS)
    ]
    for writer in writers:
        writer.start()
    problems = [problem for _ in writers for problem in out.get(timeout=120)]
    for writer in writers:
        writer.join(timeout=30)
        assert writer.exitcode == 0
    assert problems == []
    runs = sorted(tmp_path.glob("*.run"))
    # the pinned run, and the cap's worth of others: never more, and never fewer (two
    # evictions at once would each have made room for its own run)
    assert (tmp_path / f"{PINNED}.run").exists()
    assert len(runs) == KEPT, [path.name for path in runs]
    for path in runs:
        assert store.decode(path.read_bytes()) == run_of(path.stem)  # whole, every one
    assert not list(tmp_path.glob(".*.tmp"))
