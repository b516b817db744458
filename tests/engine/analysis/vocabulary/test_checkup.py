"""The check-up: the bundled vocabularies against tiktoken, and small tokenizers by hand."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import pytest
import regex
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.analysis.vocabulary.checkup import KINDS, CheckUp, check_up
from explorer.analysis.vocabulary.checkup_rows import kind_rows
from explorer.analysis.vocabulary.lineage import vocab_entries
from explorer.encoding.pretokenize import PatternError, resolve_pattern
from explorer.encoding.regex_budget import regex_budget
from explorer.encoding.tokenizer import Tokenizer
from explorer.files.bundled import BUNDLED_NAMES, load_bundled
from explorer.files.exports import tokenizer_json
from explorer.files.imports import parse_tiktoken
from explorer.files.imports_hf import parse_tokenizer_json
from explorer.training.train import train
from tests.engine.official_vocabularies import official_spec

# The figures docs/metrics.md gives (and issue 23 quotes for unreachable): held to tiktoken below.
README_COUNTS = {
    "gpt2": {
        "unreachable": 0,
        "partial_character": 344,
        "special": 1,
        "whitespace_only": 19,
        "digits_only": 994,
    },
    "cl100k_base": {
        "unreachable": 0,
        "partial_character": 773,
        "special": 5,
        "whitespace_only": 437,
        "digits_only": 1122,
    },
    "o200k_base": {
        "unreachable": 12,
        "partial_character": 1562,
        "special": 2,
        "whitespace_only": 430,
        "digits_only": 1281,
    },
}


@pytest.fixture(scope="module")
def reports() -> Callable[[str], CheckUp]:
    cache: dict[str, CheckUp] = {}

    def get(name: str) -> CheckUp:
        if name not in cache:
            cache[name] = check_up(load_bundled(name))
        return cache[name]

    return get


def _tiktoken_kinds(spec: dict[str, Any]) -> dict[str, set[int]]:
    """Each kind's ids computed from tiktoken's own Encoding of the bundled files alone."""
    encoding = tiktoken.Encoding(
        name=spec["name"],
        pat_str=spec["pat_str"],
        mergeable_ranks=spec["mergeable_ranks"],
        special_tokens=spec["special_tokens"],
    )
    kinds: dict[str, set[int]] = {kind: set() for kind in KINDS if kind != "intermediate_only"}
    for token, rank in spec["mergeable_ranks"].items():
        try:
            text = token.decode("utf-8")
        except UnicodeDecodeError:
            kinds["partial_character"].add(rank)
            continue
        if encoding.encode_ordinary(text) != [rank]:  # special tokens' texts as plain text
            kinds["unreachable"].add(rank)
        if regex.fullmatch(r"\s+", text):
            kinds["whitespace_only"].add(rank)
        if regex.fullmatch(r"\p{Nd}+", text):
            kinds["digits_only"].add(rank)
    kinds["special"] = set(spec["special_tokens"].values())
    return kinds


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_bundled_kinds_equal_tiktokens(name: str, reports: Callable[[str], CheckUp]) -> None:
    report = reports(name)
    expected = _tiktoken_kinds(official_spec(name))
    for kind, ids in expected.items():
        assert set(report.ids(kind) or ()) == ids, kind
    assert report.intermediate_only is None  # no history: unknown, not zero
    counts = report.counts()
    assert {kind: counts[kind] for kind in README_COUNTS[name]} == README_COUNTS[name]


def test_o200k_unreachable_tokens_are_split_by_its_pattern(
    reports: Callable[[str], CheckUp],
) -> None:
    tokenizer, report = load_bundled("o200k_base"), reports("o200k_base")
    found = {tokenizer.vocab[u.id]: u for u in report.unreachable_tokens}
    assert found[b" I'"].pieces == (" I", "'") and found[b"\n//"].pieces == ("\n", "//")
    assert {u.reason for u in found.values()} == {"split"}
    rows = kind_rows(tokenizer, report, "unreachable")
    assert [row.id for row in rows] == sorted(report.unreachable)
    assert rows[0].note == "the pre-tokenizer splits its text: ' I' + \"'\""


def test_a_lower_ranked_merge_path_makes_a_token_unreachable() -> None:
    # "bc" is merged before "ab", so the text "abc" never becomes a + b then ab + c
    tokenizer = Tokenizer([(98, 99), (97, 98), (257, 99)])
    report = check_up(tokenizer)
    (lost,) = report.unreachable_tokens
    assert (lost.id, lost.encoded, lost.pieces, lost.reason) == (258, (97, 256), ("abc",), "merges")
    assert kind_rows(tokenizer, report, "unreachable")[0].note == (
        "merges of lower rank take it apart: its text encodes as 97 + 256 ('a' + 'bc')"
    )


def test_intermediate_only_is_the_vocabulary_tables_flag_at_full_size_only() -> None:
    run = train("aaabdaaabac aaab aaab daaab " * 20, 270, pattern="none")
    report = check_up(run.tokenizer, run.history)
    flagged = {e.id for e in vocab_entries(run.tokenizer, run.history) if e.intermediate_only}
    assert flagged and set(report.intermediate_only or ()) == flagged
    smaller = run.tokenizer.at_vocab_size(260)
    assert check_up(smaller, run.history).intermediate_only is None
    with pytest.raises(ValueError, match="known only for a tokenizer trained here"):
        kind_rows(smaller, check_up(smaller, run.history), "intermediate_only")


def test_lengths_count_bytes_for_partial_characters_and_characters_else() -> None:
    tokenizer = Tokenizer(
        [(228, 189), (256, 160), (32, 32), (258, 258), (49, 50)], special_tokens=["<|x|>"]
    )
    report = check_up(tokenizer)
    assert report.by_length("partial_character") == {1: 128, 2: 1}  # 你 whole is 257
    assert 257 not in report.partial_character and report.lengths[257] == 1
    assert report.by_length("whitespace_only") == {1: 6, 2: 1, 4: 1}
    assert report.by_length("digits_only") == {1: 10, 2: 1}
    assert report.special == (261,) and report.by_length("special") == {5: 1}
    with pytest.raises(ValueError, match="not a check-up kind"):
        report.ids("bogus")


def test_a_custom_pattern_stays_in_the_pages_regex_budget() -> None:
    tokenizer = Tokenizer([(97, 97)], pattern=r"\w+|.")  # a custom pattern: timed
    with regex_budget(0.0, "on this page"), pytest.raises(PatternError, match="on this page"):
        check_up(tokenizer)


@settings(max_examples=8, deadline=None)
@given(
    text=st.text(alphabet="ab c'\n1é你", min_size=1, max_size=60),
    pattern=st.sampled_from(["none", "gpt2", "o200k"]),
)
def test_kinds_agree_with_their_definitions(text: str, pattern: str) -> None:
    tokenizer = train(text, 290, pattern=pattern).tokenizer
    report = check_up(tokenizer)
    counts = report.counts()
    for token_id, token in tokenizer.vocab.items():
        valid = _utf8(token)
        assert (token_id in report.partial_character) == (valid is None)
        if valid is not None:
            yields_alone = tokenizer.encode(valid, disallowed_special=()) == [token_id]
            assert (token_id in report.unreachable) == (not yields_alone)
    assert not set(report.whitespace_only) & set(report.digits_only)
    for kind in KINDS:
        ids = report.ids(kind)
        assert counts[kind] == (None if ids is None else len(ids))
    assert resolve_pattern(pattern) == tokenizer.pattern


def _utf8(token: bytes) -> str | None:
    try:
        return token.decode("utf-8")
    except UnicodeDecodeError:
        return None


def test_files_with_entries_outside_the_merges_load_and_are_counted() -> None:
    """A word no merge makes (ignore_merges) and a rank no merge reaches: held, counted, listed."""
    tokenizer = Tokenizer([(97, 97), (256, 98)], pattern=resolve_pattern("gpt2"))
    assert check_up(tokenizer).outside_merges == ()
    document = json.loads(tokenizer_json(tokenizer))
    document["model"]["ignore_merges"] = True
    document["model"]["vocab"]["zz"] = 258  # a word no merge makes
    loaded = parse_tokenizer_json(json.dumps(document))
    report = check_up(loaded)
    assert report.outside_merges == (258,) and report.unreachable == ()
    assert loaded.encode("zz zzz aab") == [258, 32, 122, 122, 122, 32, 257]
    [row] = kind_rows(loaded, report, "outside_merges")
    assert (row.id, row.text, row.hex, row.length) == (258, "zz", "7a 7a", 2)
    assert row.note == "no merge makes it: a pre-token that is exactly its text encodes to it"
    document["model"]["ignore_merges"] = False  # then no text yields it
    never = parse_tokenizer_json(json.dumps(document))
    assert never.encode("zz") == [122, 122] and never.decode([258]) == "zz"
    assert check_up(never).unreachable == (258,)
    assert "never takes it whole" in kind_rows(never, check_up(never), "outside_merges")[0].note
    ranks = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    ranks.append(f"{base64.b64encode(b'abc').decode()} 256")  # no 'ab' or 'bc' below it
    ranked = parse_tiktoken("\n".join(ranks), pattern="")
    assert check_up(ranked).counts()["outside_merges"] == 1
    theirs = tiktoken.Encoding(
        name="outside",
        pat_str=r"\w+|\W",
        mergeable_ranks={bytes([b]): b for b in range(256)} | {b"abc": 256},
        special_tokens={},
    )
    ours = parse_tiktoken("\n".join(ranks), pattern=r"\w+|\W")
    for text in ("abc", "abcabc abc", "xabc", " abc"):
        assert ours.encode(text) == theirs.encode_ordinary(text), text
