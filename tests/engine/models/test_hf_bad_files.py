"""A bad tokenizer.json gets one sentence saying what is wrong and where (issue 34, §7):
truncated, a merge naming an unknown token, an id used twice, too many ids, merges or bytes,
a component or a model the explorer does not know. Nothing is returned half-loaded."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from explorer.files.errors import FormatError
from explorer.files.limits import MAX_FILE_BYTES, MAX_MERGES, MAX_VOCAB_SIZE
from explorer.models.hf_model import read_tokenizer_json

BYTE_LEVEL = {
    "type": "ByteLevel",
    "add_prefix_space": False,
    "trim_offsets": True,
    "use_regex": True,
}


def honest() -> dict[str, Any]:
    return {
        "version": "1.0",
        "added_tokens": [
            {
                "id": 4,
                "content": "<s>",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            },
        ],
        "normalizer": {"type": "NFC"},
        "pre_tokenizer": {
            "type": "Sequence",
            "pretokenizers": [
                {
                    "type": "Split",
                    "pattern": {"Regex": " ?\\w+"},
                    "behavior": "Isolated",
                    "invert": False,
                },
                {**BYTE_LEVEL, "use_regex": False},
            ],
        },
        "post_processor": None,
        "decoder": BYTE_LEVEL,
        "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "Ġ": 3}, "merges": ["a b"]},
    }


def edited(change: Callable[[dict[str, Any]], None]) -> str:
    document = honest()
    change(document)
    return json.dumps(document)


def sentence(text: str, **kwargs: Any) -> str:
    with pytest.raises(FormatError) as caught:
        read_tokenizer_json(text, name="t.json", **kwargs)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 400, message
    assert "Traceback" not in message
    return message


def test_the_honest_file_loads() -> None:
    model = read_tokenizer_json(edited(lambda d: None))
    assert model.encode("ab<s>") == [2, 4]


def test_a_truncated_file_says_where_it_stops() -> None:
    text = edited(lambda d: None)
    message = sentence(text[: len(text) // 2])
    assert message.startswith("t.json, line 1, column") and "cut short" in message


def test_a_merge_naming_an_unknown_token() -> None:
    message = sentence(edited(lambda d: d["model"]["merges"].append("a zz")))
    assert message == "t.json, model.merges[1]: 'zz' is not in model.vocab"


def test_a_merge_making_a_token_the_vocabulary_lacks() -> None:
    message = sentence(edited(lambda d: d["model"]["merges"].append("b a")))
    assert message == "t.json, model.merges[1]: 'b' + 'a' makes 'ba', which is not in model.vocab"


def test_a_merge_of_the_wrong_shape() -> None:
    message = sentence(edited(lambda d: d["model"]["merges"].append(["a", "b", "c"])))
    assert message.startswith("t.json, model.merges[1]: expected")


def test_an_id_used_twice_in_the_vocabulary() -> None:
    message = sentence(edited(lambda d: d["model"]["vocab"].update(ba=1)))
    assert message == "t.json, model.vocab: id 1 is used twice, by 'b' and 'ba'"


def test_an_added_token_on_a_vocabulary_id() -> None:
    message = sentence(edited(lambda d: d["added_tokens"][0].update(id=2)))
    assert message == "t.json, added_tokens[0]: id 2 is used twice, by '<s>' and 'ab'"


def test_an_added_token_the_library_would_number_otherwise() -> None:
    message = sentence(edited(lambda d: d["added_tokens"][0].update(id=9)))
    assert "added_tokens[0]" in message and "gives it id 4" in message


def test_a_negative_id() -> None:
    message = sentence(edited(lambda d: d["model"]["vocab"].update(ba=-3)))
    assert message.startswith("t.json, model.vocab['ba']")


@pytest.mark.parametrize(
    ("place", "change", "named"),
    [
        ("normalizer", lambda d: d.update(normalizer={"type": "Shout"}), "the normalizer 'Shout'"),
        (
            "pre-tokenizer",
            lambda d: d["pre_tokenizer"]["pretokenizers"].append({"type": "Foo"}),
            "the pre-tokenizer 'Foo'",
        ),
        (
            "decoder",
            lambda d: d.update(decoder={"type": "Sequence", "decoders": [{"type": "Rot13"}]}),
            "the decoder 'Rot13'",
        ),
        (
            "post-processor",
            lambda d: d.update(post_processor={"type": "Bos"}),
            "post-processor 'Bos'",
        ),
    ],
)
def test_a_component_the_explorer_does_not_know_is_named(
    place: str, change: Callable[[dict[str, Any]], None], named: str
) -> None:
    message = sentence(edited(change))
    assert message == f"t.json uses {named}, which the explorer does not know" or named in message


@pytest.mark.parametrize("kind", ["Unigram", "WordPiece", "WordLevel"])
def test_another_kind_of_model(kind: str) -> None:
    message = sentence(edited(lambda d: d["model"].update(type=kind)))
    assert message == (
        f"t.json, model.type: the model is '{kind}', a kind the explorer does not know "
        "(it reads BPE models)"
    )


def test_dropout_is_refused_as_random() -> None:
    assert "random" in sentence(edited(lambda d: d["model"].update(dropout=0.1)))


def test_too_many_merges_before_any_is_read() -> None:
    many = ["a b"] * (MAX_MERGES + 1)
    message = sentence(edited(lambda d: d["model"].update(merges=many)))
    assert message.startswith(f"t.json lists {MAX_MERGES + 1:,} merges")


def test_too_many_ids() -> None:
    vocab = {f"t{k}": k for k in range(MAX_VOCAB_SIZE + 1)}
    message = sentence(edited(lambda d: d["model"].update(vocab=vocab)))
    assert f"{MAX_VOCAB_SIZE + 1:,} vocabulary entries" in message


def test_too_many_bytes_before_the_json_is_read() -> None:
    text = edited(lambda d: None) + " " * MAX_FILE_BYTES
    message = sentence(text)
    assert message.startswith("t.json is ") and "bytes" in message


def test_a_config_that_would_move_an_added_token() -> None:
    config = json.dumps({"added_tokens_decoder": {"7": {"content": "<extra>", "special": True}}})
    message = sentence(edited(lambda d: None), config_text=config)
    assert message == (
        "tokenizer_config.json, added_tokens_decoder[7]: '<extra>' has id 5 in the tokenizer, not 7"
    )


def test_a_config_adds_its_tokens_as_autotokenizer_would() -> None:
    config = json.dumps(
        {
            "added_tokens_decoder": {"5": {"content": "<extra>", "special": True}},
            "eos_token": {"content": "</s>", "__type": "AddedToken"},
        }
    )
    model = read_tokenizer_json(edited(lambda d: None), config_text=config)
    assert model.special_tokens == {"<s>": 4, "<extra>": 5, "</s>": 6}
    assert model.encode("a<extra>b</s>") == [0, 5, 1, 6]
