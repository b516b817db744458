"""Import and export: every format round-trips, tiktoken and Hugging Face give our ids.

Also the byte order that imported vocabularies need (`Tokenizer(byte_ids=...)`), and the
messages for files that are malformed or not byte-level BPE.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
import tiktoken
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import PRESETS, Tokenizer, TokenizerError, train
from explorer.encoding.pretokenize import GPT2_PATTERN, GPT4_PATTERN
from explorer.files.bundled import load_bundled
from explorer.files.exports import (
    encoder_json,
    probe_texts,
    tiktoken_text,
    tokenizer_json,
    vocab_bpe,
)
from explorer.files.formats import (
    FormatError,
    merges_json,
    model_text,
    parse_merges_json,
    parse_model,
)
from explorer.files.imports import parse_gpt2, parse_tiktoken, recover_merges
from explorer.files.imports_hf import onig_to_python, parse_tokenizer_json, python_to_onig
from tests.conftest import ROOT

MIXED = (
    "Hello, world! It's 2024: naïve café, straße. 12345 numbers\n\n"
    "def f(x):\n\treturn x ** 2  # code\r\n"
    "人人生而自由 すべての人間は 모든 인간은 يولد جميع الناس सभी मनुष्यों मनुष्य ทั้งหลาย\n"
    "emoji 😀👩‍👩‍👧 🇫🇷   spaces   \u00a0\u3000 end  "
)
SPECIALS = ["<|end|>", "<|pad|>"]
ANY_PATTERN = r"[\s\S]+"  # for tiktoken, which needs a pattern: the whole text is one piece


@pytest.fixture(scope="module")
def trained(sample_text: str) -> dict[str, Tokenizer]:
    """Tokenizers trained on real text, with each preset pattern and two special tokens."""
    text = sample_text[:20000] + MIXED * 3
    return {
        name: train(text, 700, pattern=name, special_tokens=SPECIALS).tokenizer for name in PRESETS
    }


def same(a: Tokenizer, b: Tokenizer) -> bool:
    return (a.merges, a.pattern, a.special_tokens, a.byte_ids) == (
        b.merges,
        b.pattern,
        b.special_tokens,
        b.byte_ids,
    )


ROUND_TRIPS: dict[str, Callable[[Tokenizer], Tokenizer]] = {
    "tokenizer.json": lambda tok: parse_tokenizer_json(tokenizer_json(tok)),
    ".tiktoken": lambda tok: parse_tiktoken(
        tiktoken_text(tok), pattern=tok.pattern, special_tokens=tok.special_tokens
    ),
    "encoder.json + vocab.bpe": lambda tok: parse_gpt2(
        encoder_json(tok), vocab_bpe(tok), pattern=tok.pattern
    ),
}


# --- export, then import: the same tokenizer ----------------------------------------------


@pytest.mark.parametrize("fmt", sorted(ROUND_TRIPS))
@pytest.mark.parametrize("pattern", sorted(PRESETS))
def test_trained_tokenizers_round_trip(
    trained: dict[str, Tokenizer], fmt: str, pattern: str
) -> None:
    tokenizer = trained[pattern]
    back = ROUND_TRIPS[fmt](tokenizer)
    assert same(back, tokenizer)
    assert back.encode(MIXED + "<|end|>", allowed_special="all") == tokenizer.encode(
        MIXED + "<|end|>", allowed_special="all"
    )


@pytest.mark.parametrize("fmt", sorted(ROUND_TRIPS))
def test_gpt2_round_trips_with_its_byte_order(fmt: str) -> None:
    gpt2 = load_bundled("gpt2")
    back = ROUND_TRIPS[fmt](gpt2)
    assert same(back, gpt2)  # for .tiktoken: BPE on the ranks rebuilds vocab.bpe's 50,000 pairs


def test_minbpe_formats_round_trip(trained: dict[str, Tokenizer]) -> None:
    tokenizer = trained["gpt4"]
    assert same(parse_model(model_text(tokenizer)), tokenizer)
    from_json = parse_merges_json(merges_json(tokenizer), pattern=tokenizer.pattern)
    assert (from_json.merges, from_json.pattern) == (tokenizer.merges, tokenizer.pattern)


def test_tiktoken_export_of_a_bundled_file_is_that_file() -> None:
    original = (ROOT / "vocabularies" / "cl100k_base.tiktoken").read_bytes()
    assert tiktoken_text(load_bundled("cl100k_base")).encode("ascii") == original


def test_long_tokens_export_and_recover_in_linear_time() -> None:
    """Tokens of 20,000 bytes: recovering a merge is one BPE pass (a heap), not a quadratic
    scan, which took 38 s here before; at this size a quadratic one would not finish soon."""
    tokenizer = train("a" * 20000 + "b", 300, pattern="none").tokenizer
    tokens = [tokenizer.vocab[i] for i in range(tokenizer.vocab_size)]
    assert max(map(len, tokens)) == 20001
    assert recover_merges(tokens) == tokenizer.merges
    for round_trip in ROUND_TRIPS.values():
        assert same(round_trip(tokenizer), tokenizer)


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab c\naé", min_size=1, max_size=200),
    st.sampled_from(["none", "gpt2", "gpt4", "words"]),
    st.integers(257, 330),
)
def test_a_trained_tokenizers_merges_are_what_bpe_rebuilds_from_ranks(
    text: str, pattern: str, vocab_size: int
) -> None:
    """Why tiktoken_text trusts a trained tokenizer without rebuilding its merges: a small
    alphabet makes ties, runs and overlaps (3,000 examples found no exception here)."""
    tokenizer = train(text, vocab_size, pattern=pattern).tokenizer
    tokens = [tokenizer.vocab[i] for i in range(tokenizer.vocab_size)]
    assert recover_merges(tokens) == tokenizer.merges


# --- the libraries read our exports --------------------------------------------------------


def tiktoken_from_export(tokenizer: Tokenizer) -> tiktoken.Encoding:
    ranks = {
        base64.b64decode(token): int(rank)
        for token, rank in (line.split() for line in tiktoken_text(tokenizer).splitlines())
    }
    return tiktoken.Encoding(
        name="export",
        pat_str=tokenizer.pattern or ANY_PATTERN,
        mergeable_ranks=ranks,
        special_tokens=tokenizer.special_tokens,
    )


@pytest.mark.parametrize("pattern", sorted(PRESETS))
def test_tiktoken_encodes_our_export_as_we_do(trained: dict[str, Tokenizer], pattern: str) -> None:
    tokenizer = trained[pattern]
    encoding = tiktoken_from_export(tokenizer)
    text = MIXED + " <|end|> and <|pad|>"
    ids = tokenizer.encode(text, allowed_special="all")
    assert encoding.encode(text, allowed_special="all") == ids
    assert encoding.decode(ids) == text


@pytest.mark.parametrize("pattern", sorted(PRESETS))
def test_huggingface_encodes_our_export_as_we_do(
    trained: dict[str, Tokenizer], pattern: str
) -> None:
    tokenizer = trained[pattern]
    hf = tokenizers.Tokenizer.from_str(tokenizer_json(tokenizer))
    text = MIXED + " <|end|> and <|pad|>"
    ids = tokenizer.encode(text, allowed_special="all")
    assert hf.encode(text, add_special_tokens=False).ids == ids
    assert hf.decode(ids, skip_special_tokens=False) == text


small_text = st.text(
    alphabet=st.sampled_from(list("aab ba\n  .,'s1234日本語é🙂")), min_size=1, max_size=120
)


@settings(max_examples=25, deadline=None)
@given(corpus=small_text, text=small_text, pattern=st.sampled_from(sorted(PRESETS)))
def test_any_trained_tokenizer_exports_exactly(corpus: str, text: str, pattern: str) -> None:
    tokenizer = train(corpus, 256 + 30, pattern=pattern).tokenizer
    ids = tokenizer.encode(text)
    assert tiktoken_from_export(tokenizer).encode_ordinary(text) == ids
    hf = tokenizers.Tokenizer.from_str(tokenizer_json(tokenizer))
    assert hf.encode(text, add_special_tokens=False).ids == ids


# --- GPT-2 as Hugging Face writes it --------------------------------------------------------


def gpt2_as_huggingface_writes_it() -> dict[str, Any]:
    """GPT-2's tokenizer.json as on the Hub: ByteLevel with its own regex, merges as "a b"."""
    document = json.loads(tokenizer_json(load_bundled("gpt2")))
    document["pre_tokenizer"] = {
        "type": "ByteLevel",
        "add_prefix_space": False,
        "trim_offsets": True,
        "use_regex": True,
    }
    document["model"]["merges"] = [" ".join(pair) for pair in document["model"]["merges"]]
    return document


