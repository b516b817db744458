"""Our replay of Hugging Face's BPE model against the `tokenizers` library itself, on small
files made here: the heap's one-merge-at-a-time order, ignore_merges, byte fallback, unk
and fuse_unk, the continuing-subword prefix and end-of-word suffix, added tokens' flags, and
the cuts of issue 34's pre-tokenizers (Metaspace, ByteLevel with a prefix space, Digits,
Punctuation, Whitespace, Split removed and inverted) behind NFKC and Lowercase."""

from __future__ import annotations

import json
from typing import Any

import pytest
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

from explorer.models.hf_model import HfModel, read_tokenizer_json


def bpe_file(vocab: dict[str, int], merges: list[str], **options: Any) -> str:
    """A tokenizer.json of a BPE model, words split on whitespace."""
    return json.dumps(
        {
            "version": "1.0",
            "added_tokens": [],
            "normalizer": None,
            "pre_tokenizer": {"type": "WhitespaceSplit"},
            "decoder": None,
            "model": {"type": "BPE", "vocab": vocab, "merges": merges, **options},
        }
    )


def both(text: str) -> tuple[HfModel, Tokenizer]:
    return read_tokenizer_json(text), Tokenizer.from_str(text)


def test_merges_come_off_the_heap_one_at_a_time_not_every_occurrence_at_once() -> None:
    # a+a (rank 1) then aa+a (rank 0): after the first a+a, aa+a outranks the other a+a
    ours, theirs = both(bpe_file({"a": 0, "aa": 1, "aaa": 2}, ["aa a", "a a"]))
    assert theirs.encode("aaaa").ids == [2, 0]  # minbpe's all-at-once would give aa, aa
    [chunk] = ours.trace("aaaa").chunks
    assert chunk.final_ids == (2, 0)
    assert [(s.merge.rank, s.position, s.merge.result) for s in chunk.steps] == [
        (1, 0, 1),
        (0, 0, 2),
    ]


@pytest.mark.parametrize("ignore", [True, False])
def test_ignore_merges_takes_a_vocabulary_word_whole(ignore: bool) -> None:
    # "abc" is in the vocabulary, but the merges build "ab" + "c" -> no "abc" merge
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4, "bc": 5}
    ours, theirs = both(bpe_file(vocab, ["b c", "a b"], ignore_merges=ignore))
    ids = theirs.encode("abc ab").ids
    assert ids == ([4, 3] if ignore else [0, 5, 3])
    trace = ours.trace("abc ab")
    assert trace.ids == ids and trace.chunks[0].whole is ignore


BYTES = {f"<0x{b:02X}>": 10 + b for b in range(256)}
SMALL = {"a": 0, "b": 1, "ab": 2, "<unk>": 3, "é": 4, "ba": 5}


@pytest.mark.parametrize(
    "options",
    [
        {"unk_token": "<unk>", "fuse_unk": True},
        {"unk_token": "<unk>", "fuse_unk": False},
        {},
        {"byte_fallback": True},
        {"byte_fallback": True, "unk_token": "<unk>", "fuse_unk": True},
    ],
    ids=["fused unk", "unk", "dropped", "byte fallback", "byte fallback and unk"],
)
@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="abé xyз🦘", max_size=24))
def test_unknown_characters_as_the_library_treats_them(options: dict[str, Any], text: str) -> None:
    vocab = {**SMALL, **(BYTES if options.get("byte_fallback") else {})}
    ours, theirs = both(bpe_file(vocab, ["a b", "b a"], **options))
    ids = theirs.encode(text).ids
    assert ours.trace(text).ids == ours.encode(text) == ids


def test_byte_fallback_with_some_bytes_missing_falls_to_unk() -> None:
    vocab = {**SMALL, "<0xF0>": 300}  # the kangaroo's first byte only
    ours, theirs = both(
        bpe_file(vocab, ["a b"], byte_fallback=True, unk_token="<unk>", fuse_unk=False)
    )
    text = "ab🦘🦘a"
    assert ours.trace(text).ids == theirs.encode(text).ids == [2, 3, 3, 0]


@pytest.fixture(scope="module")
def affixed() -> str:
    """A BPE trained by the library with "##" before inner symbols and "</w>" after the last."""
    model = models.BPE(continuing_subword_prefix="##", end_of_word_suffix="</w>", unk_token="?")
    tokenizer = Tokenizer(model)
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(
        vocab_size=200,
        continuing_subword_prefix="##",
        end_of_word_suffix="</w>",
        special_tokens=["?"],
        show_progress=False,
    )
    words = "the cat sat on the mat with another cat that sat there " * 30
    tokenizer.train_from_iterator([words], trainer)
    return str(tokenizer.to_str())


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="the catmonswr?", max_size=30))
def test_a_continuing_prefix_and_an_end_of_word_suffix(affixed: str, text: str) -> None:
    ours, theirs = read_tokenizer_json(affixed), Tokenizer.from_str(affixed)
    ids = theirs.encode(text).ids
    trace = ours.trace(text)
    assert trace.ids == ids
    for step in (step for chunk in trace.chunks for step in chunk.steps):
        assert ours.merges[step.merge.rank] == step.merge


