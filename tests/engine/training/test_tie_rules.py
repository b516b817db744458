"""Tie rules: both rules against the naive reference, the textbook example, and the rule
kept through the history file, the .model beside it and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer import TrainingError, train, train_files, train_word_counts
from explorer.encoding.pretokenize import PRESETS
from explorer.files.formats import model_text
from explorer.files.history_file import history_json, load_history, parse_history_json, save_history
from explorer.files.loading import load_uploads, parse_model_with_history
from explorer.training.history import MergeHistory, StopReason
from explorer.training.learner import _Corpus, learn_merges
from explorer.training.pair_queue import MAX_TIES_RECORDED, PAIR_BASE, queue_for
from explorer.training.tie_rules import TieRule, TieRuleError, tie_rule_argument
from tests.naive import fast_steps, get_stats, naive_train, split_text

ROOT = Path(__file__).resolve().parents[3]
RULES = [rule.value for rule in TieRule]
TEXTBOOK = "aaabdaaabac"
# Few letters, so pairs repeat and tie; runs ("aaaa") overlap with themselves.
small_texts = st.text(alphabet="aaab bc\n", max_size=60)
runs = st.lists(st.sampled_from(["a", "aa", "aaaa", "ab", "ba", " ", "b"]), max_size=20).map(
    "".join
)
THRESHOLDS = st.sampled_from([0, 1, 16, 1 << 40])


# --- the names ---------------------------------------------------------------------------


def test_names_and_descriptions() -> None:
    assert [rule.value for rule in TieRule] == ["first-occurrence", "lowest-ids"]
    assert TieRule("lowest-ids") is TieRule.LOWEST_IDS
    for rule in TieRule:
        sentence = rule.describe()
        assert sentence.endswith(".") and sentence.count(". ") == 0
    assert "first" in TieRule.FIRST_OCCURRENCE.describe()
    assert "lowest ids" in TieRule.LOWEST_IDS.describe()


def test_an_unknown_rule_lists_the_choices() -> None:
    with pytest.raises(TieRuleError, match="first-occurrence, lowest-ids"):
        tie_rule_argument("alphabetical")
    with pytest.raises(TypeError, match="tie_rule must be a TieRule"):
        tie_rule_argument(1)
    for trainer in (
        lambda: train("abc", 260, tie_rule="lowest"),
        lambda: train_word_counts({"ab": 2}, 260, tie_rule="LOWEST-IDS"),
    ):
        with pytest.raises(TrainingError, match="one of first-occurrence, lowest-ids"):
            trainer()


# --- the textbook example (Wikipedia: aa -> Z, ab -> Y, ZY -> X) --------------------------


def test_textbook_example_under_each_rule() -> None:
    textbook = train(TEXTBOOK, 259, pattern="none", tie_rule=TieRule.LOWEST_IDS).history
    assert [s.token for s in textbook.steps] == [b"aa", b"ab", b"aaab"]
    assert [s.pair for s in textbook.steps] == [(97, 97), (97, 98), (256, 257)]
    assert textbook.steps[1].ties == ((256, 97),)  # "Za" tied at 2 and lost: 256 > 97
    assert textbook.tie_rule is TieRule.LOWEST_IDS
    minbpe = train(TEXTBOOK, 259, pattern="none").history
    assert [s.token for s in minbpe.steps] == [b"aa", b"aaa", b"aaab"]
    assert minbpe.steps[1].ties == ((97, 98),)
    assert minbpe.tie_rule is TieRule.FIRST_OCCURRENCE
    again = train(TEXTBOOK, 259, pattern="none", tie_rule="first-occurrence").history
    assert again.steps == minbpe.steps


# --- both rules against the naive reference -------------------------------------------------


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("text", ["aaaa", "aaaaa aaa", "abab", "abba abab baba", "zzzzzzz"])
def test_runs_match_the_naive_trainer(rule: str, text: str) -> None:
    for pattern in ("none", "words"):
        result = train(text, 256 + 12, pattern=pattern, tie_rule=rule)
        chunks = split_text(text, PRESETS[pattern])
        assert fast_steps(result.history) == naive_train(chunks, 12, tie_rule=rule)


@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    texts=st.lists(st.one_of(small_texts, runs), min_size=1, max_size=3),
    pattern=st.sampled_from(["none", "words", "gpt4"]),
    merges=st.integers(0, 40),
)
def test_random_texts_match_the_naive_trainer(
    rule: str, texts: list[str], pattern: str, merges: int
) -> None:
    result = train(texts, 256 + merges, pattern=pattern, tie_rule=rule)
    chunks = [chunk for text in texts for chunk in split_text(text, PRESETS[pattern])]
    assert fast_steps(result.history) == naive_train(chunks, merges, tie_rule=rule)


@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=60, deadline=None)
@given(
    counts=st.dictionaries(st.text("abc", min_size=1, max_size=8), st.integers(1, 40), max_size=8),
    min_count=st.integers(1, 4),
)
def test_word_counts_match_the_naive_trainer(
    rule: str, counts: dict[str, int], min_count: int
) -> None:
    result = train_word_counts(counts, 256 + 30, min_count=min_count, tie_rule=rule)
    expanded = [word for word, n in counts.items() for _ in range(n)]
    assert fast_steps(result.history) == naive_train(expanded, 30, min_count, tie_rule=rule)


@settings(max_examples=150, deadline=None)
@given(
    chunk_counts=st.dictionaries(
        st.text("abc", min_size=1, max_size=12), st.integers(1, 40), max_size=8
    ),
    cold_below=THRESHOLDS,
)
def test_lowest_ids_queue_pops_by_count_then_ids(
    chunk_counts: dict[str, int], cold_below: int
) -> None:
    """Every pair once, highest count first and then lowest ids, with its ties, at
    every cold threshold (the queue's waiting rooms must not change the order)."""
    counts: dict[tuple[int, int], int] = {}
    for chunk, weight in chunk_counts.items():
        stats: dict[tuple[int, int], int] = {}
        get_stats(list(chunk.encode()), stats)
        for pair, n in stats.items():
            counts[pair] = counts.get(pair, 0) + n * weight
    expected = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    corpus = _Corpus({chunk.encode(): n for chunk, n in chunk_counts.items()})
    queue = queue_for(TieRule.LOWEST_IDS, corpus, cold_below)
    popped = []
    while (best := queue.pop_best()) is not None:
        key, count, _ = best
        popped.append((divmod(key, PAIR_BASE), count))
        ties = [divmod(other, PAIR_BASE) for other in queue.peek_ties(key, count)]
        later = expected[len(popped) :]
        assert ties == [pair for pair, n in later if n == count][:MAX_TIES_RECORDED]
    assert popped == expected


@settings(max_examples=100, deadline=None)
@given(
    chunk_counts=st.dictionaries(
        st.text("abc", min_size=1, max_size=12), st.integers(1, 40), max_size=8
    ),
    cold_below=THRESHOLDS,
    merges=st.integers(0, 30),
)
def test_lowest_ids_merges_at_every_threshold(
    chunk_counts: dict[str, int], cold_below: int, merges: int
) -> None:
    learned = learn_merges(
        {chunk.encode(): n for chunk, n in chunk_counts.items()},
        merges,
        cold_below=cold_below,
        tie_rule=TieRule.LOWEST_IDS,
    )
    expanded = [chunk for chunk, n in chunk_counts.items() for _ in range(n)]
    assert fast_steps(learned) == naive_train(expanded, merges, tie_rule="lowest-ids")


def test_files_train_with_the_rule(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text(TEXTBOOK + "\n" + TEXTBOOK, "utf-8")
    from_file = train_files([path], 262, pattern="gpt4", tie_rule="lowest-ids").history
    from_text = train(TEXTBOOK + "\n" + TEXTBOOK, 262, tie_rule="lowest-ids").history
    assert from_file.merges == from_text.merges and from_file.tie_rule is TieRule.LOWEST_IDS


# --- kept in files -----------------------------------------------------------------------


def _lowest_ids_run() -> tuple[str, str]:
    result = train(TEXTBOOK * 3 + " abc", 270, pattern="none", tie_rule="lowest-ids")
    return model_text(result.tokenizer), history_json(result.history)


@pytest.mark.parametrize("rule", RULES)
def test_history_file_round_trip(rule: str, tmp_path: Path) -> None:
    history = train(TEXTBOOK, 259, pattern="none", tie_rule=rule).history
    path = save_history(history, tmp_path / "t.history.json")
    assert json.loads(path.read_text("utf-8"))["tie_rule"] == rule
    assert load_history(path) == history
    assert load_history(path).tie_rule is TieRule(rule)


def test_old_history_without_a_rule_reads_as_the_default() -> None:
    data = json.loads(history_json(train(TEXTBOOK, 259, pattern="none").history))
    del data["tie_rule"]
    assert parse_history_json(json.dumps(data)).tie_rule is TieRule.FIRST_OCCURRENCE
    empty = MergeHistory((), StopReason.NO_PAIRS_LEFT, 0)
    assert empty.tie_rule is TieRule.FIRST_OCCURRENCE


def test_an_unknown_rule_in_a_history_names_the_key() -> None:
    data = json.loads(history_json(train(TEXTBOOK, 259, pattern="none").history))
    data["tie_rule"] = "alphabetical"
    with pytest.raises(ValueError, match="tie_rule: expected one of first-occurrence, lowest-ids"):
        parse_history_json(json.dumps(data))


def test_truncated_history_keeps_the_rule() -> None:
    history = train(TEXTBOOK, 259, pattern="none", tie_rule="lowest-ids").history
    assert history.truncated(257).tie_rule is TieRule.LOWEST_IDS


def minbpe_load(text: str) -> tuple[str, dict[str, int], dict[tuple[int, int], int]]:
    """minbpe's Tokenizer.load (karpathy/minbpe base.py), line for line, on text."""
    lines = iter(text.splitlines(keepends=True))
    version = next(lines).strip()
    assert version == "minbpe v1"
    pattern = next(lines).strip()
    num_special = int(next(lines).strip())
    special_tokens = {}
    for _ in range(num_special):
        special, special_idx = next(lines).strip().split()
        special_tokens[special] = int(special_idx)
    merges, idx = {}, 256
    for line in lines:
        idx1, idx2 = map(int, line.split())
        merges[(idx1, idx2)] = idx
        idx += 1
    return pattern, special_tokens, merges


def test_model_stays_minbpes_and_the_rule_comes_back_with_its_history() -> None:
    """minbpe's reader would choke on any extra line, so the .model is unchanged and the
    rule travels in the history written beside it, which our loader pairs with it."""
    model, history = _lowest_ids_run()
    _, _, merges = minbpe_load(model)
    assert list(merges)[:3] == [(97, 97), (97, 98), (256, 257)]
    tokenizer, read = parse_model_with_history(model, history)
    assert read.tie_rule is TieRule.LOWEST_IDS and tokenizer.merges == list(merges)
    [loaded] = load_uploads([("t.model", model.encode()), ("t.history.json", history.encode())])
    assert loaded.history is not None and loaded.history.tie_rule is TieRule.LOWEST_IDS


# --- the command line ----------------------------------------------------------------------


def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "explorer", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_trains_with_the_tie_rule_and_info_reads_it_back(tmp_path: Path) -> None:
    corpus = tmp_path / "textbook.txt"
    corpus.write_text(TEXTBOOK, "utf-8")
    prefix = tmp_path / "tb"
    done = run_cli(
        "train", corpus, "--vocab-size", "259", "--pattern", "none",
        "--tie-rule", "lowest-ids", "--output", prefix,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "ties went to the pair with the lowest ids (lowest-ids)" in done.stderr
    model = Path(f"{prefix}.model").read_text("utf-8")
    assert model == "minbpe v1\n\n0\n97 97\n97 98\n256 257\n"
    assert load_history(f"{prefix}.history.json").tie_rule is TieRule.LOWEST_IDS
    info = run_cli("info", f"{prefix}.model")
    assert "tie rule: lowest-ids (from tb.history.json)" in info.stdout.splitlines()


def test_cli_default_and_a_wrong_rule(tmp_path: Path) -> None:
    corpus = tmp_path / "textbook.txt"
    corpus.write_text(TEXTBOOK, "utf-8")
    prefix = tmp_path / "tb"
    done = run_cli("train", corpus, "--vocab-size", "259", "--pattern", "none", "--output", prefix)
    assert done.returncode == 0 and "ties went" not in done.stderr
    assert Path(f"{prefix}.model").read_text("utf-8").endswith("97 97\n256 97\n257 98\n")
    assert load_history(f"{prefix}.history.json").tie_rule is TieRule.FIRST_OCCURRENCE
    wrong = run_cli(
        "train", corpus, "--vocab-size", "259", "--tie-rule", "lowest", "--output", prefix
    )
    assert wrong.returncode == 2
    assert "invalid choice: 'lowest' (choose from 'first-occurrence', 'lowest-ids')" in wrong.stderr
    assert "--tie-rule" in run_cli("train", "--help").stdout


def test_tokenizer_json_carries_a_rule_hugging_face_skips() -> None:
    tokenizers = pytest.importorskip("tokenizers")
    from explorer.files.exports import tokenizer_json
    from explorer.files.imports_hf import parse_tokenizer_json

    result = train(TEXTBOOK + " abc abd", 266, tie_rule="lowest-ids")
    text = tokenizer_json(result.tokenizer, tie_rule=result.history.tie_rule)
    assert json.loads(text)["model"]["tie_rule"] == "lowest-ids"
    hf = tokenizers.Tokenizer.from_str(text)
    assert hf.encode(TEXTBOOK).ids == result.tokenizer.encode(TEXTBOOK)
    assert parse_tokenizer_json(text).merges == result.tokenizer.merges
    # the default rule adds nothing: the file is as it always was
    plain = tokenizer_json(result.tokenizer)
    assert tokenizer_json(result.tokenizer, tie_rule="first-occurrence") == plain
    assert "tie_rule" not in json.loads(plain)["model"]