def test_gpt2_imports_from_a_huggingface_file() -> None:
    text = json.dumps(gpt2_as_huggingface_writes_it())
    imported = parse_tokenizer_json(text)
    assert same(imported, load_bundled("gpt2"))
    assert imported.pattern == GPT2_PATTERN
    hf = tokenizers.Tokenizer.from_str(text)
    assert hf.encode(MIXED, add_special_tokens=False).ids == imported.encode(MIXED)


# --- Oniguruma's dialect (Hugging Face's regex engine) ------------------------------------


@pytest.mark.parametrize("pattern", [*PRESETS.values(), r"\d{2}+|[{}]+|(?:ab){1,2}+", r"x{3}"])
def test_patterns_survive_the_trip_to_oniguruma_and_back(pattern: str) -> None:
    assert onig_to_python(python_to_onig(pattern)) == pattern


def test_possessive_intervals_split_as_in_tiktoken() -> None:
    assert python_to_onig(GPT4_PATTERN) != GPT4_PATTERN  # \p{N}{1,3}+ means more in Oniguruma
    pre = tokenizers.pre_tokenizers.Split(
        tokenizers.Regex(python_to_onig(GPT4_PATTERN)), behavior="isolated"
    )
    assert [piece for piece, _ in pre.pre_tokenize_str("1234567")] == ["123", "456", "7"]


