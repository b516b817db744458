"""Animate's pair table: the pairs counted at the step on screen, agreeing with the merge log.

At step k the table is what the seeds' get_stats counts after k merges; its winner is
merge k + 1 of the history (`history.steps[k]`), with the same count.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from explorer import MergeHistory, Tokenizer, train
from explorer.files.formats import model_text
from explorer.files.history_file import history_json
from tests.app_support import open_app, pair_table_lines, pair_tables, texts_of, use_run
from tests.naive import get_stats, merge
from ui.session import state as keys
from ui.session.run_spec import RunSpec, text_key
from ui.session.runs import bundled_spec
from ui.views.token_text import pair_text

CLASSIC = {"sample": "aaabdaaabac", "vocab": "259", "pattern": "none"}


def table(app: AppTest) -> list[dict[str, object]]:
    """The pair table's rows as the page shows them."""
    tables = pair_tables(app)
    assert len(tables) == 1, tables
    return tables[0]


def headings(app: AppTest) -> list[str]:
    return pair_table_lines(app)


def current_run(app: AppTest) -> tuple[Tokenizer, MergeHistory]:
    """The sidebar's run, trained again here from its settings (as the app trained it)."""
    spec = app.session_state[keys.RUNS][app.session_state[keys.SIDEBAR_RUN]]
    texts = app.session_state[keys.TEXTS][spec.text_key]
    result = train(list(texts), spec.vocab_size, pattern=spec.pattern)
    return result.tokenizer, result.history


def naive_stats(text: str, merges: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """get_stats after these merges, as the seeds print it."""
    ids = list(text.encode("utf-8"))
    for rank, pair in enumerate(merges):
        ids = merge(ids, pair, 256 + rank)
    stats: dict[tuple[int, int], int] = {}
    get_stats(ids, stats)
    return stats


def test_the_classic_table_is_get_stats_at_every_step() -> None:
    app = open_app("animate", CLASSIC)
    tokenizer, history = current_run(app)
    for step in range(len(history.steps)):
        if step:
            app.button(key=keys.ANIMATE_NEXT).click().run()
        rows = table(app)
        stats = naive_stats("aaabdaaabac", history.merges[:step])
        shown = {row["Pair"]: row["Count"] for row in rows}
        assert shown == {pair_text(tokenizer, pair): count for pair, count in stats.items()}
        assert [row["Rank"] for row in rows] == list(range(1, len(stats) + 1))
        merge_k = history.steps[step]  # merge step + 1: the one this table decides
        winner = rows[0]
        assert (winner["Pair"], winner["Count"]) == (
            pair_text(tokenizer, merge_k.pair),
            merge_k.count,
        )
        assert winner["Next"] == f"next → id {256 + step}"
        assert f"all {len(stats)} pairs" in " ".join(headings(app))  # a tiny corpus: all of them


def test_a_tie_is_marked_and_explained() -> None:
    app = open_app("animate", {**CLASSIC, "animate_step": "1"})
    rows = table(app)
    assert [(r["Pair"], r["Count"], r["Next"]) for r in rows[:3]] == [
        ("('aa', 'a')", 2, "next → id 257"),
        ("('a', 'b')", 2, "tied"),
        ("('b', 'd')", 1, ""),
    ]
    assert [r["First at token"] for r in rows[:2]] == [1, 2]  # aa a b d aa a b a c
    told = " ".join(pair_table_lines(app))
    assert "The top count, 2, is shared with 1 other pair" in told
    assert "the pair whose first occurrence comes first in the text" in told


def test_after_the_last_merge_the_table_says_training_stopped() -> None:
    app = open_app("animate", {**CLASSIC, "animate_step": "3"})
    assert table(app)[0]["Next"] == "would be next"
    assert "Training stopped here because" in " ".join(pair_table_lines(app))


def test_a_gpt4_run_agrees_with_its_merge_log() -> None:
    app = open_app("animate", {"sample": "shakespeare", "animate_step": "5"})
    tokenizer, history = current_run(app)
    for step in (5, 6, 40, 39, 1000):
        if app.slider(key=keys.ANIMATE_STEP).value != step:
            app.slider(key=keys.ANIMATE_STEP).set_value(step).run()
        rows = table(app)
        merge_k = history.steps[step]
        assert (rows[0]["Pair"], rows[0]["Count"]) == (
            pair_text(tokenizer, merge_k.pair),
            merge_k.count,
        ), step
        assert rows[0]["Next"] == f"next → id {256 + step}"
        assert len(rows) >= 10 and all(r["Count"] <= merge_k.count for r in rows)
        assert not app.warning  # no disagreement with the log


def test_the_number_box_sets_how_many_pairs_are_listed() -> None:
    app = open_app("animate", {"sample": "shakespeare", "animate_step": "5"})
    assert len(table(app)) == 10
    app.number_input(key=keys.ANIMATE_PAIRS_TOP).set_value(3).run()
    assert len(table(app)) == 3
    assert any("the 3 most frequent of" in text for text in headings(app))
    app.button(key=keys.ANIMATE_NEXT).click().run()  # kept from step to step
    assert len(table(app)) == 3


def test_a_history_without_its_corpus_has_a_message_instead_of_a_table() -> None:
    app = open_app("animate", CLASSIC)
    result = train("aaabdaaabac", 259, pattern="none")
    texts = (model_text(result.tokenizer), history_json(result.history))
    spec = RunSpec(
        name="classic.model", source="classic.model", text_key=text_key(texts),
        vocab_size=259, pattern="", kind="model_history",
    )  # fmt: skip
    use_run(app, spec, texts)
    assert not pair_tables(app)
    assert any(text.startswith("No pair table:") for text in texts_of(app.caption))
    assert app.slider(key=keys.ANIMATE_STEP).max == 3  # the steps are still there


def test_a_bundled_vocabulary_says_why_it_has_no_table() -> None:
    app = open_app("animate", CLASSIC)
    spec = bundled_spec("gpt2")
    use_run(app, spec)
    assert not pair_tables(app)
    assert any(text.startswith("No pair table:") for text in texts_of(app.caption))


def test_a_run_with_the_lowest_ids_rule_breaks_its_ties_that_way() -> None:
    app = open_app("animate", {**CLASSIC, "tie_rule": "lowest-ids", "animate_step": "1"})
    rows = table(app)
    assert [(r["Pair"], r["Count"], r["Next"]) for r in rows[:2]] == [
        ("('a', 'b')", 2, "next → id 257"),  # the textbook's second merge
        ("('aa', 'a')", 2, "tied"),
    ]
    assert "the tie goes to the pair with the lowest ids" in " ".join(pair_table_lines(app))
