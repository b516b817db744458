"""Encoding and decoding: round trips, spans, special tokens, and minbpe's encode."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import PRESETS, SpecialTokenError, Tokenizer, TokenizerError, train
from explorer.encoding.merging import SHORT_CHUNK, merge_bytes
from tests.naive import naive_encode, split_text

# Any Unicode scalar value (lone surrogates are not text and have no UTF-8 form).
any_text = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=200)

ROUND_TRIPS = [
    "",
    "hello world",
    "emoji 😀👩‍👩‍👧 and flags 🇫🇷",
    "안녕하세요 세계",
    "control \x00\x01\x1b[31m\x7f\u200b\r\n\t end",
    "line one\r\nline two\rthree\n",
    "ﬁ ligature, e\u0301 combining, Ａ fullwidth",
]


@pytest.fixture(scope="module")
def trained(sample_text: str) -> dict[str, Tokenizer]:
    text = sample_text[:30000] + "".join(ROUND_TRIPS)
    return {name: train(text, 600, pattern=name).tokenizer for name in PRESETS}


@pytest.mark.parametrize("text", ROUND_TRIPS)
@pytest.mark.parametrize("pattern", sorted(PRESETS))
def test_round_trips(trained: dict[str, Tokenizer], pattern: str, text: str) -> None:
    assert trained[pattern].decode(trained[pattern].encode(text)) == text


@pytest.mark.parametrize("pattern", sorted(PRESETS))
@settings(max_examples=80, deadline=None)
@given(text=any_text)
def test_any_text_round_trips(trained: dict[str, Tokenizer], pattern: str, text: str) -> None:
    tokenizer = trained[pattern]
    ids = tokenizer.encode(text)
    assert tokenizer.decode(ids) == text
    assert tokenizer.decode_bytes(ids) == text.encode("utf-8")


@pytest.mark.parametrize("pattern", sorted(PRESETS))
@settings(max_examples=80, deadline=None)
@given(text=any_text)
def test_spans_cover_the_input_in_order(
    trained: dict[str, Tokenizer], pattern: str, text: str
) -> None:
    encoding = trained[pattern].encode_with_spans(text)
    assert encoding.ids == trained[pattern].encode(text)
    position = 0
    for start, end in encoding.spans:
        assert start == position and end >= start
        position = end
    assert position == len(text)
    assert "".join(text[s:e] for s, e in encoding.spans) == text
    data = text.encode("utf-8")
    pieces = [data[s:e] for s, e in encoding.byte_spans]
    assert pieces == [trained[pattern].token_bytes(i) for i in encoding.ids]


def test_a_split_character_belongs_to_the_token_with_its_first_byte() -> None:
    # ’ is E2 80 99; merges make E2 80 one token, leaving 99 on its own
    tokenizer = Tokenizer([(0xE2, 0x80)])
    encoding = tokenizer.encode_with_spans("a’b")
    assert encoding.ids == [97, 256, 0x99, 98]
    assert encoding.spans == [(0, 1), (1, 2), (2, 2), (2, 3)]


@pytest.mark.parametrize("pattern", sorted(PRESETS))
def test_encode_matches_minbpe(
    trained: dict[str, Tokenizer], pattern: str, sample_text: str
) -> None:
    tokenizer = trained[pattern]
    text = sample_text[30000:40000] + "".join(ROUND_TRIPS)
    expected = naive_encode(split_text(text, PRESETS[pattern]), tokenizer.merges)
    assert tokenizer.encode(text) == expected


@settings(max_examples=200, deadline=None)
@given(data=st.binary(min_size=SHORT_CHUNK + 1, max_size=400), merges=st.integers(1, 60))
def test_long_chunks_merge_like_short_ones(data: bytes, merges: int) -> None:
    tokenizer = train(data.decode("latin-1"), 256 + merges, pattern="none").tokenizer
    ranks = tokenizer.ranks
    encoded = data.decode("latin-1").encode("utf-8")
    assert merge_bytes(encoded, ranks) == naive_encode([encoded.decode("utf-8")], tokenizer.merges)


def test_special_tokens_follow_tiktoken_rules() -> None:
    tokenizer = train("hello world<|endoftext|>hello", 270, special_tokens=["<|endoftext|>"])
    special = tokenizer.tokenizer.special_tokens["<|endoftext|>"]
    tok = tokenizer.tokenizer
    text = "hi<|endoftext|>there"
    with pytest.raises(SpecialTokenError, match="allowed_special"):
        tok.encode(text)
    ids = tok.encode(text, allowed_special="all")
    assert special in ids and tok.decode(ids) == text
    assert tok.encode(text, allowed_special={"<|endoftext|>"}) == ids
    plain = tok.encode(text, disallowed_special=())
    assert special not in plain and tok.decode(plain) == text
    assert tok.encode_ordinary(text) == plain
    with pytest.raises(SpecialTokenError, match="not special tokens"):
        tok.encode(text, allowed_special={"<|nope|>"})


def test_at_vocab_size_renumbers_specials_after_the_merges() -> None:
    tok = train("abababab cdcdcd", 262, pattern="none", special_tokens=["<s>"]).tokenizer
    smaller = tok.at_vocab_size(258)
    assert smaller.vocab_size == 258
    assert smaller.special_tokens == {"<s>": 258}
    assert tok.at_vocab_size(10_000) is tok
    with pytest.raises(TokenizerError, match="at least 256"):
        tok.at_vocab_size(100)


def test_unknown_ids_are_explained() -> None:
    with pytest.raises(TokenizerError, match="token id 999 is not in this tokenizer"):
        Tokenizer().decode([104, 999])


def test_invalid_utf8_decodes_with_replacement() -> None:
    tokenizer = Tokenizer()
    assert tokenizer.decode([0xE2, 0x80]) == "\ufffd"
    assert tokenizer.decode_bytes([0xE2, 0x80]) == b"\xe2\x80"


def test_a_refused_special_token_is_named_on_the_error() -> None:
    tok = train("a<|e|>b", 260, special_tokens=["<|e|>"]).tokenizer
    with pytest.raises(SpecialTokenError) as refused:
        tok.encode("x<|e|>y")
    assert refused.value.token == "<|e|>"


def test_a_token_that_merges_do_not_build_is_not_taken_whole() -> None:
    """ab, bc, then a + bc: the bytes "abc" are a token, yet merging "abc" gives ab + c."""
    merges = [(97, 98), (98, 99), (97, 257)]
    assert naive_encode(["abc"], merges) == [256, 99]
    assert Tokenizer(merges).encode("abc abc") == [256, 99, 32, 256, 99]
    assert Tokenizer(merges).at_vocab_size(259).encode("abc") == [256, 99]


@settings(max_examples=150, deadline=None)
@given(
    picks=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)), max_size=40),
    text=st.text(alphabet="abcé😀 \n", max_size=80),
)
def test_any_merge_list_encodes_like_minbpe(picks: list[tuple[int, int]], text: str) -> None:
    """Hand-written merges (not trained): the whole-token shortcut and cuts change nothing."""
    alphabet = sorted(set(text.encode("utf-8"))) or [97]
    ids = list(alphabet)
    merges = []
    for left, right in picks:
        pair = (ids[left % len(ids)], ids[right % len(ids)])
        if pair not in merges:
            merges.append(pair)
            ids.append(255 + len(merges))
    for pattern in ("none", "gpt2"):
        tokenizer = Tokenizer(merges, pattern=PRESETS[pattern])
        assert tokenizer.encode(text) == naive_encode(split_text(text, PRESETS[pattern]), merges)


def test_a_smaller_view_reuses_checked_tables_and_encodes_the_same() -> None:
    merges = [(97, 98), (98, 99), (97, 257), (256, 99), (99, 99)]
    full = Tokenizer(merges)
    full.encode("abc")  # builds and checks the tables
    for size in range(256, 262):
        view = full.at_vocab_size(size)
        fresh = Tokenizer(merges[: size - 256])
        for text in ("abc", "abcc abccc", "ccc ab"):
            assert (
                view.encode(text)
                == fresh.encode(text)
                == naive_encode([text], merges[: size - 256])
            )
