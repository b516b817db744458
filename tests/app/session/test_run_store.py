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


def config(folder: Path, cap_bytes: int = 10**9, run_cap: int | None = None) -> store.StoreConfig:
    return store.StoreConfig(folder, cap_bytes, cap_bytes if run_cap is None else run_cap)


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.iterdir())


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


def test_a_run_larger_than_one_run_may_take_is_not_kept_and_evicts_nobody(
    tmp_path: Path,
) -> None:
    """Issue 21: one 2 GB run from a link evicted forty others and stayed over the cap."""
    small = len(store.encode(stored("x" * 100)))
    capped = config(tmp_path, cap_bytes=4 * small, run_cap=2 * small)
    for key in (KEY_A, KEY_B):
        store.save(capped, key, stored("x" * 100))
    with pytest.raises(store.RunTooLarge, match="one run may take"):
        store.save(capped, KEY_C, stored("y" * 10 * small))
    assert sorted(p.stem for p in tmp_path.glob("*.run")) == [KEY_A, KEY_B]
    assert not list(tmp_path.glob("*.tmp"))  # nothing written either
    with pytest.raises(store.RunTooLarge):  # not even into an empty store
        store.save(
            config(tmp_path / "empty", cap_bytes=10**6, run_cap=small - 1), KEY_A, stored("x" * 100)
        )


def test_the_folder_stays_under_its_cap_after_every_save(tmp_path: Path) -> None:
    small = len(store.encode(stored("x")))
    capped = store.StoreConfig(tmp_path, 12 * small)  # a tenth of it for one run by default
    assert capped.largest_run == 12 * small // store.RUN_SHARE
    kept = 0
    for n in range(60):
        run = stored("x" * (n % 7) * (small // 10))  # sizes from tiny to over one run's cap
        try:
            store.save(capped, f"{n:016x}", run)
            kept += 1
        except store.RunTooLarge:
            pass
        assert folder_bytes(tmp_path) <= capped.cap_bytes, n
    assert 0 < kept < 60


def test_one_run_may_take_a_tenth_of_the_store_unless_the_environment_says(
    tmp_path: Path,
) -> None:
    assert store.config_from_env({}).largest_run == store.DEFAULT_CAP_MB * 100_000
    chosen = store.config_from_env({"BPE_EXPLORER_RUNS_MB": "10", "BPE_EXPLORER_RUN_MB": "4"})
    assert chosen.largest_run == 4_000_000
    more_than_the_store = store.config_from_env(
        {"BPE_EXPLORER_RUNS_MB": "10", "BPE_EXPLORER_RUN_MB": "40"}
    )
    assert more_than_the_store.largest_run == 10_000_000
    for junk in ("lots", "nan", "inf", "-inf"):
        assert store.config_from_env({"BPE_EXPLORER_RUN_MB": junk}).run_cap_bytes is None


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


@pytest.mark.parametrize("length", ["²", "9" * 5000, "-1", "١٢"])
def test_a_header_length_that_is_not_digits_is_damage(tmp_path: Path, length: str) -> None:
    data = store.encode(stored())
    header, _, body = data.partition(b"\n")
    fields = header.decode("ascii").split()
    forged = " ".join([*fields[:3], length]).encode("utf-8") + b"\n" + body
    with pytest.raises(store.StoreError, match="written only in part"):
        store.decode(forged)


def test_a_file_larger_than_one_run_may_take_is_not_read(tmp_path: Path) -> None:
    """A run kept before there was a cap (issue 21: 2.0 GB) would be read whole by every
    link to it: it is removed instead, with a plain reason, and the others stay."""
    store.save(config(tmp_path), KEY_A, stored("x" * 5000))
    store.save(config(tmp_path), KEY_B, stored("small"))
    capped = config(tmp_path, run_cap=len(store.encode(stored("small"))))
    with pytest.raises(store.StoreError, match="one run may take"):
        store.load(capped, KEY_A)
    assert not (tmp_path / f"{KEY_A}.run").exists()
    assert store.load(capped, KEY_B) == stored("small")
