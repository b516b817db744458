"""Encoding through tiktoken gives exactly the ids this engine's own path gives.

The reference is the same tokenizer with its preset written as a custom pattern
(`(?:PATTERN)`, the same matches): custom patterns never go through tiktoken, so it
splits with `regex` and merges in Python, the path tests/engine/encoding/test_fast_paths.py
holds to tests/naive.py.
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer import load_bundled, train
from explorer.encoding.engine_agreement import DISAGREEING, disagreeing_ranges, disagreeing_spans
from explorer.encoding.pretokenize import PRESETS
from explorer.encoding.tokenizer import SpecialTokenError, Tokenizer

VOCABULARIES = ["gpt2", "cl100k_base", "o200k_base"]
NEW_CHARACTERS = [chr(low) for low, _ in DISAGREEING] + ["\U00010940", "\u1ad0"]
SAMPLE = (
    "Hello world's 12345 it'S \n\n  \t x\r\n y  東京 ภาษาไทย café ½ e\u0301 \U0001f600 "
    "IPA \u0295ayn, Old Ḥ \u0295a\u0295. 9999999999 <|endoftext|>"
)

# text of every kind: any code point (lone surrogates too), the characters the two regex
# engines class differently, and the ones the presets' alternatives turn on
TEXTS = st.text(
    alphabet=st.one_of(
        st.characters(blacklist_categories=()),
        st.sampled_from(NEW_CHARACTERS),
        st.sampled_from(list(" \n\r\t'sdtlmvreSA09aé東ก.!?-")),
    ),
    max_size=80,
)


def reference(tokenizer: Tokenizer) -> Tokenizer:
    """The same tokenizer encoding by this engine alone: its preset as a custom pattern."""
    return Tokenizer(
        tokenizer.merges,
        pattern=f"(?:{tokenizer.pattern})",
        special_tokens=tokenizer.special_tokens,
        byte_ids=tokenizer.byte_ids,
        trained=tokenizer.trained,
        outside_merges=tokenizer.outside_merges,
        encode_outside=tokenizer.encode_outside,
    )


@pytest.fixture(scope="module", params=VOCABULARIES)
def bundled_pair(request: pytest.FixtureRequest) -> tuple[Tokenizer, Tokenizer]:
    fast = load_bundled(request.param)
    fast.prepare_encoding()  # tiktoken's tables now, so every text goes through them
    return fast, reference(fast)


@pytest.fixture(scope="module")
def trained_pair() -> tuple[Tokenizer, Tokenizer]:
    text = (SAMPLE + " the cat sat on the mat; naïve 東京タワー ") * 30
    fast = train(text, 600, pattern="gpt4").tokenizer
    fast.prepare_encoding()
    return fast, reference(fast)


def test_the_table_of_disagreeing_characters_is_the_installed_engines() -> None:
    assert disagreeing_ranges() == list(DISAGREEING), (
        "regex or tiktoken changed its Unicode tables: paste disagreeing_ranges() into "
        "explorer/encoding/engine_agreement.py's DISAGREEING"
    )


@pytest.mark.parametrize("name", VOCABULARIES)
def test_bundled_vocabularies_go_through_tiktoken(name: str) -> None:
    assert load_bundled(name).tiktoken_refusal() is None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS)
def test_bundled_ids_equal_this_engines(
    text: str, bundled_pair: tuple[Tokenizer, Tokenizer]
) -> None:
    fast, slow = bundled_pair
    assert fast.encode_ordinary(text) == slow.encode_ordinary(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS)
def test_a_trained_runs_ids_equal_this_engines(
    text: str, trained_pair: tuple[Tokenizer, Tokenizer]
) -> None:
    fast, slow = trained_pair
    assert fast.tiktoken_refusal() is None
    assert fast.encode_ordinary(text) == slow.encode_ordinary(text)


def test_a_long_mixed_text_equals_this_engines(
    bundled_pair: tuple[Tokenizer, Tokenizer],
) -> None:
    fast, slow = bundled_pair
    text = SAMPLE * 200
    assert disagreeing_spans(text)  # the spans around U+0295 are encoded here
    assert fast.encode(text, allowed_special="all") == slow.encode(text, allowed_special="all")


def test_special_tokens_keep_this_engines_rules(
    bundled_pair: tuple[Tokenizer, Tokenizer],
) -> None:
    fast, slow = bundled_pair
    text = "a<|endoftext|>b \u0295<|endoftext|><|endoftext|>"
    for allowed in ("all", {"<|endoftext|>"}):
        assert fast.encode(text, allowed_special=allowed) == slow.encode(
            text, allowed_special=allowed
        )
    with pytest.raises(SpecialTokenError):
        fast.encode(text)


def test_an_untrained_copy_is_checked_and_goes_through_tiktoken(
    trained_pair: tuple[Tokenizer, Tokenizer],
) -> None:
    fast, _ = trained_pair
    loaded = Tokenizer(fast.merges, pattern=fast.pattern)  # as a .model file is read back
    assert loaded.tiktoken_refusal() is None
    loaded.prepare_encoding()
    assert loaded.encode(SAMPLE, allowed_special="all") == fast.encode(
        SAMPLE, allowed_special="all"
    )


def test_tokens_with_the_same_bytes_stay_with_this_engine() -> None:
    # 257 and 258 are both b"aaa": tiktoken knows a token by its bytes
    tok = Tokenizer([(97, 97), (256, 97), (97, 256)], pattern=PRESETS["gpt2"])
    assert "same bytes" in (tok.tiktoken_refusal() or "")
    tok.prepare_encoding()
    text = "aaa aaaa baaa " * 500
    assert tok.encode(text) == reference(tok).encode(text)
    assert tok.encode("aaa") == [257]


def test_merges_that_ranks_rebuild_otherwise_stay_with_this_engine() -> None:
    # b"aab" is made as a + ab here; from ranks alone BPE makes it as aa + b
    tok = Tokenizer([(97, 97), (97, 98), (97, 257)], pattern=PRESETS["gpt2"])
    assert "merge 3" in (tok.tiktoken_refusal() or "")
    tok.prepare_encoding()
    assert tok.encode("aab " * 2000) == reference(tok).encode("aab " * 2000)


@pytest.mark.parametrize("pattern", ["none", "custom"])
def test_other_patterns_stay_with_this_engine(pattern: str) -> None:
    tok = Tokenizer([(97, 97)], pattern="" if pattern == "none" else r"\w+|\s")
    assert "not a preset" in (tok.tiktoken_refusal() or "")


def test_a_pickled_tokenizer_encodes_the_same(
    trained_pair: tuple[Tokenizer, Tokenizer],
) -> None:
    fast, _ = trained_pair
    copy = pickle.loads(pickle.dumps(fast))
    assert copy.encode_ordinary(SAMPLE * 50) == fast.encode_ordinary(SAMPLE * 50)
