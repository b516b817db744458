"""Animate's pair tables: counted as the trainer counted, and the same by any path to a step.

The winner of the table at step k must be merge k + 1 of the run's history, with its
count, for every kind of run that has a corpus; and a table reached by stepping forward
from a kept step must be the table computed cold.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from explorer.analysis.pairs.pair_table import sequences_after, table_of
from explorer.training.history import MergeHistory
from explorer.training.pair_queue import MAX_TIES_RECORDED
from ui.animate.pair_table import tables as pair_tables
from ui.session.run_spec import RunKind, RunSpec, text_key
from ui.session.runs import train_spec
from ui.session.samples import sample_text

RUNS = [
    ("the cat<|endoftext|>the hat\r\nthe mat sat",),
    (sample_text("shakespeare")[:3000], "A second document: the end."),
]


def trained(spec: RunSpec, texts: tuple[str, ...]) -> MergeHistory:
    return train_spec(spec, texts).history  # as the app trains a run


def spec_of(
    texts: tuple[str, ...], pattern: str, kind: RunKind, specials=(), tie_rule="first-occurrence"
) -> RunSpec:
    return RunSpec(
        name="t",
        source="test",
        text_key=text_key(texts),
        vocab_size=256 + 40,
        pattern=pattern,
        special_tokens=tuple(specials),
        kind=kind,
        tie_rule=tie_rule,
    )


@pytest.mark.parametrize(
    ("texts", "pattern", "kind", "specials", "rule"),
    [
        (RUNS[0], "gpt4", RunKind.TEXT, ("<|endoftext|>",), "first-occurrence"),
        (RUNS[0], "none", RunKind.TEXT, (), "first-occurrence"),
        (RUNS[1], "gpt2", RunKind.TEXT, (), "first-occurrence"),
        (RUNS[1], "gpt4", RunKind.TEXT, (), "lowest-ids"),
        (("hug 10\npug 5\npun 12\nbun 4\nhugs 5",), "none", RunKind.WORD_COUNTS, (), "lowest-ids"),
    ],
)
def test_each_steps_winner_is_the_next_merge_of_the_history(
    texts: tuple[str, ...], pattern: str, kind: RunKind, specials: tuple[str, ...], rule: str
) -> None:
    spec = spec_of(texts, pattern, kind, specials, rule)
    history = trained(spec, texts)
    corpus = pair_tables.corpus_of(spec, texts, history)
    assert history.steps
    for step, merge in enumerate(history.steps):
        table = pair_tables.table_at(f"test|{spec.settings}", corpus, history, step, 10)
        assert (table.winner.pair, table.winner.count) == (merge.pair, merge.count), step
        recorded = min(table.tied_with, MAX_TIES_RECORDED)  # training notes the first few
        assert len(merge.ties) == recorded, step


def test_stepping_forward_jumping_and_stepping_back_give_the_same_tables() -> None:
    texts = RUNS[1]
    spec = spec_of(texts, "gpt4", RunKind.TEXT)
    history = trained(spec, texts)
    corpus = pair_tables.corpus_of(spec, texts, history)
    key = f"walk|{spec.settings}"
    order = [0, 1, 2, 3, 6, 7, 30, 29, 5, 6, 40]  # forward, a walk of 3, jumps, back, the end
    for step in order:
        expected = table_of(sequences_after(corpus.counts, history.merges[:step]), top=10)
        assert pair_tables.table_at(key, corpus, history, step, 10) == expected
        assert pair_tables.sequences_at(key, corpus, step).step == step


def test_the_tie_rule_comes_from_the_history() -> None:
    texts = ("aaabdaaabac",)
    for rule, second in [("first-occurrence", (256, 97)), ("lowest-ids", (97, 98))]:
        spec = spec_of(texts, "none", RunKind.TEXT, tie_rule=rule)
        history = trained(spec, texts)
        assert pair_tables.tie_rule_of(history) == rule
        table = pair_tables.table_at(
            rule, pair_tables.corpus_of(spec, texts, history), history, 1, 10
        )
        assert table.tie_rule == rule and table.winner.pair == second == history.steps[1].pair


def test_chunk_counts_are_the_trainers() -> None:
    text_spec = RunSpec("t", "t", "k", 300, "gpt4", special_tokens=("<|x|>",))
    assert pair_tables.chunk_counts_of(text_spec, ("a b<|x|>a",)) == {b"a": 2, b" b": 1}
    words = RunSpec("w", "w", "k", 259, "none", kind=RunKind.WORD_COUNTS)
    assert pair_tables.chunk_counts_of(words, ("hug 10\npug 5",)) == {b"hug": 10, b"pug": 5}
    model = RunSpec("m", "m", "k", 259, "none", kind=RunKind.MODEL_HISTORY)
    assert not pair_tables.has_corpus(model)  # the lesson file and Animate say why instead


def test_a_held_out_share_is_not_counted() -> None:
    """The table recounts what training saw: without the held-out paragraphs."""
    texts = (sample_text("shakespeare")[:6000],)
    spec = replace(spec_of(texts, "gpt4", RunKind.TEXT), holdout_percent=20)
    history = trained(spec, texts)
    corpus = pair_tables.corpus_of(spec, texts, history)
    for step in (0, 1, 10, 39):
        table = pair_tables.table_at(spec.text_key + "held", corpus, history, step, 10)
        assert (table.winner.pair, table.winner.count) == (
            history.steps[step].pair,
            history.steps[step].count,
        )
