"""The held-out split (no byte lost, no character cut) and what unseen text costs."""

from __future__ import annotations

from itertools import accumulate

import pytest
import regex
from hypothesis import example, given
from hypothesis import strategies as st

from explorer.analysis.compression.stats import tokens_at_every_size
from explorer.analysis.compression.unseen import (
    single_bytes_at_every_size,
    tokens_and_single_bytes,
    unseen_characters,
)
from explorer.encoding.tokenizer import Tokenizer
from explorer.training.holdout import HoldoutError, SplitUnit, split_holdout
from explorer.training.train import train

# text with many newlines, blank lines, CRLF, combining marks and astral characters
PARTS = ["a", "é", "e\u0301", "\u0301", "😀", "👍🏽", " ", "\n", "\n\n", "\r\n", "\t", "字"]
LINES = st.lists(st.sampled_from(PARTS), max_size=80).map("".join)


def _split_or_none(texts: list[str], percent: int):
    try:
        return split_holdout(texts, percent)
    except HoldoutError:
        return None


@given(st.lists(LINES, min_size=1, max_size=5), st.integers(1, 50))
@example(["a\n\n\n", "b"], 50)
@example(["\n\n\nx\n"], 50)
def test_the_split_loses_no_byte(texts: list[str], percent: int) -> None:
    split = _split_or_none(texts, percent)
    if split is None:
        return
    assert split.reassembled() == tuple(texts)
    assert "".join(p.text for p in split.pieces) == "".join(texts)
    both = "".join(split.training_texts()) + "".join(split.heldout_texts())
    assert sorted(both.encode("utf-8")) == sorted("".join(texts).encode("utf-8"))
    assert split.heldout_texts() and split.training_texts()


@given(st.lists(LINES, min_size=1, max_size=5), st.integers(1, 50))
def test_the_split_never_cuts_a_character(texts: list[str], percent: int) -> None:
    split = _split_or_none(texts, percent)
    if split is None:
        return
    for document, text in enumerate(texts):
        clusters = regex.findall(r"\X", text)  # user-perceived characters
        boundaries = set(accumulate(len(c) for c in clusters))
        cut = 0
        for piece in (p for p in split.pieces if p.document == document):
            cut += len(piece.text)
            assert cut in boundaries  # every cut ends a whole grapheme cluster
            assert piece.text.endswith("\n") or cut == len(text)


@given(st.lists(st.text(max_size=30), min_size=1, max_size=8), st.integers(1, 50))
def test_the_split_is_deterministic(texts: list[str], percent: int) -> None:
    assert _split_or_none(texts, percent) == _split_or_none(list(texts), percent)


def test_every_tenth_paragraph_is_held_out() -> None:
    text = "".join(f"Paragraph {i}.\nIts second line.\n\n" for i in range(1, 31))
    split = split_holdout([text], 10)
    assert split.unit is SplitUnit.PARAGRAPH
    held = split.heldout_texts()
    assert [t.split(".")[0] for t in held] == ["Paragraph 10", "Paragraph 20", "Paragraph 30"]
    assert len(split.training_texts()) == 3  # 1-9, 11-19, 21-29: each run one document


def test_several_documents_are_held_out_whole() -> None:
    docs = [f"Document {i}\n\nwith two paragraphs\n" for i in range(1, 11)]
    split = split_holdout(docs, 20)
    assert split.unit is SplitUnit.DOCUMENT
    assert split.heldout_texts() == (docs[4], docs[9])
    assert split.training_texts() == tuple(d for i, d in enumerate(docs) if i not in (4, 9))


def test_few_documents_fall_back_to_paragraphs_then_lines() -> None:
    assert split_holdout(["a\n\nb\n\nc", "d"], 25).unit is SplitUnit.PARAGRAPH
    lines = split_holdout(["\n".join("abcdefghij")], 10)
    assert lines.unit is SplitUnit.LINE and lines.heldout_texts() == ("j",)


@pytest.mark.parametrize(
    ("texts", "percent", "message"),
    [
        (["one line only"], 10, "too short"),
        (["two\nlines"], 10, "too short"),  # 10 % of 2 lines is less than one
        (["a\n\n\n\n"], 50, "blank"),  # would hold out only blank lines
        (["text\n" * 20], 0, "from 1 % to 50 %"),
        (["text\n" * 20], 60, "from 1 % to 50 %"),
        (["text\n" * 20], 10.5, "whole percentage"),
    ],
)
def test_shares_that_cannot_be_held_out(texts: list[str], percent: int, message: str) -> None:
    with pytest.raises(HoldoutError, match=message):
        split_holdout(texts, percent)


def test_a_real_text_holds_out_about_a_tenth(sample_text: str) -> None:
    split = split_holdout([sample_text], 10)
    held = sum(len(t) for t in split.heldout_texts())
    assert 0.05 < held / len(sample_text) < 0.15


# --- single-byte tokens and unseen characters --------------------------------------------------


@pytest.mark.parametrize("pattern", ["none", "gpt4"])
def test_single_bytes_match_real_encodes_at_every_size(pattern: str, sample_text: str) -> None:
    training, other = sample_text[:6000], sample_text[6000:8000] + " naïve 😀 字"
    tokenizer = train(training, 400, pattern=pattern).tokenizer
    counts = single_bytes_at_every_size(tokenizer, other)
    assert len(counts) == len(tokenizer.merges) + 1
    for k in (0, 1, 7, 50, 143, len(tokenizer.merges)):
        ids = tokenizer.at_vocab_size(256 + k).encode(other, disallowed_special=())
        assert counts[k] == sum(1 for i in ids if i < 256), k


@given(st.text(alphabet="abc ", max_size=40), st.text(alphabet="abcd ", max_size=40))
def test_single_bytes_property(training: str, other: str) -> None:
    tokenizer = train(training or "a", 256 + 12, pattern="none").tokenizer
    counts = single_bytes_at_every_size(tokenizer, other)
    for k, count in enumerate(counts):
        ids = Tokenizer(tokenizer.merges[:k]).encode_ordinary(other)
        assert count == sum(1 for i in ids if i < 256)


def test_several_texts_sum_at_every_size(sample_text: str) -> None:
    tokenizer = train(sample_text[:5000], 330, pattern="gpt4").tokenizer
    texts = [sample_text[5000:6000], "", "naïve café 😀", sample_text[9000:9500]]
    tokens, singles = tokens_and_single_bytes(tokenizer, texts)
    assert tokens == [sum(c) for c in zip(*(tokens_at_every_size(tokenizer, t) for t in texts))]
    assert singles == [
        sum(c) for c in zip(*(single_bytes_at_every_size(tokenizer, t) for t in texts))
    ]


def test_unseen_characters_with_counts() -> None:
    assert unseen_characters(["hello", "world"], ["hello ÿ ÿ\n", "Ω"]) == [
        (" ", 2),
        ("ÿ", 2),
        ("\n", 1),
        ("Ω", 1),
    ]
    assert unseen_characters(["abc"], ["cab"]) == []