# --- malformed and unsupported files -----------------------------------------------------


def tiny() -> Tokenizer:
    return Tokenizer([(97, 97), (256, 98)], pattern=GPT2_PATTERN, special_tokens=["<|e|>"])


def tiktoken_lines() -> list[str]:
    return tiktoken_text(tiny()).splitlines()


def hf_document() -> dict[str, Any]:
    return json.loads(tokenizer_json(tiny()))


def with_changes(document: dict[str, Any], path: str, value: Any) -> str:
    """The document with the value at a dotted path replaced, as JSON text."""
    *parents, last = path.split(".")
    node = document
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return json.dumps(document)


def tiktoken_with(line: int, text: str | None) -> str:
    lines = tiktoken_lines()
    if text is None:
        del lines[line - 1]
    else:
        lines[line - 1] = text
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (tiktoken_with(3, "Ag=="), r"line 3: expected 'BASE64TOKEN RANK', got 'Ag=='"),
        (tiktoken_with(3, "A*== 2"), r"line 3: 'A\*==' is not base64"),
        (tiktoken_with(3, "YQ== 2"), r"line 98: b'a' is also on line 3"),
        (tiktoken_with(3, "Ag== 1"), r"line 3: rank 1 is also on line 2"),
        (tiktoken_with(10, "YWFi 9"), r"line 10: b'aab' has rank 9, but ranks 0-255 must be"),
        (tiktoken_with(98, "YQ== 300"), r"line 98: b'a' has rank 300"),
        (tiktoken_with(257, None), r"no line has rank 256; ranks must be 0, 1, 2, ... with no"),
        (
            "\n".join([*tiktoken_lines()[:256], "YWJj 256", "YWI= 257"]),
            r"line 258: the token b'ab' is a merge, but rank 256 before it \(b'abc'\) is not",
        ),
    ],
    ids=[
        "fields",
        "base64",
        "token twice",
        "rank twice",
        "long low",
        "byte high",
        "gap",
        "merge after outside",
    ],
)
def test_malformed_tiktoken_files_name_the_line(data: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        parse_tiktoken(data, pattern="", source="bad.tiktoken")


def test_malformed_gpt2_files_name_the_line() -> None:
    encoder, merges = encoder_json(tiny()), vocab_bpe(tiny())
    with pytest.raises(FormatError, match=r"vocab.bpe, line 3: expected two tokens 'LEFT RIGHT'"):
        parse_gpt2(encoder, merges.replace("aa b", "aa b c"))
    with pytest.raises(FormatError, match=r"vocab.bpe, line 3: 'zz' is not in the vocabulary"):
        parse_gpt2(encoder, merges.replace("aa b", "zz b"))
    with pytest.raises(
        FormatError, match=r"line 2: merge 1 \('a', 'b'\) makes 'ab', not in the vocabulary"
    ):
        parse_gpt2(encoder, merges.replace("a a", "a b"))
    with pytest.raises(FormatError, match=r"encoder.json, line 1, column 2: not valid JSON"):
        parse_gpt2("{]", merges)
    with pytest.raises(FormatError, match=r"encoder.json: expected a JSON object"):
        parse_gpt2("[]", merges)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("model.type", "WordPiece", r"model.type: not a byte-level BPE model \(.*'WordPiece'"),
        ("model.type", "Unigram", r"model.type: not a byte-level BPE model"),
        (
            "pre_tokenizer",
            {"type": "Metaspace", "replacement": "▁"},
            r"pre_tokenizer: not a byte-level BPE model \(no ByteLevel",
        ),
        ("normalizer", {"type": "NFC"}, r"normalizer: 'NFC' changes the text"),
        ("pre_tokenizer.pretokenizers.1.add_prefix_space", True, r"add_prefix_space is true"),
        ("pre_tokenizer.pretokenizers.0.behavior", "Removed", r"pretokenizers\[0\]: Split must"),
        ("model.merges.1", ["aa"], r"model.merges\[1\]: expected \"LEFT RIGHT\""),
        ("model.merges.1", ["aa", "zz"], r"model.merges\[1\]: 'zz' is not in the vocabulary"),
        ("model.vocab", [], r"model.vocab: expected a JSON object, got \[\]"),
        (
            "model.vocab.aab",
            300,
            r"model.merges\[1\]: merge 2 \('aa', 'b'\) makes 'aab', id 300; here",
        ),
        ("model.vocab.Ā", 7, r"model.vocab: 'Ā' and .* share id 7"),
        ("model.dropout", 0.1, r"model.dropout: 0.1 is not supported"),
        ("added_tokens.0.lstrip", True, r"added_tokens\[0\].lstrip: true is not supported"),
        ("added_tokens.0.id", "x", r"added_tokens\[0\].id: expected an integer, got 'x'"),
        ("model.vocab.中", 300, r"model.vocab\['中'\]: id 300 is past the merges and not an"),
    ],
)
def test_unsupported_tokenizer_json_names_the_path(path: str, value: Any, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        parse_tokenizer_json(with_changes(hf_document(), path, value), source="t.json")


def test_ignore_merges_is_read_only_when_merges_are_what_bpe_makes() -> None:
    good = with_changes(hf_document(), "model.ignore_merges", True)
    assert same(parse_tokenizer_json(good), tiny())
    # "aaa" as a + aa: BPE makes aa + a, so with ignore_merges the word "aaa" would differ
    odd = Tokenizer([(97, 97), (97, 256)], pattern=GPT2_PATTERN)
    bad = with_changes(json.loads(tokenizer_json(odd)), "model.ignore_merges", True)
    with pytest.raises(FormatError, match=r"model.merges\[1\]: with ignore_merges true"):
        parse_tokenizer_json(bad)


def test_not_json_names_line_and_column() -> None:
    with pytest.raises(FormatError, match=r"t.json, line 2, column 1: not valid JSON"):
        parse_tokenizer_json('{"model":\n}', source="t.json")


# --- tokenizers the formats cannot hold ----------------------------------------------------


def test_tiktoken_export_refuses_a_merge_bpe_would_not_rebuild() -> None:
    odd = Tokenizer([(97, 97), (97, 256)])  # "aaa" as a + aa; BPE on b"aaa" makes aa + a
    with pytest.raises(FormatError, match=r"merge 2 \(97, 256\) makes b'aaa'.*\(256, 97\)"):
        tiktoken_text(odd)
    assert same(parse_tokenizer_json(tokenizer_json(odd)), odd)  # tokenizer.json keeps merges


@pytest.mark.parametrize("export", [tiktoken_text, tokenizer_json, encoder_json, vocab_bpe])
def test_exports_refuse_two_tokens_with_the_same_bytes(
    export: Callable[[Tokenizer], str],
) -> None:
    twice = Tokenizer([(97, 98), (256, 99), (98, 99), (97, 258)])  # ab+c and a+bc: both abc
    with pytest.raises(FormatError, match=r"tokens 257 and 259 are both b'abc'"):
        export(twice)


def test_a_special_token_spelled_like_a_token_is_refused() -> None:
    clash = Tokenizer([(97, 97)], special_tokens=["aa"])
    with pytest.raises(FormatError, match=r"special token 'aa' is spelled like an ordinary"):
        tokenizer_json(clash)


def test_recovery_refuses_a_token_no_text_encodes_to() -> None:
    tokens = [bytes([b]) for b in range(256)] + [b"ab", b"bc", b"abc"]  # ab first: ab + c
    assert recover_merges(tokens)[-1] == (256, 99)
    with pytest.raises(FormatError, match=r"rank 257: the token b'abcd' cannot be built"):
        recover_merges([*tokens[:256], b"ab", b"abcd"])


# --- byte order ------------------------------------------------------------------------------


def test_byte_ids_must_number_the_bytes_0_to_255() -> None:
    with pytest.raises(TokenizerError, match=r"byte_ids must give the 256 bytes the ids 0-255"):
        Tokenizer(byte_ids=[0] * 256)
    with pytest.raises(TokenizerError, match=r"missing \[255\]"):
        Tokenizer(byte_ids=range(255))


permutations = st.permutations(list(range(256)))


@settings(max_examples=30, deadline=None)
@given(order=permutations, text=st.text(st.characters(exclude_categories=("Cs",)), max_size=80))
def test_a_byte_order_only_renames_the_byte_ids(
    trained: dict[str, Tokenizer], order: list[int], text: str
) -> None:
    plain = trained["gpt4"]
    rename = [*order, *range(256, plain.vocab_size)]
    shuffled = Tokenizer(
        [(rename[a], rename[b]) for a, b in plain.merges],
        pattern=plain.pattern,
        special_tokens=plain.special_tokens,
        byte_ids=order,
    )
    ids = shuffled.encode(text, disallowed_special=())
    assert ids == [rename[i] for i in plain.encode(text, disallowed_special=())]
    assert shuffled.decode(ids) == text
    assert shuffled.encode_with_spans(text, disallowed_special=()).byte_spans == (
        plain.encode_with_spans(text, disallowed_special=()).byte_spans
    )
    smaller = shuffled.at_vocab_size(300)
    assert smaller.byte_ids == shuffled.byte_ids
    assert smaller.initial_ids(text) == [order[b] for b in text.encode("utf-8")]


def test_repr_says_when_bytes_are_reordered() -> None:
    assert "byte_ids" not in repr(Tokenizer())
    assert "byte_ids=<permuted>" in repr(load_bundled("gpt2"))


# --- the engine does not need the libraries it is checked against ------------------------


def test_interop_modules_import_neither_tiktoken_nor_tokenizers() -> None:
    code = (
        "import sys, explorer.files.bundled, explorer.cli, explorer.files.exports, "
        "explorer.files.imports, "
        "explorer.files.imports_hf\n"
        "explorer.files.bundled.load_bundled('gpt2')\n"
        "banned = ('tiktoken', 'tokenizers', 'streamlit', 'pandas', 'altair', 'numpy')\n"
        "print(','.join(m for m in banned if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""


# --- custom patterns: exported only when the other engine encodes the same -----------------

CUSTOM = [
    r"(?s).{1,2}",
    r"\w+|\W",
    r"(?P<w>\w)\w*|\W",
    r"(?s).",
    r"[a-z]+|.",
    r"\p{L}+|\s+|.",
    r"\s+|\S+",
    r"(?i)[a-c]+|(?s:.)",
]
PROBE = "".join(probe_texts()) + MIXED


def _trained(pattern: str) -> Tokenizer:
    return train(
        MIXED * 3 + "a\u200cb " * 5, 330, pattern=pattern, special_tokens=SPECIALS
    ).tokenizer


@pytest.mark.parametrize("pattern", CUSTOM)
def test_custom_pattern_tokenizer_json_loads_and_encodes_the_same_or_is_refused(
    pattern: str,
) -> None:
    tokenizer = _trained(pattern)
    try:
        document = tokenizer_json(tokenizer)
    except FormatError as exc:
        assert "tokenizers" in str(exc) and repr(pattern) in str(exc)
        return
    hf = tokenizers.Tokenizer.from_str(document)
    assert hf.encode(PROBE, add_special_tokens=False).ids == tokenizer.encode_ordinary(PROBE)


@pytest.mark.parametrize("pattern", CUSTOM)
def test_custom_pattern_tiktoken_encodes_the_same_or_is_refused(pattern: str) -> None:
    tokenizer = _trained(pattern)
    try:
        tiktoken_text(tokenizer)
    except FormatError as exc:
        assert "tiktoken" in str(exc) and repr(pattern) in str(exc)
        return
    encoding = tiktoken_from_export(tokenizer)
    assert encoding.encode_ordinary(PROBE) == tokenizer.encode_ordinary(PROBE)


def test_the_issue_examples() -> None:
    for pattern in (r"(?s).{1,2}", r"(?P<w>ab)|.|\n"):  # translated: (?m) and (?<w>...)
        tokenizers.Tokenizer.from_str(tokenizer_json(_trained(pattern)))
    with pytest.raises(FormatError, match=r"'a\\u200cb' \(U\+0061 \(Ll\), U\+200C \(Cf\)"):
        tokenizer_json(_trained(r"\w+|\W"))
    with pytest.raises(FormatError, match="tiktoken reads the pattern"):
        tiktoken_text(_trained(r"[a-z]+|."))  # tiktoken drops the newlines `.` leaves out
