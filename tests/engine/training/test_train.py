"""The trainer: the seeds' worked examples, and identical merges to minbpe's algorithm."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer import (
    PRESETS,
    PatternError,
    StopReason,
    TrainingError,
    train,
    train_word_counts,
)
from explorer.encoding.tokenizer import Tokenizer
from explorer.training.corpus import CorpusError
from tests.naive import fast_steps, naive_train, split_text

# Few distinct characters, so pairs repeat and counts tie often; several scripts and
# whitespace kinds so every preset's alternatives are exercised.
SMALL_ALPHABET = "aab b'sc d\n\t 1 2é😀한..!?AB"
small_texts = st.text(alphabet=SMALL_ALPHABET, max_size=80)
CUSTOM_PATTERNS = [r"\w+|\s+|[^\w\s]+", r"\b\w+\b|\W", r"[ab]+", r"(a)b|."]


def test_seed_aaabdaaabac() -> None:
    result = train("aaabdaaabac", 259, pattern="none")
    assert result.tokenizer.encode("aaabdaaabac") == [258, 100, 258, 97, 99]
    assert [s.token for s in result.history.steps] == [b"aa", b"aaa", b"aaab"]
    assert [s.count for s in result.history.steps] == [4, 2, 2]
    # "aaa" holds 2 overlapping "aa" pairs but only one can be merged
    assert [s.merged for s in result.history.steps] == [2, 2, 2]
    assert result.history.steps[1].ties == ((97, 98),)


def test_seed_hug_pug_word_counts() -> None:
    table = "hug 10\npug 5\npun 12\nbun 4\nhugs 5\n"
    steps = train_word_counts(table, 259).history.steps
    assert [(s.token, s.count) for s in steps] == [(b"ug", 20), (b"un", 16), (b"hug", 15)]


def test_word_counts_match_the_expanded_corpus() -> None:
    counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    expanded = [word for word, n in counts.items() for _ in range(n)]
    result = train_word_counts(counts, 270)
    assert fast_steps(result.history) == naive_train(expanded, 14)


@pytest.mark.parametrize("pattern", sorted(PRESETS))
def test_real_text_matches_minbpe(pattern: str, sample_text: str) -> None:
    text = sample_text[:6000]
    result = train(text, 256 + 120, pattern=pattern)
    assert fast_steps(result.history) == naive_train(split_text(text, PRESETS[pattern]), 120)


@pytest.mark.parametrize(
    "text",
    [
        "abab",
        "ababab ab",
        "aaaa",
        "aaaaa aaa",
        "aabaab",
        "abba abab baba",
        "xyxyxy yxyx",
        "zzzzzzz",
    ],
)
def test_runs_and_alternations_match_minbpe(text: str) -> None:
    """Merged tokens side by side: (new, new) pairs and losses of pairs made by the same merge."""
    for pattern in ("none", "words"):
        chunks = split_text(text, PRESETS[pattern])
        result = train(text, 256 + 12, pattern=pattern)
        assert fast_steps(result.history) == naive_train(chunks, 12)


@pytest.mark.parametrize("pattern", sorted(PRESETS) + CUSTOM_PATTERNS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(small_texts, min_size=1, max_size=3), merges=st.integers(0, 40))
def test_random_corpora_match_minbpe(pattern: str, texts: list[str], merges: int) -> None:
    result = train(texts, 256 + merges, pattern=pattern)
    regex = PRESETS.get(pattern, pattern)
    chunks = [chunk for text in texts for chunk in split_text(text, regex)]
    assert fast_steps(result.history) == naive_train(chunks, merges)


@settings(max_examples=60, deadline=None)
@given(text=small_texts, specials=st.lists(st.sampled_from(["<|e|>", "ab", "\n"]), max_size=2))
def test_special_tokens_are_cut_out_and_never_merged(text: str, specials: list[str]) -> None:
    text = "<|e|>" + text + "ab<|e|>"
    result = train(text, 256 + 30, pattern="gpt4", special_tokens=specials)
    chunks = split_text(text, PRESETS["gpt4"], list(dict.fromkeys(specials)))
    assert fast_steps(result.history) == naive_train(chunks, 30)
    unique = list(dict.fromkeys(specials))
    merged = 256 + len(result.history.steps)
    assert result.tokenizer.special_tokens == {s: merged + i for i, s in enumerate(unique)}


@settings(max_examples=40, deadline=None)
@given(text=small_texts, min_count=st.integers(1, 6))
def test_min_count_stops_training(text: str, min_count: int) -> None:
    result = train(text, 256 + 50, pattern="words", min_count=min_count)
    chunks = split_text(text, PRESETS["words"])
    assert fast_steps(result.history) == naive_train(chunks, 50, min_count=min_count)
    assert all(step.count >= min_count for step in result.history.steps)


def test_stop_reasons() -> None:
    assert train("abab", 256 + 5, pattern="none").history.stop_reason is StopReason.NO_PAIRS_LEFT
    assert train("", 300).history.stop_reason is StopReason.NO_PAIRS_LEFT
    assert train("abab", 256).history.stop_reason is StopReason.VOCAB_SIZE_REACHED
    below = train("abcabd", 300, pattern="none", min_count=2).history
    assert below.stop_reason is StopReason.BELOW_MIN_COUNT
    assert [s.token for s in below.steps] == [b"ab"]


def test_history_records_lengths_and_usage() -> None:
    text = "the cat the hat the bat"
    history = train(text, 256 + 10, pattern="gpt2").history
    assert history.initial_length == len(text.encode())
    lengths = [history.initial_length] + [s.length_after for s in history.steps]
    assert all(a - b == s.merged for a, b, s in zip(lengths, lengths[1:], history.steps))
    assert sum(history.token_usage.values()) == history.final_length
    assert history.length_at(256) == history.initial_length
    assert history.length_at(10_000) == history.final_length


def test_first_k_merges_are_a_smaller_tokenizer(sample_text: str) -> None:
    text = sample_text[:20000]
    big = train(text, 800, pattern="gpt4")
    small = train(text, 500, pattern="gpt4")
    assert big.history.merges[:244] == small.history.merges
    at_500 = big.tokenizer.at_vocab_size(500)
    assert at_500.merges == small.tokenizer.merges
    assert at_500.encode(text) == small.tokenizer.encode(text)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"vocab_size": 100}, "at least 256"),
        ({"vocab_size": 300, "min_count": 0}, "min_count"),
        ({"vocab_size": 300, "special_tokens": [""]}, "non-empty"),
    ],
)
def test_bad_settings_are_explained(kwargs: dict, message: str) -> None:
    with pytest.raises(TrainingError, match=message):
        train("hello", **kwargs)


def test_a_vocab_size_that_is_not_a_number_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="vocab_size must be a whole number"):
        train("hello", "500")


def test_invalid_regex_is_explained() -> None:
    with pytest.raises(PatternError, match="invalid pre-tokenizer regex"):
        train("hello", 300, pattern="(unclosed")


def test_catastrophic_regex_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("explorer.encoding.pretokenize.CUSTOM_TIMEOUT_SECONDS", 0.5)
    with pytest.raises(PatternError, match="took longer than"):
        train("a" * 5000 + "b", 300, pattern=r"(a+)+$")


def test_malformed_word_counts_name_the_line() -> None:
    with pytest.raises(CorpusError, match="line 2"):
        train_word_counts("hug 10\npug five\n", 300)
    with pytest.raises(CorpusError, match="empty"):
        train_word_counts("\n\n", 300)


def test_tokenizer_rejects_merges_of_unknown_ids() -> None:
    from explorer import TokenizerError

    with pytest.raises(TokenizerError, match="merge 1 "):
        Tokenizer([(300, 97)])


def test_word_counts_take_ascii_digits_only() -> None:
    for bad in ("hug ²", "hug ١٢"):
        with pytest.raises(CorpusError, match="line 1"):
            train_word_counts(bad, 300)