def added(content: str, token_id: int, **flags: bool) -> dict[str, Any]:
    base = {"single_word": False, "lstrip": False, "rstrip": False, "normalized": False}
    return {"id": token_id, "content": content, "special": True, **base, **flags}


PIECES = st.sampled_from(["a", "b", " ", "  ", "ab", "<M>", "<m>", "[x]", "AB", "é"])


@settings(max_examples=60, deadline=None)
@given(text=st.lists(PIECES, max_size=10).map("".join))
def test_added_tokens_are_found_as_the_library_finds_them(text: str) -> None:
    # lstrip and rstrip take the spaces around; single_word only alone; normalized after
    # the normalizer (here Lowercase, so "<M>" matches "<m>")
    document = json.loads(bpe_file({**SMALL, "A": 6, "B": 7}, ["a b"], unk_token="<unk>"))
    document["normalizer"] = {"type": "Lowercase"}
    document["added_tokens"] = [
        added("<m>", 8, lstrip=True, rstrip=True, normalized=True),
        added("[x]", 9, single_word=True),
        added("ab", 2, rstrip=True),  # a vocabulary token, added: it keeps its id
    ]
    source = json.dumps(document)
    ours, theirs = both(source)
    assert ours.trace(text).ids == ours.encode(text) == theirs.encode(text).ids


@settings(max_examples=60, deadline=None)
@given(text=st.lists(PIECES, max_size=10).map("".join))
def test_normalized_added_tokens_are_found_in_the_normalised_text(text: str) -> None:
    # as the library does: Prepend applies to each stretch between raw added tokens, and
    # a normalized added token is looked for, itself normalised, after it ("▁<m>")
    document = json.loads(bpe_file({**SMALL, "A": 6, "B": 7, "▁": 8}, ["a b"]))
    document["normalizer"] = {
        "type": "Sequence",
        "normalizers": [{"type": "Lowercase"}, {"type": "Prepend", "prepend": "▁"}],
    }
    document["pre_tokenizer"] = None
    document["added_tokens"] = [added("<m>", 9, normalized=True), added("[x]", 10)]
    ours, theirs = both(json.dumps(document))
    assert ours.trace(text).ids == ours.encode(text) == theirs.encode(text).ids


PRE_TOKENIZERS = {
    "Metaspace always": pre_tokenizers.Metaspace(prepend_scheme="always"),
    "Metaspace first": pre_tokenizers.Metaspace(prepend_scheme="first"),
    "ByteLevel prefix": pre_tokenizers.ByteLevel(add_prefix_space=True),
    "Digits and Punctuation": pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.Punctuation()]
    ),
    "Whitespace": pre_tokenizers.Whitespace(),
    "Split removed, inverted": pre_tokenizers.Split(
        tokenizers.Regex(r"\w+|[^\w\s]+"), behavior="removed", invert=True
    ),
    "Split merged with next": pre_tokenizers.Split(" ", behavior="merged_with_next"),
}
TRAINING = "The 3 cats sat, 42 times; on mats! Über-naïve café 2024. " * 20


@pytest.fixture(scope="module", params=list(PRE_TOKENIZERS))
def pre_tokenized(request: pytest.FixtureRequest) -> str:
    """A small BPE trained by the library behind one of issue 34's pre-tokenizers."""
    tokenizer = Tokenizer(models.BPE(unk_token="?"))
    tokenizer.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()])
    tokenizer.pre_tokenizer = PRE_TOKENIZERS[request.param]
    alphabet = pre_tokenizers.ByteLevel.alphabet() if "ByteLevel" in request.param else []
    trainer = trainers.BpeTrainer(
        vocab_size=300, special_tokens=["?"], initial_alphabet=alphabet, show_progress=False
    )
    tokenizer.train_from_iterator([TRAINING], trainer)
    return str(tokenizer.to_str())


@settings(max_examples=30, deadline=None)
@given(text=st.text(alphabet="The 3 cats, 42 sat; Über ＣＡＴ ①  naïve\n", max_size=40))
def test_each_pre_tokenizer_cuts_as_the_library_does(pre_tokenized: str, text: str) -> None:
    ours, theirs = read_tokenizer_json(pre_tokenized), Tokenizer.from_str(pre_tokenized)
    assert ours.trace(text).ids == ours.encode(text) == theirs.encode(text).ids
