"""The merges shipped beside the bundled rank files are the ones BPE rebuilds from the ranks,
and a wrong merges file cannot load."""

from __future__ import annotations

import hashlib

import pytest

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


def test_a_merges_file_that_makes_another_token_does_not_load() -> None:
    spec = BUNDLED["cl100k_base"]
    assert spec.merges_file is not None
    ranks = (VOCABULARY_DIR / spec.files[0][0]).read_bytes()
    merges = read_merges((VOCABULARY_DIR / spec.merges_file[0]).read_bytes(), "shipped")
    merges[500] = (merges[500][1], merges[500][0])  # the same two parts, the other way round
    wrong = merges_text(merges, "cl100k_base.tiktoken", "x").encode("ascii")
    with pytest.raises(FormatError, match="at rank 756, where vocabularies/cl100k_base"):
        _with_shipped_merges(spec, ranks, wrong)
    too_few = merges_text(merges[:-1], "cl100k_base.tiktoken", "x").encode("ascii")
    with pytest.raises(FormatError, match=r"makes 100,255 tokens, .* has 100,256"):
        _with_shipped_merges(spec, ranks, too_few)
