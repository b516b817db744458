"""The runs kept on disk (ui/session/run_store.py): round trips, damage, temporary files,
eviction."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ui.session import run_store as store
from ui.session.run_spec import RunKind, RunSpec, text_key

KEY_A, KEY_B, KEY_C = "a" * 16, "b" * 16, "c" * 16


def stored(text: str = "low lower lowest") -> store.StoredRun:
    spec = RunSpec("“low…” · gpt4 · 263", "Pasted text", text_key((text,)), 270, "gpt4")
    return store.StoredRun(spec.as_dict(), (text,), "model text", '{"history": 1}')


def config(folder: Path, cap_bytes: int = 10**9) -> store.StoreConfig:
    return store.StoreConfig(folder, cap_bytes)


def test_a_run_comes_back_as_it_was_saved(tmp_path: Path) -> None:
    run = stored("Thai ภาษาไทย, a lone surrogate \ud800, and\r\nnewlines kept")
    assert store.save(config(tmp_path), KEY_A, run)
    assert store.load(config(tmp_path), KEY_A) == run
    assert RunSpec.from_dict(run.spec).kind is RunKind.TEXT
    assert [p.name for p in tmp_path.iterdir()] == [f"{KEY_A}.run"]  # no temporary left


def test_an_unknown_key_is_none_and_a_bad_key_names_no_file(tmp_path: Path) -> None:
    assert store.load(config(tmp_path), KEY_B) is None
    assert store.load(config(tmp_path), "../../etc/passwd") is None
    with pytest.raises(store.StoreError):
        store.path_of(tmp_path, "../x")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda data: data[: len(data) // 2], "written only in part"),
        (lambda data: data[:10], "run header"),
        (lambda data: data[:-3] + b"xyz", "checksum"),
        (lambda data: b"", "run header"),
    ],
)
def test_a_damaged_file_is_reported_removed_and_the_others_stay(
    tmp_path: Path, damage, message: str
) -> None:
    store.save(config(tmp_path), KEY_A, stored("first"))
    store.save(config(tmp_path), KEY_B, stored("second"))
    path = tmp_path / f"{KEY_A}.run"
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(store.StoreError, match=message):
        store.load(config(tmp_path), KEY_A)
    assert not path.exists()
    assert store.load(config(tmp_path), KEY_B) == stored("second")


def test_a_temporary_file_is_never_read_and_a_stale_one_is_cleared(tmp_path: Path) -> None:
    half = tmp_path / f".{KEY_A}.123.tmp"
    half.write_bytes(store.encode(stored())[:50])  # a writer killed before its rename
    assert store.load(config(tmp_path), KEY_A) is None
    store.save(config(tmp_path), KEY_B, stored())
    assert half.exists()  # maybe another writer's, still going
    os.utime(half, (1, 1))
    store.save(config(tmp_path), KEY_C, stored("third"))
    assert not half.exists()


def test_the_runs_read_least_recently_go_first(tmp_path: Path) -> None:
    size = len(store.encode(stored("x" * 100)))
    for n, key in enumerate((KEY_A, KEY_B)):
        store.save(config(tmp_path), key, stored("x" * 100))
        os.utime(tmp_path / f"{key}.run", (1000 + n, 1000 + n))
    store.load(config(tmp_path), KEY_A)  # A is read: B is now the oldest
    store.save(config(tmp_path, cap_bytes=2 * size), KEY_C, stored("x" * 100))
    assert sorted(p.stem for p in tmp_path.glob("*.run")) == [KEY_A, KEY_C]


def test_a_run_larger_than_the_cap_is_kept_until_the_next_save(tmp_path: Path) -> None:
    store.save(config(tmp_path), KEY_A, stored())
    store.save(config(tmp_path, cap_bytes=10), KEY_B, stored("y"))
    assert [p.stem for p in tmp_path.glob("*.run")] == [KEY_B]


def test_saving_twice_only_touches_the_file(tmp_path: Path) -> None:
    store.save(config(tmp_path), KEY_A, stored())
    path = tmp_path / f"{KEY_A}.run"
    os.utime(path, (1, 1))
    store.save(config(tmp_path), KEY_A, stored("something else"))
    assert path.stat().st_mtime > 1 and store.load(config(tmp_path), KEY_A) == stored()


@pytest.mark.parametrize(
    "environ",
    [
        {"BPE_EXPLORER_RUNS_DIR": "off"},
        {"BPE_EXPLORER_RUNS_DIR": "OFF"},
        {"BPE_EXPLORER_RUNS_MB": "0"},
    ],
)
def test_the_store_can_be_switched_off(tmp_path: Path, environ: dict[str, str]) -> None:
    off = store.config_from_env(environ)
    assert not off.enabled
    assert not store.save(off, KEY_A, stored()) and store.load(off, KEY_A) is None


def test_the_environment_chooses_folder_and_cap(tmp_path: Path) -> None:
    chosen = store.config_from_env(
        {"BPE_EXPLORER_RUNS_DIR": str(tmp_path), "BPE_EXPLORER_RUNS_MB": "1.5"}
    )
    assert chosen == store.StoreConfig(tmp_path, 1_500_000)
    default = store.config_from_env({"BPE_EXPLORER_RUNS_MB": "lots"})
    assert default == store.StoreConfig(store.DEFAULT_FOLDER, store.DEFAULT_CAP_MB * 1_000_000)


def test_a_spec_survives_json(tmp_path: Path) -> None:
    spec = RunSpec("n", "s", "k", 300, r"\w+|\s+", ("<|x|>",), 2, RunKind.WORD_COUNTS)
    assert RunSpec.from_dict(spec.as_dict()) == spec
    assert (
        spec.store_key
        == RunSpec(
            "other name", "s", "k", 300, r"\w+|\s+", ("<|x|>",), 2, RunKind.WORD_COUNTS
        ).store_key
    )
    assert store.is_key(spec.store_key)
