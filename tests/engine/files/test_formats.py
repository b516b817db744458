"""Saving and loading: minbpe's .model and .vocab, merges JSON, merge-history JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.encoding.pretokenize import PRESETS
from explorer.encoding.tokenizer import Tokenizer
from explorer.files.formats import (
    FormatError,
    load_model,
    merges_json,
    model_text,
    parse_merges_json,
    parse_model,
    save_model,
    vocab_text,
)
from explorer.files.history_file import history_json, load_history, parse_history_json, save_history
from explorer.training.history import MergeHistory, StopReason
from explorer.training.train import train

SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "corpora" / "taylorswift.txt"
TEXT = (
    "The quick brown fox jumps over the lazy dog. It's 2024, and we're testing 123 tokens!\r\n"
    "Byte pair encoding merges the most frequent pair, again and again and again.\r\n"
    "안녕하세요, 세계! 한국어 텍스트도 잘 됩니다. 🙂🙂 emoji 🎉 too.\n"
    "    indented code: def f(x): return x * 2\n\n"
) * 3
PROBES = [
    TEXT,
    "Hello world!\r\n안녕 🙂 <|endoftext|>",
    "  leading and trailing spaces  ",
    "",
]
SPECIALS = ["<|endoftext|>", "<| fim middle |>"]  # one with spaces inside


def aaab() -> Tokenizer:
    return train("aaabdaaabac", 259, pattern="none").tokenizer


# --- .model ---------------------------------------------------------------------------------


def test_model_text_has_minbpe_layout() -> None:
    tok = Tokenizer(aaab().merges, pattern=r" ?\p{L}+", special_tokens=["<|end|>", "<| a b |>"])
    assert model_text(tok) == (
        "minbpe v1\n ?\\p{L}+\n2\n<|end|> 259\n<| a b |> 260\n97 97\n256 97\n257 98\n"
    )
    assert model_text(aaab()) == "minbpe v1\n\n0\n97 97\n256 97\n257 98\n"


@pytest.mark.parametrize("pattern", [*PRESETS, r" \w+|\s+ "])
def test_save_then_load_gives_the_same_ids(tmp_path: Path, pattern: str) -> None:
    trained = train(TEXT, 330, pattern=pattern, special_tokens=SPECIALS).tokenizer
    model_path, vocab_path = save_model(trained, tmp_path / "tok")
    assert (model_path.name, vocab_path.name) == ("tok.model", "tok.vocab")
    loaded = load_model(model_path)
    assert loaded.merges == trained.merges
    assert loaded.pattern == trained.pattern  # leading and trailing spaces kept
    assert loaded.special_tokens == trained.special_tokens
    for text in PROBES:
        assert loaded.encode(text, allowed_special="all") == trained.encode(
            text, allowed_special="all"
        )


@pytest.mark.skipif(not SHARED.exists(), reason="../shared/corpora is not present")
def test_round_trip_on_a_real_corpus(tmp_path: Path) -> None:
    text = SHARED.read_bytes()[:30_000].decode("utf-8", "ignore")
    trained = train(text, 600, pattern="gpt4", special_tokens=["<|endoftext|>"]).tokenizer
    loaded = load_model(save_model(trained, tmp_path / "ts")[0])
    assert loaded.encode(text) == trained.encode(text)


def test_model_files_are_utf8_and_untranslated(tmp_path: Path) -> None:
    tok = Tokenizer(aaab().merges, special_tokens=["<|한|>"])
    model_path, _ = save_model(tok, tmp_path / "k")
    assert model_path.read_bytes() == model_text(tok).encode("utf-8")
    assert b"\r" not in model_path.read_bytes()


def test_reads_crlf_files_and_the_older_header() -> None:
    windows = "minbpe v1\r\n\r\n1\r\n<|end|> 259\r\n97 97\r\n256 97\r\n257 98\r\n"
    assert parse_model(windows).merges == aaab().merges
    old = parse_model("bpe v1\n ?\\w+ \n0\n97 97\n\n")
    assert old.merges == [(97, 97)]
    assert old.pattern == " ?\\w+ "


def test_a_special_token_with_spaces_splits_at_the_last_space() -> None:
    tok = parse_model("minbpe v1\n\n1\n<| a  b |> 256\n")
    assert tok.special_tokens == {"<| a  b |>": 256}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "expected 'minbpe v1' or 'bpe v1' on line 1"),
        ('{"(97,97)": 256}', "expected 'minbpe v1' or 'bpe v1' on line 1"),
        ("minbpe v1\n", "line 2: expected the pre-tokenizer pattern, but the file ends"),
        ("minbpe v1\n\nthree\n", "line 3: the number of special tokens is 'three', not a whole"),
        ("minbpe v1\n\n2\n<|a|> 256\n", "line 5: expected special token 2 of 2"),
        ("minbpe v1\n\n1\n<|a|>\n", "line 4: expected special token 1 of 1 as 'TOKEN ID'"),
        ("minbpe v1\n\n0\n97 97\nabc\n", "line 5: expected two token ids 'LEFT RIGHT', got 'abc'"),
        ("minbpe v1\n\n0\n97 97\n\n97 98\n", "line 5: expected two token ids"),
        ("minbpe v1\n\n0\n97 -1\n", "line 4: expected two token ids"),
        ("minbpe v1\n\n0\n97 97\n256 300\n", "line 5: merge 2 (256, 300) uses id 300"),
        ("minbpe v1\n\n0\n97 97\n97 97\n", "line 5: merge 2 (97, 97) repeats merge 1"),
        ("minbpe v1\n\n1\n<|a|> 100\n97 97\n", "line 4: special token '<|a|>' has id 100"),
        ("minbpe v1\n(\n0\n", "line 2: invalid pre-tokenizer regex"),
    ],
)
def test_malformed_models_name_the_line(text: str, expected: str) -> None:
    with pytest.raises(FormatError, match=r"^model") as error:
        parse_model(text)
    assert expected in str(error.value)


def test_non_utf8_model_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.model"
    path.write_bytes(b"minbpe v1\n\xff\n0\n")
    with pytest.raises(FormatError, match=r"not UTF-8 text: byte 10 \(0xff\)"):
        load_model(path)


@pytest.mark.parametrize(
    "tok",
    [Tokenizer(pattern="a\nb"), Tokenizer(pattern="a\rb"), Tokenizer(special_tokens=["<|\n|>"])],
)
def test_line_breaks_cannot_be_saved(tmp_path: Path, tok: Tokenizer) -> None:
    with pytest.raises(FormatError, match="line break"):
        save_model(tok, tmp_path / "t")
    assert not (tmp_path / "t.model").exists()


def valid_merges(seeds: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Each seed pair, taken modulo the ids that exist at its rank; repeats dropped."""
    merges: list[tuple[int, int]] = []
    for a, b in seeds:
        pair = (a % (256 + len(merges)), b % (256 + len(merges)))
        if pair not in merges:
            merges.append(pair)
    return merges


