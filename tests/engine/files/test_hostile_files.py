"""A catalogue of hostile files: every file kind the explorer reads, fed what a curious
student (or a hostile visitor) might upload (issue 21).

Each variant must either load or raise one of the explorer's own ValueErrors with a
plain, short message: never RecursionError, OverflowError or MemoryError, never Python's
own words ("sys.set_int_max_str_digits()", "surrogates not allowed"). What loads must be
usable: its ids fit a table column, it encodes and its .model text reads back.

The catalogue is data: `CATALOGUE` lists (kind, variant, files, outcome), built from one
small trained tokenizer written in every format, and `json_fuzz` puts each hostile value
at each place of each JSON file. Add a variant by adding a row.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from explorer import Tokenizer, train
from explorer.files.exports import encoder_json, tiktoken_text, tokenizer_json, vocab_bpe
from explorer.files.formats import merges_json, model_text, parse_model
from explorer.files.history_file import history_json
from explorer.files.imports_hf import parse_tokenizer_json
from explorer.files.limits import MAX_TOKEN_ID
from explorer.files.loading import load_uploads
from ui.session.train_inputs import upload_corpus, vocab_size_problem, word_count_corpus

TEXT = "the cat sat on the mat; the rat sat on the cat. " * 20
LOADS, REFUSED, EITHER = "loads", "refused", "either"
FOREIGN_WORDS = (  # Python's own messages, which must never reach a person
    "set_int_max_str_digits",
    "Traceback",
    "recursion",
    "too large to convert",
    "surrogates not allowed",
    "codec can't",
    "object has no attribute",
    "not subscriptable",
    "unhashable",
)
MARKUP_NAMES = ("![t](http://127.0.0.1:9/t.png)", "<img src=x>", "[Log in](https:evil.example)")
MAX_MESSAGE = 1_000  # characters: a message names the place, it does not echo the file

Files = tuple[tuple[str, bytes], ...]


@dataclass(frozen=True)
class Hostile:
    kind: str
    variant: str
    files: Files
    outcome: str = EITHER

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.variant}"


# --- the honest files every variant starts from ----------------------------------------------


def _trained() -> tuple[Tokenizer, Any]:
    result = train(TEXT, 300, pattern="gpt4")
    with_special = Tokenizer(
        result.tokenizer.merges, pattern=result.tokenizer.pattern, special_tokens=["<|end|>"]
    )
    return with_special, result.history


TOKENIZER, HISTORY = _trained()
MODEL = model_text(TOKENIZER)
MERGES = merges_json(TOKENIZER)
HF = tokenizer_json(TOKENIZER)
TIKTOKEN = tiktoken_text(TOKENIZER)
ENCODER, VOCAB_BPE = encoder_json(TOKENIZER), vocab_bpe(TOKENIZER)
HISTORY_TEXT = history_json(HISTORY)
MODEL_NO_SPECIAL = model_text(Tokenizer(TOKENIZER.merges, pattern=TOKENIZER.pattern))
FIRST_FREE = TOKENIZER.vocab_size  # the first id past the merges


def _files(kind: str, text: str | bytes) -> Files:
    """The files a kind is uploaded as, with `text` in the hostile one."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return {
        "model": (("t.model", data),),
        "merges": (("t.json", data),),
        "tokenizer": (("tokenizer.json", data),),
        "tiktoken": (("t.tiktoken", data),),
        "encoder": (("encoder.json", data), ("vocab.bpe", VOCAB_BPE.encode())),
        "vocab_bpe": (("encoder.json", ENCODER.encode()), ("vocab.bpe", data)),
        "history": (("t.model", MODEL_NO_SPECIAL.encode()), ("t.history.json", data)),
    }[kind]


HONEST = {
    "model": MODEL,
    "merges": MERGES,
    "tokenizer": HF,
    "tiktoken": TIKTOKEN,
    "encoder": ENCODER,
    "vocab_bpe": VOCAB_BPE,
    "history": HISTORY_TEXT,
}
JSON_KINDS = ("merges", "tokenizer", "encoder", "history")


