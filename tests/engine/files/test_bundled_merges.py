"""The merges shipped beside the bundled rank files are the ones BPE rebuilds from the ranks,
and a wrong merges file cannot load."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from explorer.files import bundled
from explorer.files.bundled import BUNDLED, VOCABULARY_DIR, _with_shipped_merges, rebuilt_merges
from explorer.files.bundled_merges import merges_text, read_merges
from explorer.files.errors import FormatError

SHIPPED = [name for name, spec in BUNDLED.items() if spec.merges_file is not None]


@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_merges_are_what_bpe_rebuilds_from_the_ranks(name: str) -> None:
    spec = BUNDLED[name]
    assert spec.merges_file is not None
    shipped = (VOCABULARY_DIR / spec.merges_file[0]).read_bytes()
    rank_file, rank_sha = spec.files[0]
    assert shipped.decode("ascii") == merges_text(rebuilt_merges(name), rank_file, rank_sha)
    assert hashlib.sha256(shipped).hexdigest() == spec.merges_file[1]


def _shipped(name: str) -> tuple[bytes, list[tuple[int, int]]]:
    spec = BUNDLED[name]
    assert spec.merges_file is not None
    ranks = (VOCABULARY_DIR / spec.files[0][0]).read_bytes()
    return ranks, read_merges((VOCABULARY_DIR / spec.merges_file[0]).read_bytes(), "shipped")


def test_a_changed_merges_file_is_not_the_official_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, merges = _shipped("cl100k_base")
    merges[500] = (merges[500][1], merges[500][0])  # the same two parts, the other way round
    shutil.copy(VOCABULARY_DIR / "cl100k_base.tiktoken", tmp_path)
    (tmp_path / "cl100k_base.merges").write_text(
        merges_text(merges, "cl100k_base.tiktoken", "x"), encoding="ascii"
    )
    monkeypatch.setattr(bundled, "VOCABULARY_DIR", tmp_path)
    with pytest.raises(bundled.BundledError, match=r"cl100k_base\.merges is not the official file"):
        bundled._load("cl100k_base")


def test_merges_that_make_too_few_tokens_or_another_last_one_do_not_load() -> None:
    spec = BUNDLED["cl100k_base"]
    ranks, merges = _shipped("cl100k_base")
    too_few = merges_text(merges[:-1], "cl100k_base.tiktoken", "x").encode("ascii")
    with pytest.raises(FormatError, match=r"makes 100,255 tokens, .* has 100,256"):
        _with_shipped_merges(spec, ranks, too_few)
    merges[-1] = (merges[-1][1], merges[-1][0])
    other_last = merges_text(merges, "cl100k_base.tiktoken", "x").encode("ascii")
    with pytest.raises(FormatError, match="at rank 100255, where vocabularies/cl100k_base"):
        _with_shipped_merges(spec, ranks, other_last)