@settings(max_examples=60, deadline=None)
@given(
    seeds=st.lists(st.tuples(st.integers(0, 9999), st.integers(0, 9999)), max_size=40),
    specials=st.lists(
        st.text(min_size=1).filter(lambda s: "\n" not in s and "\r" not in s),
        max_size=3,
        unique=True,
    ),
)
def test_model_text_round_trips(seeds: list[tuple[int, int]], specials: list[str]) -> None:
    tok = Tokenizer(valid_merges(seeds), special_tokens=specials)
    loaded = parse_model(model_text(tok))
    assert (loaded.merges, loaded.special_tokens) == (tok.merges, tok.special_tokens)


# --- .vocab ---------------------------------------------------------------------------------


def test_vocab_lines_for_aaabdaaabac() -> None:
    lines = vocab_text(Tokenizer(aaab().merges, special_tokens=["<|end|>"])).splitlines()
    assert len(lines) == 260
    assert lines[97] == "[a] 97"
    assert lines[32] == "[ ] 32"
    assert lines[10] == "[\\u000a] 10"
    assert lines[226] == "[<0xE2>] 226"
    assert lines[256:] == [
        "[a][a] -> [aa] 256",
        "[aa][a] -> [aaa] 257",
        "[aaa][b] -> [aaab] 258",
        "[<|end|>] 259",
    ]


