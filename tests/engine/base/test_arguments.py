"""Every public function checks its arguments at the door: a TypeError or ValueError that
names the parameter, never a failure deep inside or a silently wrong result."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import explorer
from explorer import (
    Tokenizer,
    load_bundled,
    load_history,
    load_model,
    parse_history_json,
    parse_model,
    render_token,
    save_history,
    save_model,
    tokens_to_html,
    train,
    train_files,
    train_word_counts,
)

TOK = Tokenizer([(97, 98)], special_tokens=["<s>"])
HISTORY = train("abab", 257, pattern="none").history

# (call, error type, words the message must contain)
CASES: list[tuple[str, Callable[[], Any], type[Exception], str]] = [
    ("train bytes", lambda: train(b"bytes", 300), TypeError, "text must be a str"),
    ("train list of bytes", lambda: train(["a", b"b"], 300), TypeError, "text[1] must be a str"),
    ("train float vocab", lambda: train("ab", 300.0), TypeError, "vocab_size must be a whole"),
    ("train bool vocab", lambda: train("ab", True), TypeError, "vocab_size"),
    ("train pattern None", lambda: train("ab", 300, pattern=None), TypeError, "pattern must be"),
    ("train special str", lambda: train("ab", 300, special_tokens="<s>"), TypeError, "['<s>']"),
    ("train special int", lambda: train("ab", 300, special_tokens=[1]), TypeError, "tokens[0]"),
    ("train min_count", lambda: train("ab", 300, min_count=1.5), TypeError, "min_count"),
    ("train progress", lambda: train("ab", 300, progress=1), TypeError, "progress must be"),
    ("files one path", lambda: train_files("a.txt", 300), TypeError, "paths must be a list"),
    ("files bad item", lambda: train_files([1], 300), TypeError, "paths[0]"),
    ("files workers", lambda: train_files([], 300, workers=0), ValueError, "workers"),
    ("files blocks", lambda: train_files([], 300, block_chars=2.5), TypeError, "block_chars"),
    ("words float", lambda: train_word_counts({"ab": 1.5}, 300), TypeError, "count of 'ab'"),
    ("words bool", lambda: train_word_counts({"ab": True}, 300), TypeError, "count of 'ab'"),
    ("words key", lambda: train_word_counts({b"ab": 1}, 300), TypeError, "each word"),
    ("words list", lambda: train_word_counts(["ab"], 300), TypeError, "word_counts must be"),
    ("merges triple", lambda: Tokenizer([(97, 98, 99)]), TypeError, "merges[0] must be a pair"),
    ("merges float", lambda: Tokenizer([(97.5, 98)]), TypeError, "merges[0][0]"),
    ("merges pair iterator", lambda: Tokenizer([iter((97, 98))]), TypeError, "merges[0] must be"),
    ("merges str", lambda: Tokenizer("ab"), TypeError, "merges must be a list"),
    ("tokenizer pattern", lambda: Tokenizer(pattern=None), TypeError, "pattern must be"),
    ("tokenizer special", lambda: Tokenizer(special_tokens="<s>"), TypeError, "['<s>']"),
    ("encode bytes", lambda: TOK.encode(b"ab"), TypeError, "text must be a str"),
    ("encode allowed str", lambda: TOK.encode("a", allowed_special="<s>"), TypeError, "allowed"),
    ("ordinary int", lambda: TOK.encode_ordinary(5), TypeError, "text must be a str"),
    ("spans None", lambda: TOK.encode_with_spans(None), TypeError, "text must be a str"),
    ("decode float", lambda: TOK.decode([97.0]), TypeError, "ids[0] must be a whole"),
    ("decode bool", lambda: TOK.decode([True]), TypeError, "ids[0] must be a whole"),
    ("decode str", lambda: TOK.decode("97"), TypeError, "ids must be a list"),
    ("decode_bytes float", lambda: TOK.decode_bytes([1, 2.0]), TypeError, "ids[1]"),
    ("token_bytes float", lambda: TOK.token_bytes(97.0), TypeError, "token_id"),
    ("at_vocab_size float", lambda: TOK.at_vocab_size(260.5), TypeError, "vocab_size"),
    ("at_vocab_size small", lambda: TOK.at_vocab_size(3), ValueError, "at least 256"),
    ("initial_ids bytes", lambda: TOK.initial_ids(b"a"), TypeError, "chunk must be a str"),
    ("bundled int", lambda: load_bundled(2), TypeError, "name must be a str"),
    ("bundled unknown", lambda: load_bundled("gpt5"), ValueError, "no bundled vocabulary"),
    ("parse_model bytes", lambda: parse_model(b"minbpe v1"), TypeError, "text must be a str"),
    ("load_model int", lambda: load_model(3), TypeError, "path must be a str or Path"),
    ("save_model str", lambda: save_model("tok", "out"), TypeError, "tokenizer must be"),
    ("save_model prefix", lambda: save_model(TOK, 3), TypeError, "prefix must be"),
    ("history bytes", lambda: parse_history_json(b"{}"), TypeError, "text must be a str"),
    ("load_history int", lambda: load_history(3), TypeError, "path must be"),
    ("save_history", lambda: save_history(TOK, "h.json"), TypeError, "history must be"),
    ("save_history path", lambda: save_history(HISTORY, 3), TypeError, "path must be"),
    ("render_token str", lambda: render_token("ab"), TypeError, "bytes"),
    ("tokens_to_html ids", lambda: tokens_to_html(TOK, [10**9]), ValueError, "1000000000"),
]


@pytest.mark.parametrize(
    ("call", "error", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_arguments_are_named(call: Callable[[], Any], error: type, words: str) -> None:
    with pytest.raises(error) as caught:
        call()
    assert words in str(caught.value)


def test_every_public_function_is_in_the_table() -> None:
    names = {
        name for name in explorer.__all__ if callable(getattr(explorer, name)) and name[0].islower()
    }
    source = Path(__file__).read_text("utf-8")
    assert all(f"{name}(" in source for name in names), names


def test_good_arguments_still_work(tmp_path: Path) -> None:
    import numpy as np

    assert TOK.decode(np.array([97, 98], dtype=np.int64)) == "ab"  # numpy ids are ints
    assert TOK.decode((256, 97)) == "aba"
    assert TOK.at_vocab_size(np.int64(256)).merges == []
    assert train(("ab", "ab"), 257).tokenizer.merges == [(97, 98)]
    assert train_word_counts({"ab": 2}, 257).tokenizer.merges == [(97, 98)]
    assert Tokenizer([[97, 98]], special_tokens={"<s>": 300}).special_tokens == {"<s>": 300}
