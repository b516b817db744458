"""The lesson file: what it holds agrees with the Animate page, its text is escaped, and
it stays small; the committed sample is what the builder writes today."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import train
from explorer.analysis.pairs.pair_table import LOWEST_IDS, pair_table, tables_along
from explorer.training.corpus import count_chunks
from scripts.make_lesson import SAMPLE_LESSON, sample_lesson
from ui.animate import animation as anim
from ui.animate.lesson.page import lesson_html
from ui.animate.lesson.steps import (
    MISMATCH_NOTE,
    NO_CORPUS_NOTE,
    LessonError,
    lesson_data,
    lesson_steps,
    replay,
)
from ui.session.samples import sample_text

CLASSIC = "aaabdaaabac"


def embedded_data(page: str) -> dict:
    """The JSON the page's script reads, parsed as the browser parses it."""
    match = re.search(r'<script type="application/json" id="lesson-data">(.*?)</script>', page)
    assert match is not None
    return json.loads(match.group(1))


@pytest.fixture(scope="module")
def shakespeare():
    text = sample_text("shakespeare")
    result = train(text, 400, pattern="gpt4")
    return text, result, count_chunks([text], "gpt4")


def test_narration_is_the_pages_for_every_step(shakespeare) -> None:
    text, result, counts = shakespeare
    data = lesson_data(result.history, result.tokenizer, text[:800], steps=40, chunk_counts=counts)
    assert data["narration"] == [
        anim.narration(result.history, step, result.tokenizer) for step in range(41)
    ]


def test_each_step_replays_to_the_encoders_passage(shakespeare) -> None:
    text, result, _counts = shakespeare
    passage = text[:600] + " <|endoftext|> \n\n  tabs\tand ß漢字 🙂"
    data = lesson_data(result.history, result.tokenizer, passage, steps=60)
    for step in range(61):
        tokenizer = result.tokenizer.at_vocab_size(256 + step)
        expected = tokenizer.encode(passage, allowed_special="all")
        assert replay(data["start"], data["fusions"][:step], 256) == expected
    for step in (1, 7, 60):  # the outlined pairs are the Animate page's
        frame = anim.passage_frame(
            result.tokenizer.at_vocab_size(255 + step),
            result.tokenizer.at_vocab_size(256 + step),
            passage,
            255 + step,
        )
        assert data["fusions"][step - 1] == list(frame.pair_positions[::2])
        assert data["captions"][step] == anim.passage_caption(frame)


def test_pair_tables_are_the_recount_before_each_merge(shakespeare) -> None:
    _text, result, counts = shakespeare
    data = lesson_data(result.history, result.tokenizer, "x", steps=25, chunk_counts=counts)
    merges = result.history.merges
    for step, entry in enumerate(data["tables"]):
        table = pair_table(counts, merges, step)
        assert entry["rows"] == [[r.left, r.right, r.count, r.winner, r.tied] for r in table.rows]
        assert tuple(entry["rows"][0][:2]) == merges[step]


@settings(max_examples=40, deadline=None)
@given(
    text=st.text(alphabet="ab c\né", max_size=60),
    pattern=st.sampled_from(["none", "gpt4"]),
    tie_rule=st.sampled_from(["first-occurrence", LOWEST_IDS]),
)
def test_tables_along_is_a_recount_at_every_step(text: str, pattern: str, tie_rule: str) -> None:
    merges = train(text, 256 + 12, pattern=pattern).history.merges
    counts = count_chunks([text], pattern)
    walked = list(tables_along(counts, merges, top=4, tie_rule=tie_rule))
    assert walked == [
        pair_table(counts, merges, k, top=4, tie_rule=tie_rule) for k in range(len(merges))
    ]


