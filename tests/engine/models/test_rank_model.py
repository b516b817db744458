"""Real rank files against their references: Llama 3's tokenizer.model against tiktoken built as
../shared/reference/open-weight/SOURCES.md says, Mistral's tekken against mistral-common (and
against tiktoken with mistral-common's numbering, rank + 1000, which needs no extra package).

Each file loads once per session. Tests skip cleanly without ../shared.
"""

from __future__ import annotations

import base64
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tiktoken.load import load_tiktoken_bpe

from explorer.models.known_files import LLAMA3_PATTERN
from explorer.models.model import LoadedModel
from explorer.models.rank_model import RankModel, UnknownTokenId, read_rank_file, read_tekken
from explorer.models.reading import read_model
from tests.conftest import shared_path

UDHR = [
    "am", "ar", "bn", "de", "el", "en", "es", "fa", "fr", "he", "hi", "hy", "ja",
    "ka", "km", "ko", "my", "ru", "si", "sw", "ta", "te", "th", "tr", "vi", "zh",
]  # fmt: skip
# SOURCES.md's pattern, written out again here so a typo in known_files cannot agree with itself
SOURCES_LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
TEKKEN_SPECIALS = 1000


def _open_weight(*parts: str) -> Path:
    return shared_path("reference", "open-weight", *parts)


# --- the files and their references, once per session ---------------------------------------


@pytest.fixture(scope="session")
def llama3() -> RankModel:
    path = _open_weight("llama3", "tokenizer.model")
    return read_rank_file(path.read_bytes(), name=path.name)


@pytest.fixture(scope="session")
def llama3_tiktoken() -> tiktoken.Encoding:
    """SOURCES.md's reference: tiktoken.Encoding(pat_str, mergeable_ranks=load_tiktoken_bpe(f))."""
    path = _open_weight("llama3", "tokenizer.model")
    ranks = load_tiktoken_bpe(str(path))
    return tiktoken.Encoding(
        "llama3", pat_str=SOURCES_LLAMA3_PATTERN, mergeable_ranks=ranks, special_tokens={}
    )


@pytest.fixture(scope="session")
def tekken() -> RankModel:
    path = _open_weight("mistral", "tekken_240911.json")
    return read_tekken(path.read_text(encoding="utf-8"), name=path.name)


@pytest.fixture(scope="session")
def tekken_tiktoken() -> tiktoken.Encoding:
    """tiktoken on the first default_vocab_size - default_num_special_tokens ranks, as
    mistral-common's _reload_mergeable_ranks builds it; ids are these ranks + 1000."""
    import json

    data = json.loads(_open_weight("mistral", "tekken_240911.json").read_text(encoding="utf-8"))
    config = data["config"]
    used = config["default_vocab_size"] - config["default_num_special_tokens"]
    ranks = {
        base64.b64decode(entry["token_bytes"]): entry["rank"] for entry in data["vocab"][:used]
    }
    return tiktoken.Encoding(
        "tekken", pat_str=config["pattern"], mergeable_ranks=ranks, special_tokens={}
    )


@pytest.fixture(scope="session")
def mistral() -> Any:
    """mistral-common's own Tekkenizer (requirements-dev); skip where it is not installed."""
    tekken_module = pytest.importorskip("mistral_common.tokens.tokenizers.tekken")
    return tekken_module.Tekkenizer.from_file(_open_weight("mistral", "tekken_240911.json"))


def _keep() -> Any:
    base = pytest.importorskip("mistral_common.tokens.tokenizers.base")
    return base.SpecialTokenPolicy.KEEP


def _udhr(code: str) -> str:
    return shared_path("udhr", f"{code}.txt").read_bytes().decode("utf-8")


# --- texts a tokenizer finds hard ----------------------------------------------------------------

PIECES = [
    " ", "  ", "\n", "\r\n", "\t", "\u00a0", "\u3000", "0", "12", "3456", "٣", "I", "'s", "'LL",
    "the", " The", "naïve", "e\u0301", "\u0301", "🙂", "👩\u200d👩\u200d👧", "🇫🇷", "日本語",
    "한국어", "ـ", "ﷺ", "ﬁ", "Å", "Ω", "<|eot_id|>", "[INST]", "<s>", "\x00", "\ufeff", "𝕏",
]  # fmt: skip
texts = st.one_of(
    st.text(max_size=120),
    st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=30).map("".join),
)


