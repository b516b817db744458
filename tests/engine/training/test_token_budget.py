"""Training is bounded by what it builds: it stops at the token-bytes budget (issue 35 §1).

The quadratic text, X + newline + X with X random letters, makes each merge a token one
byte longer than the last once its common pairs are gone: trained to 50,000 it built
~970 MB of tokens. Now it stops at MAX_VOCAB_BYTES with a sentence, and what it kept is
a valid run that every export writes and this program reads back.
"""

from __future__ import annotations

import random
import string
from functools import cache

import pytest

from explorer import train
from explorer.base.vocab_budget import MAX_VOCAB_BYTES
from explorer.encoding.pretokenize import resolve_pattern
from explorer.encoding.tokenizer import Tokenizer
from explorer.files.errors import FormatError
from explorer.files.exports import encoder_json, tiktoken_text, tokenizer_json, vocab_bpe
from explorer.files.formats import merges_json, model_text, parse_merges_json, parse_model
from explorer.files.history_file import history_json, parse_history_for
from explorer.files.imports import parse_gpt2, parse_tiktoken
from explorer.files.imports_hf import parse_tokenizer_json
from explorer.files.limits import vocab_bytes
from explorer.training.corpus import count_chunks
from explorer.training.history import MergeHistory, StopReason
from explorer.training.learner import learn_merges


def quadratic_text(letters: int, seed: int = 35) -> str:
    """X + "\\n" + X, X `letters` random lowercase letters (the issue's text at 60,000)."""
    rng = random.Random(seed)
    x = "".join(rng.choice(string.ascii_lowercase) for _ in range(letters))
    return f"{x}\n{x}"


@cache
def budget_run() -> tuple[Tokenizer, MergeHistory]:
    """The 40 KB quadratic text trained with gpt4 to vocab 50,000, at the real budget."""
    result = train(quadratic_text(20_000), 50_000, pattern="gpt4")
    return result.tokenizer, result.history


def test_the_quadratic_text_stops_at_the_budget_with_the_sentence() -> None:
    tokenizer, history = budget_run()
    assert history.stop_reason is StopReason.TOKEN_BYTES_REACHED
    merges = len(history.steps)
    assert 256 < merges < 50_000 - 256
    total = vocab_bytes(tokenizer.merges)
    assert MAX_VOCAB_BYTES - 20_000 < total <= MAX_VOCAB_BYTES  # one more merge would pass it
    sentence = history.stop_sentence()
    assert sentence.startswith(f"Training stopped at merge {merges:,}: the vocabulary's tokens")
    assert "32 MiB" in sentence and "repeats long stretches" in sentence


def test_the_run_kept_is_the_unbounded_runs_first_merges() -> None:
    counts = count_chunks([quadratic_text(3_000)], "gpt4")
    whole = learn_merges(counts, 5_000, max_token_bytes=10**12)
    cut = learn_merges(counts, 5_000, max_token_bytes=200_000)
    assert cut.stop_reason is StopReason.TOKEN_BYTES_REACHED
    assert cut.steps == whole.steps[: len(cut.steps)]
    kept = [(s.left, s.right) for s in cut.steps]
    following = whole.steps[len(cut.steps)]
    assert vocab_bytes(kept) <= 200_000 < vocab_bytes(kept) + len(following.token)


def test_the_budget_counts_the_bytes_too() -> None:
    learned = learn_merges({b"abcd": 1}, 3, max_token_bytes=256)  # the bytes fill it
    assert (learned.steps, learned.stop_reason) == ((), StopReason.TOKEN_BYTES_REACHED)


def test_the_kept_run_reads_back_from_every_file_that_holds_it() -> None:
    tokenizer, history = budget_run()
    again = parse_model(model_text(tokenizer), source="q.model")
    assert again.merges == tokenizer.merges
    assert parse_merges_json(merges_json(tokenizer)).merges == tokenizer.merges
    text = history_json(history)
    assert parse_history_for(again, text, model_name="q.model", history_name="q.json") == history


def test_files_that_could_not_be_read_back_are_refused_before_they_are_built() -> None:
    tokenizer, _ = budget_run()
    with pytest.raises(FormatError, match=r"tokenizer\.json of this tokenizer would take at least"):
        tokenizer_json(tokenizer)
    with pytest.raises(FormatError, match=r"\.tiktoken of this tokenizer: its .* tokens hold"):
        tiktoken_text(tokenizer)
    for write in (encoder_json, vocab_bpe):
        with pytest.raises(FormatError, match=r"at most 64 MiB, so it would not read back"):
            write(tokenizer)


def test_a_smaller_budget_run_round_trips_through_every_export() -> None:
    counts = count_chunks([quadratic_text(2_000)], "gpt4")
    learned = learn_merges(counts, 3_000, max_token_bytes=150_000)
    assert learned.stop_reason is StopReason.TOKEN_BYTES_REACHED
    merges = [(s.left, s.right) for s in learned.steps]
    pattern = resolve_pattern("gpt4")
    tokenizer = Tokenizer(merges, pattern=pattern, trained=True)
    hf = parse_tokenizer_json(tokenizer_json(tokenizer))
    ranks = parse_tiktoken(tiktoken_text(tokenizer), pattern=pattern)
    gpt2 = parse_gpt2(encoder_json(tokenizer), vocab_bpe(tokenizer), pattern=pattern)
    model = parse_model(model_text(tokenizer))
    text = quadratic_text(2_000)[:500]
    for read in (hf, ranks, gpt2, model):
        assert read.merges == merges
        assert read.encode(text) == tokenizer.encode(text)


def test_writers_refuse_what_the_readers_refuse() -> None:
    long = Tokenizer([(97, 97)] + [(256 + k, 97) for k in range(8_200)])  # a, aa, ..., 8,202 a
    for write in (model_text, merges_json):
        with pytest.raises(FormatError, match=r"merges make tokens of 33,640,758 bytes"):
            write(long)