def test_the_classic_example_in_numbers() -> None:
    result = train(CLASSIC, 259, pattern="none")
    counts = count_chunks([CLASSIC], "none")
    data = lesson_data(result.history, result.tokenizer, CLASSIC, chunk_counts=counts)
    assert data["steps"] == 3 and data["merges"] == 3
    assert data["chart"]["count"] == [None, 4, 2, 2]
    assert data["chart"]["tokens"] == [11, 9, 7, 5]
    assert data["chart"]["merge"][1] == "('a', 'a') → 'aa'"
    second = data["tables"][1]  # before merge 2: (aa, a) and (a, b) tie at 2
    assert second["rows"][:2] == [[256, 97, 2, True, True], [97, 98, 2, False, True]]
    assert "first occurrence" in second["tie"]
    assert 'class="am-chip am-new"' in data["cards"][1] and data["cards"][0] == ""


def test_steps_are_capped_by_the_runs_merges() -> None:
    history = train(CLASSIC, 259, pattern="none").history
    assert [lesson_steps(history, n) for n in (1, 2, 3, 30, 10_000)] == [1, 2, 3, 3, 3]
    for bad in (0, -1, 2.0, True):
        with pytest.raises(LessonError, match="whole number of at least 1"):
            lesson_steps(history, bad)
    none = train("abc", 300, pattern=".").history
    with pytest.raises(LessonError, match="This run made no merges"):
        lesson_steps(none, 30)


def test_user_text_cannot_break_out_of_the_page() -> None:
    nasty = "</script><b>&amp; <!-- \u2028 <script>alert(1)</script>"
    result = train([nasty * 3, CLASSIC], 300, pattern="none")
    page = lesson_html(
        result.history,
        result.tokenizer,
        nasty,
        chunk_counts=count_chunks([nasty * 3, CLASSIC], "none"),
        title=f"“{nasty}”",
    )
    assert page.count("</script>") == 2  # the data's and the player's, nothing else
    assert page.count("<script") == 2
    assert "<b>" not in page and "<script>alert" not in page and "<!--" not in page
    assert "&lt;/script&gt;&lt;b&gt;&amp;amp;" in page  # the title, escaped
    data = embedded_data(page)
    assert data["title"] == f"“{nasty}”"  # JSON escapes read back as the text
    at_the_end = result.tokenizer.at_vocab_size(256 + data["steps"])
    assert replay(data["start"], data["fusions"], 256) == at_the_end.encode(nasty)
    json_part = page.split('id="lesson-data">')[1].split("</script>")[0]
    assert not set("<>&") & set(json_part)


def test_a_run_without_its_corpus_has_no_table_and_says_why() -> None:
    result = train(CLASSIC, 259, pattern="none")
    data = lesson_data(result.history, result.tokenizer, CLASSIC)
    assert data["tables"] is None and data["table_note"] == NO_CORPUS_NOTE
    wrong_rule = lesson_data(
        result.history,
        result.tokenizer,
        CLASSIC,
        chunk_counts=count_chunks([CLASSIC], "none"),
        tie_rule=LOWEST_IDS,  # textbook order: not the merges this run made
    )
    assert wrong_rule["tables"] is None and wrong_rule["table_note"] == MISMATCH_NOTE


def test_a_textbook_rule_run_gets_its_tables_by_its_own_rule() -> None:
    result = train(CLASSIC, 259, pattern="none", tie_rule=LOWEST_IDS)
    data = lesson_data(
        result.history, result.tokenizer, CLASSIC, chunk_counts=count_chunks([CLASSIC], "none")
    )
    assert data["tables"] is not None and data["table_note"] == ""
    assert "lowest ids" in data["narration"][2]


def test_a_hundred_steps_on_two_kilobytes_stay_under_two_megabytes(shakespeare) -> None:
    text, _, counts = shakespeare
    result = train(text, 256 + 100, pattern="gpt4")
    passage = text[:2048]
    assert len(passage.encode()) == 2048
    page = lesson_html(result.history, result.tokenizer, passage, steps=100, chunk_counts=counts)
    assert embedded_data(page)["steps"] == 100
    assert len(page.encode("utf-8")) <= 2_000_000


def test_the_committed_sample_is_what_the_builder_writes() -> None:
    assert SAMPLE_LESSON.read_text(encoding="utf-8") == sample_lesson(), (
        "docs/lesson_aaabdaaabac.html is stale: run `python -m scripts.make_lesson`"
    )