def _check_one(model: LoadedModel, text: str, reference: Callable[[str], list[int]]) -> None:
    ids = model.encode(text)
    assert ids == reference(text), text
    trace = model.trace(text)
    assert trace.ids == ids
    assert model.decode(ids) == text
    for chunk in trace.chunks:
        symbols = list(chunk.start_ids)
        for step in chunk.steps:  # each merge applied is one of the model's merges, in place
            assert step.merge in model.makers(step.merge.result)
            merge, at = step.merge, step.position
            assert symbols[at : at + 2] == [merge.left, merge.right]
            symbols[at : at + 2] = [merge.result]
        if not chunk.whole:  # a whole token has no steps: its one id is tiktoken's
            assert list(chunk.final_ids) == symbols


# --- Llama 3's tokenizer.model ------------------------------------------------------------------


def test_llama3_pattern_is_the_one_sources_md_gives(llama3: RankModel) -> None:
    assert LLAMA3_PATTERN == SOURCES_LLAMA3_PATTERN == llama3.pattern
    assert llama3.file_kind == "tiktoken ranks" and llama3.base == "bytes"
    assert llama3.vocab_size == 128_256 and len(llama3.tokens) == 128_256
    assert llama3.special_tokens["<|begin_of_text|>"] == 128_000
    assert llama3.special_tokens["<|reserved_special_token_245|>"] == 128_255


@pytest.mark.parametrize("code", UDHR)
def test_llama3_udhr(llama3: RankModel, llama3_tiktoken: tiktoken.Encoding, code: str) -> None:
    _check_one(llama3, _udhr(code), llama3_tiktoken.encode_ordinary)


@settings(max_examples=60, deadline=None)
@given(text=texts)
@example(text="<|eot_id|>")
@example(text="   \n\n  x  \t")
def test_llama3_any_text(llama3: RankModel, llama3_tiktoken: tiktoken.Encoding, text: str) -> None:
    specials = dict(llama3.special_tokens)
    reference = tiktoken.Encoding(
        "llama3+specials",
        pat_str=SOURCES_LLAMA3_PATTERN,
        mergeable_ranks=llama3_tiktoken._mergeable_ranks,
        special_tokens=specials,
    )
    _check_one(llama3, text, lambda t: reference.encode(t, allowed_special="all"))
    if not any(name in text for name in specials):  # SOURCES.md's own reference, as built there
        assert llama3.encode(text) == llama3_tiktoken.encode_ordinary(text)


def test_llama3_special_tokens_and_bos(llama3: RankModel) -> None:
    assert llama3.encode("<|eot_id|>") == [128_009]
    assert llama3.encode("hi", add_special_tokens=True)[0] == 128_000
    assert llama3.decode([128_000, 15339]) == "<|begin_of_text|>hello"
    assert llama3.tokens[128_009] == "<|eot_id|>" and llama3.tokens[15339] == "hello"
    assert llama3.token_bytes(220) == b" "
    with pytest.raises(UnknownTokenId, match="no token with id 128,256"):
        llama3.decode([128_256])


def test_llama3_trace_merges_are_real_merges(llama3: RankModel) -> None:
    trace = llama3.trace(_udhr("de")[:3000])
    steps = [step for chunk in trace.chunks for step in chunk.steps]
    assert [step.step for step in steps] == list(range(1, len(steps) + 1))
    for step in steps:
        merge = step.merge
        assert merge.rank == merge.result  # a rank file's id is its rank
        made = llama3.token_bytes(merge.left) + llama3.token_bytes(merge.right)
        assert made == llama3.token_bytes(merge.result)
        assert merge in llama3.makers(merge.result)
    whole = [chunk for chunk in trace.chunks if chunk.whole]
    assert whole and all(len(chunk.final_ids) == 1 for chunk in whole)