# --- the variants every kind gets --------------------------------------------------------------


def _common(kind: str, honest: str) -> Iterator[Hostile]:
    data = honest.encode()
    rows = [
        ("honest", data, LOADS),
        ("empty", b"", REFUSED),
        ("only spaces", b" \n\t\n", REFUSED),
        ("100k [", b"[" * 100_000, REFUSED),
        ("100k {", b'{"a":' * 100_000, REFUSED),
        ("NUL bytes", b"\x00" * 64 + data, REFUSED),
        ("NUL inside", data[:40] + b"\x00" + data[40:], EITHER),
        ("invalid UTF-8", data + b"\xff\xfe", REFUSED),
        ("binary", bytes(range(256)) * 64, REFUSED),
        ("BOM", b"\xef\xbb\xbf" + data, EITHER),
        ("CRLF", data.replace(b"\n", b"\r\n"), EITHER),
        ("CR only", data.replace(b"\n", b"\r"), EITHER),
        ("5 MB line", b"7" * 5_000_000, REFUSED),
        ("5 MB line after", data + b"x" * 5_000_000, REFUSED),
        ("truncated", data[: len(data) // 2], EITHER),
        ("5,000-digit number", b"9" * 5_000, REFUSED),
        ("an open string of escaped quotes", b'"' + b'\\"' * 100_000, REFUSED),
    ]
    for variant, text, outcome in rows:
        yield Hostile(kind, variant, _files(kind, text), outcome)


# --- the variants of each kind's own fields ------------------------------------------------------


def _model_rows() -> Iterator[tuple[str, str, str]]:
    header, merges = "minbpe v1\n" + TOKENIZER.pattern + "\n", MODEL.split("\n", 4)[4]
    for name, special_id, outcome in [
        ("special id of 24 digits", "9" * 24, REFUSED),
        ("special id of 5,000 digits", "9" * 5_000, REFUSED),
        ("special id 2**31 - 1", str(MAX_TOKEN_ID), LOADS),
        ("special id 2**31", str(MAX_TOKEN_ID + 1), REFUSED),
        ("negative special id", "-5", REFUSED),
        ("special id of a merge", "256", REFUSED),
        ("special id of a byte", "97", REFUSED),
        ("superscript special id", "²", REFUSED),
        ("Arabic-digit special id", "٣٠٠", REFUSED),
        ("special id with underscore", "1_000", REFUSED),
    ]:
        yield name, f"{header}1\n<|end|> {special_id}\n{merges}", outcome
    for markup in MARKUP_NAMES:
        yield f"special named {markup}", f"{header}1\n{markup} {FIRST_FREE}\n{merges}", LOADS
    two = f"<|a|> {FIRST_FREE}\n<|b|> {FIRST_FREE}"
    yield "duplicate special ids", f"{header}2\n{two}\n{merges}", REFUSED
    yield "special count of 24 digits", f"{header}{'9' * 24}\n{merges}", REFUSED
    yield "special count past the file", f"{header}999\n<|a|> {FIRST_FREE}\n", REFUSED
    yield "special of 100 KB", f"{header}1\n{'s' * 100_000} {FIRST_FREE}\n{merges}", REFUSED
    yield "merge id of 24 digits", f"{header}0\n97 {'9' * 24}\n", REFUSED
    yield "merge id of 5,000 digits", f"{header}0\n{'9' * 5_000} 97\n", REFUSED
    yield "negative merge id", f"{header}0\n97 -1\n", REFUSED
    yield "merge of a future id", f"{header}0\n97 97\n258 97\n", REFUSED
    yield "repeated merge", f"{header}0\n97 97\n97 97\n", REFUSED
    doubling = "\n".join(["97 97", *(f"{256 + k} {256 + k}" for k in range(40))])
    yield "40 doubling merges (a 1 TB token)", f"{header}0\n{doubling}\n", REFUSED
    yield "2 MB of blank lines at the end", MODEL + "\n" * 2_000_000, LOADS
    wide = "\n".join(f"{a} {b}" for a in range(256) for b in range(256))
    wide += "\n" + "\n".join(f"{a} {b}" for a in range(256, 1256) for b in range(256, 500))
    yield "310,000 merges", f"{header}0\n{wide}\n", REFUSED
    yield "pattern of 100 KB", f"minbpe v1\n{'a' * 100_000}\n0\n97 97\n", REFUSED
    yield "pattern of 100k [", f"minbpe v1\n{'[' * 100_000}\n0\n97 97\n", REFUSED
    for depth in (40, 1_000, 100_000):
        deep = "(" * depth + "a" + ")" * depth
        yield f"pattern of {depth:,} nested groups", f"minbpe v1\n{deep}\n0\n97 97\n", REFUSED


def _merges_rows() -> Iterator[tuple[str, str, str]]:
    yield "id of 24 digits", '{"(97,97)": ' + "9" * 24 + "}", REFUSED
    yield "id of 5,000 digits", '{"(97,97)": ' + "9" * 5_000 + "}", REFUSED
    yield "key id of 5,000 digits", '{"(97,' + "9" * 5_000 + ')": 256}', REFUSED
    yield "negative id", '{"(97,97)": -256}', REFUSED
    yield "NaN id", '{"(97,97)": NaN}', REFUSED
    yield "1e999 id", '{"(97,97)": 1e999}', REFUSED
    yield "duplicate keys", '{"(97,97)": 256, "(97,97)": 257}', REFUSED
    yield "lone surrogate key", '{"(97,97)\\ud800": 256}', REFUSED
    doubling = ", ".join(
        ['"(97,97)": 256', *(f'"({256 + k},{256 + k})": {257 + k}' for k in range(40))]
    )
    yield "40 doubling merges", "{" + doubling + "}", REFUSED
    yield "deep value", '{"(97,97)": ' + "[" * 100_000 + "}", REFUSED


def _hf(edit: Callable[[dict[str, Any]], None]) -> str:
    data = json.loads(HF)
    edit(data)
    return json.dumps(data)


def _added(content: str, token_id: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["added_tokens"].append({"id": token_id, "content": content, "special": True})
        data["model"]["vocab"][content] = token_id

    return edit


def _tokenizer_rows() -> Iterator[tuple[str, str, str]]:
    yield "100k [ inside model", '{"model": ' + "[" * 100_000 + "}", REFUSED
    yield "100k { inside model", '{"model": ' + '{"a":' * 100_000 + "}", REFUSED
    yield "deep merges", _hf(lambda d: d["model"].update(merges=[[[[[[[[[[[[]]]]]]]]]]]])), EITHER
    raw_big = _hf(_added("<|big|>", 123454321)).replace("123454321", "9" * 24)
    yield "added id of 24 digits", raw_big, REFUSED
    huge = _hf(_added("<|big|>", 123454321)).replace("123454321", "9" * 5_000)
    yield "added id of 5,000 digits", huge, REFUSED
    yield "added id 2**31 - 1", _hf(_added("<|big|>", MAX_TOKEN_ID)), LOADS
    yield "negative added id", _hf(_added("<|neg|>", -3)), REFUSED
    yield "added id of a merge", _hf(_added("<|m|>", 260)), REFUSED
    yield "added id of a byte", _hf(_added("<|b|>", 5)), REFUSED
    yield "added id twice", _hf(_added("<|x|>", FIRST_FREE + 1))[:-1] + "}", EITHER
    yield "lone surrogate added token", _hf(_added("<s\ud800>", FIRST_FREE + 1)), REFUSED
    yield "added token of 100 KB", _hf(_added("s" * 100_000, FIRST_FREE + 1)), REFUSED
    for markup in MARKUP_NAMES:
        yield f"added {markup}", _hf(_added(markup, FIRST_FREE + 1)), LOADS
    yield "vocab a list", _hf(lambda d: d["model"].update(vocab=list(range(300)))), REFUSED
    yield "model a string", _hf(lambda d: d.update(model="BPE")), REFUSED
    yield (
        "pretokenizers a number",
        _hf(lambda d: d["pre_tokenizer"].update(pretokenizers=5)),
        REFUSED,
    )
    yield "root a list", "[1, 2, 3]", REFUSED
    deep = "(" * 100_000 + "a" + ")" * 100_000
    split = _hf(lambda d: d["pre_tokenizer"]["pretokenizers"][0]["pattern"].update(Regex=deep))
    yield "Split regex of 100k groups", split, REFUSED
    classes = _hf(
        lambda d: d["pre_tokenizer"]["pretokenizers"][0]["pattern"].update(Regex="[" * 100_000)
    )
    yield "Split regex of 100k [", classes, REFUSED
    yield "root a number", "5", REFUSED


def _encoder_rows() -> Iterator[tuple[str, str, str]]:
    base = json.loads(ENCODER)
    for name, value in [("24 digits", "9" * 24), ("5,000 digits", "9" * 5_000), ("-1", "-1")]:
        yield f"id of {name}", ENCODER[:-1] + f', "<|x|>": {value}}}', REFUSED
    yield "duplicate ids", json.dumps({**base, "<|x|>": 0}), REFUSED
    yield "token of 100 KB", json.dumps({**base, "x" * 100_000: FIRST_FREE}), REFUSED
    many = {f"<|s{k}|>": FIRST_FREE + 1 + k for k in range(20_000)}
    yield "20,000 special tokens", json.dumps({**base, **many}), REFUSED
    yield "lone surrogate token", ENCODER[:-1] + f', "\\ud800": {FIRST_FREE}}}', REFUSED
    for markup in MARKUP_NAMES:
        yield f"special {markup}", json.dumps({**base, markup: FIRST_FREE + 1}), LOADS


def _vocab_bpe_rows() -> Iterator[tuple[str, str, str]]:
    yield "merge of 100 KB", "#version: 0.2\n" + "a" * 100_000 + " b\n", REFUSED
    yield "one field", "#version: 0.2\nab\n", REFUSED
    yield "unknown tokens", "#version: 0.2\nx y\nz w\n", REFUSED


def _tiktoken_rows() -> Iterator[tuple[str, str, str]]:
    lines = TIKTOKEN.splitlines()
    yield "rank of 24 digits", "\n".join([*lines, "YWJj " + "9" * 24]), REFUSED
    yield "rank of 5,000 digits", "\n".join([*lines, "YWJj " + "9" * 5_000]), REFUSED
    yield "negative rank", "\n".join([*lines, "YWJj -1"]), REFUSED
    yield (
        "duplicate rank",
        "\n".join([*lines, lines[-1].split()[0][:-2] + "xx " + str(299)]),
        EITHER,
    )
    yield "not base64", "\n".join([*lines, "!!!! 300"]), REFUSED
    yield "gap", "\n".join([*lines, "YWJjZA== 400"]), REFUSED
    yield "a ranks-only 100 KB token", "\n".join([*lines, "YQ" * 70_000 + " 300"]), REFUSED
    long_token = base64.b64encode(b"ab" * 50_000).decode()
    # no merge builds it: kept outside the merge path (a piece that is exactly it yields it)
    yield "a token of 100 KB", "\n".join([*lines, f"{long_token} {FIRST_FREE}"]), LOADS
    yield "superscript rank", "\n".join([*lines, "YWJj ²"]), REFUSED


def _history_rows() -> Iterator[tuple[str, str, str]]:
    data = json.loads(HISTORY_TEXT)

    def edited(change: Callable[[dict[str, Any]], None]) -> str:
        copy = json.loads(HISTORY_TEXT)
        change(copy)
        return json.dumps(copy)

    yield (
        "count of 24 digits",
        HISTORY_TEXT.replace('"count": ', '"count": ' + "9" * 24, 1),
        REFUSED,
    )
    yield (
        "count of 5,000 digits",
        HISTORY_TEXT.replace('"count": ', '"count": ' + "9" * 5000, 1),
        REFUSED,
    )
    yield (
        "usage key of 5,000 digits",
        edited(lambda d: d["token_usage"].update({"9" * 5000: 1})),
        REFUSED,
    )
    yield "usage key negative", edited(lambda d: d["token_usage"].update({"-1": 1})), REFUSED
    yield (
        "tie of 24 digits",
        HISTORY_TEXT.replace('"ties": [', '"ties": [[1, ' + "9" * 17 + "], ", 1),
        REFUSED,
    )
    yield "tie of a future id", edited(lambda d: d["steps"][0].update(ties=[[97, 299]])), REFUSED
    yield "seconds NaN", HISTORY_TEXT.replace('"seconds": ', '"seconds": NaN, "x": ', 1), REFUSED
    yield "steps deep", edited(lambda d: d.update(steps=[[[[[[]]]]]])), REFUSED
    yield (
        "steps 100k [",
        HISTORY_TEXT.replace('"steps": [', '"steps": ' + "[" * 100_000, 1),
        REFUSED,
    )
    yield "token of 100 KB", edited(lambda d: d["steps"][0].update(token="61" * 50_000)), REFUSED
    yield "lone surrogate stop reason", edited(lambda d: d.update(stop_reason="\ud800")), REFUSED
    del data


OWN_ROWS = {
    "model": _model_rows,
    "merges": _merges_rows,
    "tokenizer": _tokenizer_rows,
    "encoder": _encoder_rows,
    "vocab_bpe": _vocab_bpe_rows,
    "tiktoken": _tiktoken_rows,
    "history": _history_rows,
}


# --- every hostile value at every place of each JSON file ------------------------------------

HOSTILE_VALUES = {  # raw JSON text put where an honest value was
    "null": "null",
    "-1": "-1",
    "2**31": str(MAX_TOKEN_ID + 1),
    "24 digits": "9" * 24,
    "5,000 digits": "9" * 5_000,
    "1e999": "1e999",
    "string": '"x"',
    "lone surrogate": '"\\ud800"',
    "100 KB string": '"' + "x" * 100_000 + '"',
    "empty list": "[]",
    "empty object": "{}",
    "deep": "[" * 40 + "]" * 40,
}
PLACEHOLDER = '"__hostile_value__"'


def _places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Paths to the values of a JSON value: every key of small containers, the first and
    the last of large ones (a vocabulary of 300 entries need not be tried 300 times)."""
    if isinstance(value, dict):
        keys = list(value)
    elif isinstance(value, list):
        keys = list(range(len(value)))
    else:
        return
    for key in keys if len(keys) <= 12 else [keys[0], keys[-1]]:
        yield (*path, key)
        yield from _places(value[key], (*path, key))


def _with_value_at(honest: str, path: tuple[Any, ...], raw: str) -> str:
    data = json.loads(honest)
    *parents, last = path
    target = data
    for key in parents:
        target = target[key]
    target[last] = "__hostile_value__"
    return json.dumps(data).replace(PLACEHOLDER, raw, 1)


def json_fuzz(kind: str) -> Iterator[Hostile]:
    honest = HONEST[kind]
    for path in _places(json.loads(honest)):
        place = ".".join(str(key) for key in path)
        for name, raw in HOSTILE_VALUES.items():
            yield Hostile(kind, f"{place}={name}", _files(kind, _with_value_at(honest, path, raw)))


# --- the catalogue -----------------------------------------------------------------------------


def _catalogue() -> list[Hostile]:
    rows: list[Hostile] = []
    for kind, honest in HONEST.items():
        rows.extend(_common(kind, honest))
        rows.extend(
            Hostile(kind, variant, _files(kind, text), outcome)
            for variant, text, outcome in OWN_ROWS[kind]()
        )
    return rows


CATALOGUE = _catalogue()
FUZZ = [row for kind in JSON_KINDS for row in json_fuzz(kind)]


def check_plain(error: BaseException) -> None:
    """One of the explorer's own ValueErrors, with a short message in its own words."""
    assert isinstance(error, ValueError), f"{type(error).__name__}: {error}"
    assert type(error).__module__.startswith(("explorer", "ui")), type(error)
    message = str(error)
    assert message and len(message) <= MAX_MESSAGE, message[:300]
    for words in FOREIGN_WORDS:
        assert words.casefold() not in message.casefold(), message


def check_usable(tokenizer: Tokenizer) -> None:
    """What loaded fits every view: ids within MAX_TOKEN_ID, it encodes, .model (or, with
    tokens outside the merges, which a .model cannot list, tokenizer.json) reads back."""
    ids = [*range(tokenizer.vocab_size), *tokenizer.special_by_id, *tokenizer.outside_merges]
    assert all(0 <= token_id <= MAX_TOKEN_ID for token_id in ids)
    for token in tokenizer.special_tokens:
        token.encode("utf-8")  # text, not half of a surrogate pair
    assert tokenizer.decode(tokenizer.encode_ordinary("the cat")) == "the cat"
    if tokenizer.outside_merges:
        again = parse_tokenizer_json(tokenizer_json(tokenizer))
        assert again.outside_merges == tokenizer.outside_merges
    elif tokenizer.bytes_in_order:
        assert parse_model(model_text(tokenizer)).special_tokens == tokenizer.special_tokens


def outcome_of(files: Files) -> tuple[str, BaseException | None]:
    try:
        loaded = load_uploads(list(files))
    except Exception as error:  # the test is which kind of error it is
        return REFUSED, error
    for item in loaded:
        check_usable(item.tokenizer)
    return LOADS, None


@pytest.mark.parametrize("row", CATALOGUE, ids=[row.id for row in CATALOGUE])
def test_each_hostile_file_loads_or_is_refused_in_plain_words(row: Hostile) -> None:
    outcome, error = outcome_of(row.files)
    if error is not None:
        check_plain(error)
    if row.outcome != EITHER:
        assert outcome == row.outcome, error


@pytest.mark.parametrize("row", FUZZ, ids=[row.id for row in FUZZ])
def test_any_hostile_value_anywhere_in_a_json_file_is_handled(row: Hostile) -> None:
    _, error = outcome_of(row.files)
    if error is not None:
        check_plain(error)


def test_a_loaded_special_named_with_markup_keeps_its_name_literally() -> None:
    for markup in MARKUP_NAMES:
        text = f"minbpe v1\n\n1\n{markup} 256\n"
        [loaded] = load_uploads([("t.model", text.encode())])
        assert loaded.tokenizer.special_tokens == {markup: 256}


def test_the_catalogue_covers_every_kind_and_refuses_something_of_each() -> None:
    refused = {row.kind for row in CATALOGUE if row.outcome == REFUSED}
    assert refused == set(HONEST)
    assert len(FUZZ) > 500


# --- training inputs: word-count tables and text uploads ---------------------------------------

WORD_TABLES = {
    "count of 24 digits": ("hug " + "9" * 24, REFUSED),
    "count of 5,000 digits": ("hug " + "9" * 5_000, REFUSED),
    "negative count": ("hug -3", REFUSED),
    "superscript count": ("hug ²", REFUSED),
    "word of 100 KB": ("w" * 100_000 + " 3", LOADS),
    "5 MB line": ("x" * 5_000_000, REFUSED),
    "markup word": ("![t](http://127.0.0.1:9/t.png) 4\n<img src=x> 2", LOADS),
    "CRLF": ("hug 10\r\npug 5\r\n", LOADS),
    "NUL": ("hu\x00g 10", LOADS),
    "counts summing past 10**18": ("hug 999999999999999999\npug 999999999999999999", REFUSED),
    "empty": ("", REFUSED),
}


@pytest.mark.parametrize("name", list(WORD_TABLES))
def test_hostile_word_count_tables(name: str) -> None:
    table, expected = WORD_TABLES[name]
    try:
        word_count_corpus(table)
    except ValueError as error:
        check_plain(error)
        assert expected == REFUSED, error
    else:
        assert expected == LOADS


TEXT_UPLOADS = {
    "empty": (b"", REFUSED),
    "invalid UTF-8": (b"abc\xff", REFUSED),
    "lone surrogate bytes": (b"\xed\xa0\x80", REFUSED),
    "BOM": (b"\xef\xbb\xbfhello", LOADS),
    "NUL bytes": (b"\x00" * 1000, LOADS),
    "CRLF": (b"a\r\nb\r\n", LOADS),
    "100k [": (b"[" * 100_000, LOADS),
    "5 MB line": (b"x" * 5_000_000, LOADS),
}


@pytest.mark.parametrize("name", list(TEXT_UPLOADS))
def test_hostile_text_uploads(name: str) -> None:
    data, expected = TEXT_UPLOADS[name]
    try:
        corpus = upload_corpus([("t.txt", data)])
    except ValueError as error:
        check_plain(error)
        assert expected == REFUSED, error
    else:
        assert expected == LOADS
        assert corpus.texts[0].encode("utf-8") == data


@pytest.mark.parametrize("value", [float("inf"), float("nan"), 1e300, -1.0, 255.5, 50_001.0])
def test_hostile_vocab_sizes_get_a_sentence(value: float) -> None:
    problem = vocab_size_problem(value)
    assert problem and len(problem) < 200, problem


# --- real models' tokenizer.json, read by explorer.models.hf_model (issue 34) ------------------
# The same honest file and every variant above, plus the ones issue 34 names, each read as a
# real model's file: it loads (and then encodes, decodes and traces to the library's ids) or
# is refused with one of the explorer's sentences.


def _model_rows() -> Iterator[Hostile]:
    for row in (*_common("tokenizer", HF), *json_fuzz("tokenizer")):
        if _is_utf8(row.files[0][1]):  # else the loader refuses it before any reader
            yield Hostile("hf model", row.variant, row.files, row.outcome)
    for variant, text, _ in _tokenizer_rows():  # the old reader's outcomes are not this one's
        yield Hostile("hf model", variant, _files("tokenizer", text), EITHER)
    first = json.loads(HF)["model"]["merges"][0]
    for variant, change, outcome in [
        ("merge of an unknown token", lambda d: d["model"]["merges"].append("zq zq"), REFUSED),
        ("id used twice", lambda d: d["model"]["vocab"].update(zq=3), REFUSED),
        ("repeated merge", lambda d: d["model"]["merges"].append(first), LOADS),
        ("unknown normalizer", lambda d: d.update(normalizer={"type": "Shout"}), REFUSED),
        ("unknown pre-tokenizer", lambda d: d.update(pre_tokenizer={"type": "Foo"}), REFUSED),
        ("unknown decoder", lambda d: d.update(decoder={"type": "Rot13"}), REFUSED),
        ("Unigram model", lambda d: d["model"].update(type="Unigram"), REFUSED),
        ("1,000,001 merges", lambda d: d["model"].update(merges=["a b"] * 1_000_001), REFUSED),
        ("NFKC normalizer", lambda d: d.update(normalizer={"type": "NFKC"}), LOADS),
    ]:
        yield Hostile("hf model", variant, _files("tokenizer", _hf(change)), outcome)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


MODEL_ROWS = list(_model_rows())


def model_outcome(files: Files) -> tuple[str, BaseException | None]:
    """Read as a real model's tokenizer.json; what loads must give the library's ids."""
    from explorer.models.hf_model import read_tokenizer_json

    try:
        model = read_tokenizer_json(files[0][1].decode("utf-8"), name="tokenizer.json")
    except Exception as error:  # the test is which kind of error it is
        return REFUSED, error
    ids = model.encode("the cat sat")
    assert ids == model.library.encode("the cat sat", add_special_tokens=False).ids
    assert model.trace("the cat sat").ids == ids
    assert all(0 <= token_id <= MAX_TOKEN_ID for token_id in model.tokens)
    return LOADS, None


@pytest.mark.parametrize("row", MODEL_ROWS, ids=[row.id for row in MODEL_ROWS])
def test_a_hostile_real_model_file_loads_or_is_refused_in_plain_words(row: Hostile) -> None:
    outcome, error = model_outcome(row.files)
    if error is not None:
        check_plain(error)
    if row.outcome != EITHER:
        assert outcome == row.outcome, error
