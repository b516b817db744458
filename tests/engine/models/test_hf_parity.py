"""Every open-weight tokenizer.json gives the `tokenizers` library's ids and decode, and its
trace ends at those ids: on arbitrary Unicode (whitespace runs, digits, emoji sequences,
combining marks, text NFC and NFKC change, the model's own added tokens) and on the UDHR
in 26 languages. Each file is read once per session (open_weight.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.models.open_weight import HF_MODELS, UDHR_LANGUAGES, hf_model, reference, udhr

EMOJI = ["👨‍👩‍👧‍👦", "🏳️‍🌈", "👍🏽", "🇫🇷🇩🇪", "❤️", "🧑🏿‍🚀"]
NORMALIZER_FODDER = ["ﬁ", "Ａｂｃ", "Å", "A\u030a", "Ω", "①", "e\u0301", "ｶﾞ", "ﾊﾟ", "\u00a0", "ǅ"]
PIECES = st.one_of(
    st.text(max_size=16),
    st.text(alphabet=" \t\n\r\u00a0\u3000\u2009", min_size=1, max_size=10),
    st.text(alphabet="0123456789٣१๕", min_size=1, max_size=14),
    st.sampled_from(EMOJI),
    st.text(alphabet="aeoı\u0301\u0308\u0327\u0323\u20d7", min_size=1, max_size=8),
    st.sampled_from(NORMALIZER_FODDER),
    st.sampled_from(["Hello", " world", "the", " 2024", "naïve", "東京", "Привет", "<", ">"]),
)
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _texts(specials: list[str]) -> st.SearchStrategy[str]:
    piece = st.one_of(PIECES, st.sampled_from(specials)) if specials else PIECES
    return st.lists(piece, max_size=8).map("".join)


@pytest.mark.parametrize("name", HF_MODELS)
@PROPERTY
@given(data=st.data())
def test_ids_decode_and_trace_equal_the_library(name: str, data: st.DataObject) -> None:
    ours, theirs = hf_model(name), reference(name)
    specials = sorted(ours.special_tokens)[:40]
    text = data.draw(_texts(specials), label="text")
    ids = ours.encode(text)
    assert ids == theirs.encode(text, add_special_tokens=False).ids
    assert ours.decode(ids) == theirs.decode(ids, skip_special_tokens=False)
    assert ours.decode(ids, skip_special_tokens=True) == theirs.decode(ids)
    assert ours.trace(text).ids == ids


@pytest.mark.parametrize("name", HF_MODELS)
def test_the_udhr_in_26_languages(name: str) -> None:
    ours, theirs = hf_model(name), reference(name)
    for language in UDHR_LANGUAGES:
        text = udhr(language)
        ids = ours.encode(text)
        assert ids == theirs.encode(text, add_special_tokens=False).ids, language
        assert ours.decode(ids) == theirs.decode(ids, skip_special_tokens=False), language
        opening = text[:1500]  # the trace is ours, in Python: an opening is enough
        assert ours.trace(opening).ids == ours.encode(opening), language


@pytest.mark.parametrize("name", HF_MODELS)
def test_special_tokens_are_added_only_when_asked(name: str) -> None:
    ours, theirs = hf_model(name), reference(name)
    text = "Hello world"
    assert ours.encode(text, add_special_tokens=True) == theirs.encode(text).ids
    assert ours.encode(text) == theirs.encode(text, add_special_tokens=False).ids


@pytest.mark.parametrize("name", HF_MODELS)
def test_added_tokens_keep_the_library_ids(name: str) -> None:
    ours, theirs = hf_model(name), reference(name)
    for content, token_id in ours.special_tokens.items():
        assert theirs.token_to_id(content) == token_id
        assert ours.tokens[token_id] == content
    assert ours.vocab_size == len(theirs.get_vocab(with_added_tokens=True))


def test_deepseek_puts_its_specials_at_ids_0_to_2_and_the_bytes_after() -> None:
    model = hf_model("deepseek_v3")
    assert [model.tokens[i] for i in range(3)] == [
        "<｜begin▁of▁sentence｜>",
        "<｜end▁of▁sentence｜>",
        "<｜▁pad▁｜>",
    ]
    assert model.token_bytes(model.encode("!")[0]) == b"!"
    assert model.base == "bytes"


def test_a_normalizer_is_described_and_shown_not_hidden() -> None:
    qwen, llama2, llama3, gemma = (hf_model(n) for n in ("qwen3", "llama2", "llama3", "gemma3"))
    assert qwen.normalizer == "NFC"
    assert qwen.normalize("e\u0301<|im_start|>A\u030a") == "é<|im_start|>Å"
    assert qwen.trace("e\u0301").normalized == "é"
    assert llama2.normalizer == "Prepend('▁'), Replace(' ', '▁')"
    assert llama2.normalize("a b<s>c") == "▁a▁b<s>▁c"  # each stretch between added tokens
    assert llama3.normalizer == "" and llama3.normalize("e\u0301") == "e\u0301"
    assert gemma.normalizer == "Replace(' ', '▁')"


def test_sentencepiece_style_models_use_characters_and_byte_fallback() -> None:
    for name in ("llama2", "gemma3"):
        model = hf_model(name)
        assert model.base == "characters"
        [chunk] = model.trace("\U00013000").chunks  # an Egyptian hieroglyph, in neither
        starts = [model.tokens[i] for i in chunk.start_ids]
        assert any(token.startswith("<0x") for token in starts), starts
        assert b"".join(model.token_bytes(i) for i in chunk.final_ids).strip()


def test_llama3_takes_a_whole_vocabulary_word_whole_with_ignore_merges() -> None:
    model = hf_model("llama3")
    text = " hello"
    [chunk] = model.trace(text).chunks
    assert chunk.whole and chunk.steps == () and chunk.final_ids == tuple(model.encode(text))


def test_makers_list_every_merge_of_a_token_made_several_ways() -> None:
    model = hf_model("llama3")
    several = next(i for i in range(256, 128000) if len(model.makers(i)) >= 3)
    makers = model.makers(several)
    assert [m.rank for m in makers] == sorted(m.rank for m in makers)
    for merge in makers:
        assert merge.result == several
        assert model.tokens[merge.left] + model.tokens[merge.right] == model.tokens[several]
        assert model.merges[merge.rank] == merge
    # ids and ranks are two numbers: 280,147 merges for 128,256 ids
    assert len(model.merges) > 2 * model.vocab_size
    assert model.makers(100_421)[0].rank > 200_000


def test_the_steps_count_from_one_and_name_their_ranks() -> None:
    model = hf_model("qwen3")
    trace = model.trace("Hello tokenizers, hello merges")
    steps = [step for chunk in trace.chunks for step in chunk.steps]
    assert [step.step for step in steps] == list(range(1, len(steps) + 1))
    for step in steps:
        assert model.merges[step.merge.rank] == step.merge


@pytest.mark.parametrize("name", ["qwen3", "gemma3"])
def test_each_step_merges_the_pair_at_its_position(name: str) -> None:
    model = hf_model(name)
    trace = model.trace(udhr("de")[:2000] + " aaaa  bbbb 1234567")
    for chunk in trace.chunks:
        symbols = list(chunk.start_ids)
        for step in chunk.steps:
            at = step.position
            assert (symbols[at], symbols[at + 1]) == (step.merge.left, step.merge.right)
            symbols[at : at + 2] = [step.merge.result]
        assert tuple(symbols) == chunk.final_ids