def test_llama3_merges_are_its_tokenizer_json_merges(llama3: RankModel) -> None:
    """Every split of a token into two tokens: Hugging Face's conversion of this very file
    (Llama 3's tokenizer.json) lists the same 280,147 merges, in the same order."""
    import json

    path = _open_weight("llama3", "tokenizer.json")
    listed = json.loads(path.read_text(encoding="utf-8"))["model"]["merges"]
    merges = llama3.merges
    assert len(merges) == len(listed) == 280_147
    tokens = llama3.tokens
    for index in range(0, len(listed), 97):
        merge = merges[index]
        assert f"{tokens[merge.left]} {tokens[merge.right]}" == listed[index], index
    ranks = [merge.rank for merge in merges]
    assert ranks == sorted(ranks)  # in rank order: a merge's rank is its result's rank
    hello = llama3.encode(" hello")[0]
    makers = llama3.makers(hello)
    assert len(makers) > 1 and makers == [m for m in merges if m.result == hello]
    for merge in makers:
        assert llama3.token_bytes(merge.left) + llama3.token_bytes(merge.right) == b" hello"
    assert llama3.makers(32) == []  # a single byte ('A' is rank 32) has none


def test_llama3_pickles_and_reads_by_content(llama3: RankModel) -> None:
    again = pickle.loads(pickle.dumps(llama3))
    text = _udhr("fr")[:2000]
    assert again.encode(text) == llama3.encode(text)
    path = _open_weight("llama3", "tokenizer.model")
    by_content = read_model("renamed.bin", path.read_bytes())
    assert by_content.encode(text) == llama3.encode(text)


# --- Mistral's tekken ----------------------------------------------------------------------


def _tekken_ids(reference: tiktoken.Encoding) -> Callable[[str], list[int]]:
    return lambda text: [rank + TEKKEN_SPECIALS for rank in reference.encode_ordinary(text)]


def test_tekken_numbering(tekken: RankModel) -> None:
    assert tekken.file_kind == "tekken"
    assert tekken.vocab_size == 131_072 and tekken.id_offset == TEKKEN_SPECIALS
    assert tekken.special_tokens["<unk>"] == 0 and tekken.special_tokens["[INST]"] == 3
    assert tekken.special_tokens["<SPECIAL_999>"] == 999
    assert list(tekken.tokens)[:2] == [0, 1] and list(tekken.tokens)[-1] == 131_071
    assert tekken.encode(" ")[0] == 32 + TEKKEN_SPECIALS  # byte b is rank b
    assert tekken.encode("a", add_special_tokens=True) == [1, ord("a") + TEKKEN_SPECIALS]


@pytest.mark.parametrize("code", UDHR)
def test_tekken_udhr(tekken: RankModel, tekken_tiktoken: tiktoken.Encoding, code: str) -> None:
    _check_one(tekken, _udhr(code), _tekken_ids(tekken_tiktoken))


@settings(max_examples=60, deadline=None)
@given(text=texts)
@example(text="<s>[INST]")
def test_tekken_any_text(tekken: RankModel, tekken_tiktoken: tiktoken.Encoding, text: str) -> None:
    _check_one(tekken, text, _tekken_ids(tekken_tiktoken))


@pytest.mark.parametrize("code", UDHR)
def test_tekken_udhr_against_mistral_common(tekken: RankModel, mistral: Any, code: str) -> None:
    text = _udhr(code)
    ids = tekken.encode(text)
    assert ids == mistral.encode(text, bos=False, eos=False)
    assert tekken.encode(text, add_special_tokens=True) == mistral.encode(text, bos=True, eos=False)
    assert tekken.decode(ids) == mistral.decode(ids, special_token_policy=_keep())


@settings(max_examples=60, deadline=None)
@given(text=texts, specials=st.lists(st.integers(0, 999), max_size=3))
@example(text="€", specials=[1])
def test_tekken_any_text_against_mistral_common(
    tekken: RankModel, mistral: Any, text: str, specials: list[int]
) -> None:
    ids = tekken.encode(text)
    assert ids == mistral.encode(text, bos=False, eos=False)
    mixed = [*ids[: len(ids) // 2], *specials, *ids[len(ids) // 2 :]]
    assert tekken.decode(mixed) == mistral.decode(mixed, special_token_policy=_keep())


def test_tekken_special_names_are_mistral_commons(tekken: RankModel, mistral: Any) -> None:
    for token_id in (0, 1, 2, 3, 9, 19, 20, 500, 999):
        assert tekken.tokens[token_id] == mistral.id_to_piece(token_id)
