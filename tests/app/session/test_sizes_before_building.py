"""Sized before built (issue 35 §1): the run store refuses a run from its texts' lengths
before encoding its file, and the training cache holds trained runs by bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer import train
from ui.server.lru import SharedLru
from ui.session import run_cache
from ui.session import run_store as store
from ui.session.run_spec import RunKind


def test_a_run_whose_texts_pass_the_cap_is_refused_before_its_file_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(_run: store.StoredRun) -> bytes:
        raise AssertionError("encode() must not be called for a run known to be too large")

    monkeypatch.setattr(store, "encode", never)
    config = store.StoreConfig(tmp_path, 10_000_000, 1_000)
    run = store.StoredRun({"name": "big"}, ("x" * 600,), "minbpe v1\n", "h" * 600)
    with pytest.raises(store.RunTooLarge, match=r"at least 0\.0 MB; one run may take 0\.0 MB"):
        store.save(config, "0123456789abcdef", run)
    assert not list(tmp_path.iterdir())


def test_trained_runs_are_kept_by_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    small = ("low lower lowest " * 20,)
    weight = run_cache.trained_bytes(small, train(list(small), 270, pattern="gpt4"))
    monkeypatch.setattr(run_cache, "_trained", SharedLru(64, int(weight * 1.5)))

    def trained(texts: tuple[str, ...]) -> object:
        return run_cache.train_cached(texts, 270, "gpt4", (), 1, RunKind.TEXT)

    first = trained(small)
    assert trained(small) is first  # kept
    trained(("newer newest news " * 20,))  # the two together pass the budget
    assert trained(small) is not first  # the older was let go, and is trained again