# --- merges JSON ----------------------------------------------------------------------------


def test_merges_json_round_trip() -> None:
    tok = train(TEXT, 300, pattern="gpt4").tokenizer
    text = merges_json(tok)
    assert list(json.loads(text).values()) == list(range(256, 300))
    assert parse_merges_json(text).merges == tok.merges


def test_merges_json_accepts_a_space_after_the_comma() -> None:
    tok = parse_merges_json('{"(97, 97)": 256, "(256,97)": 257}', pattern="gpt2")
    assert tok.merges == [(97, 97), (256, 97)]
    assert tok.pattern == "gpt2"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"(97,97)": 256, "(97,98)": 258}', "key '(97,98)': expected id 257"),
        ('{"(97,97)": 256, "(97,97)": 257}', "key '(97,97)': merge 2 (97, 97) repeats merge 1"),
        ('{"(97,300)": 256}', "uses id 300, which does not exist yet"),
        ('{"97 97": 256}', "key '97 97': expected a pair like"),
        ('{"(97,97)": "256"}', "expected id 256"),
        ("[1, 2]", "expected a JSON object"),
        ('{"(97,97)": 256,\n', "line 2, column 1: not valid JSON"),
    ],
)
def test_malformed_merges_json(text: str, expected: str) -> None:
    with pytest.raises(FormatError) as error:
        parse_merges_json(text)
    assert expected in str(error.value)


# --- history JSON ---------------------------------------------------------------------------


def test_history_json_round_trip(tmp_path: Path) -> None:
    history = train(TEXT, 320, pattern="gpt2", special_tokens=SPECIALS).history
    assert any(step.ties for step in history.steps)  # ties are part of what is saved
    path = save_history(history, tmp_path / "h.history.json")
    assert load_history(path) == history
    data = json.loads(path.read_text("utf-8"))
    assert (data["format"], data["version"]) == ("bpe-merge-explorer history", 1)
    assert data["steps"][0]["token"] == history.steps[0].token.hex()


def test_empty_history_round_trip() -> None:
    history = MergeHistory(steps=(), stop_reason=StopReason.NO_PAIRS_LEFT, initial_length=0)
    assert parse_history_json(history_json(history)) == history


def _history_data() -> dict[str, Any]:
    return json.loads(history_json(train("aaabdaaabac", 259, pattern="none").history))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.update(format="other"), "format: expected 'bpe-merge-explorer history'"),
        (lambda d: d.update(version=2), "version: version 2 is not supported"),
        (lambda d: d.pop("steps"), "missing key 'steps'"),
        (lambda d: d.update(stop_reason="bored"), "stop_reason: expected one of"),
        (lambda d: d.update(initial_length=-3), "initial_length: expected 0 or more"),
        (lambda d: d.update(seconds="fast"), "seconds: expected a number of seconds"),
        (lambda d: d["token_usage"].update(x=1), "token_usage['x']: expected a token id"),
        (lambda d: d["steps"][1].update(token="6162"), "steps[1].token: expected 616161"),
        (lambda d: d["steps"][1].update(token="zz"), "steps[1].token: expected hex digits"),
        (lambda d: d["steps"][2].update(rank=5), "steps[2]: expected rank 2 and new_id 258"),
        (lambda d: d["steps"][0].update(count=True), "steps[0].count: expected a whole number"),
        (lambda d: d["steps"][0].update(ties=[[1]]), "steps[0].ties[0]: expected a pair"),
        (lambda d: d["steps"][1].update(left=400), "steps[1]: merge 2 (400, 97) uses id 400"),
    ],
)
def test_malformed_history_names_the_key(change: Callable[[Any], object], expected: str) -> None:
    data = _history_data()
    change(data)
    with pytest.raises(FormatError) as error:
        parse_history_json(json.dumps(data))
    assert str(error.value).startswith("history JSON")
    assert expected in str(error.value)


def test_history_json_that_is_not_json() -> None:
    with pytest.raises(FormatError, match="line 1, column 1: not valid JSON"):
        parse_history_json("minbpe v1\n")
