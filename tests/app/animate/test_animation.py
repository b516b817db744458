"""The Animate page's pure helpers: frames, narration, playback and chart data."""

from __future__ import annotations

import doctest
import html

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import MergeHistory, MergeStep, StopReason, Tokenizer, train
from explorer.html.render import token_color
from explorer.html.scheme import declare
from explorer.html.token_html import tokens_to_html
from ui.animate import animation as anim
from ui.animate import charts as anim_charts
from ui.animate import playback
from ui.session import state as keys
from ui.views.formatting import excerpt
from ui.views.token_text import paragraph_html

CLASSIC = "aaabdaaabac"
PROSE = "the cat sat on the mat; then the three thin cats ate the rest. " * 8


@pytest.fixture(scope="module")
def classic():
    return train(CLASSIC, 259, pattern="none")


@pytest.fixture(scope="module")
def prose():
    return train(PROSE, 300, pattern="gpt4")


def frame_at(tokenizer: Tokenizer, step: int, passage: str) -> anim.Frame:
    before = tokenizer.at_vocab_size(255 + step)
    after = tokenizer.at_vocab_size(256 + step)
    return anim.passage_frame(before, after, passage, 255 + step)


# --- the passage at a step ---------------------------------------------------------


def test_default_passage_ends_at_a_word_boundary() -> None:
    text = "word " * 200
    passage = excerpt(text, anim.PASSAGE_CHARS)
    assert len(passage) <= anim.PASSAGE_CHARS
    assert passage.endswith("word")
    assert excerpt("short", anim.PASSAGE_CHARS) == "short"
    assert excerpt("x" * 1000, 10) == "x" * 10  # no space: a hard cut


def test_the_classic_frames(classic) -> None:
    frame = frame_at(classic.tokenizer, 1, CLASSIC)
    assert frame.before.ids == list(CLASSIC.encode())
    assert frame.after.ids == [256, 97, 98, 100, 256, 97, 98, 97, 99]
    assert frame.pair_positions == (0, 1, 5, 6)  # 'aa' of each 'aaa', leftmost first
    assert frame.fused_positions == (0, 4)
    last = frame_at(classic.tokenizer, 3, CLASSIC)
    assert last.after.ids == [258, 100, 258, 97, 99]
    assert anim.passage_caption(last) == (
        "The pair fuses 2 times in this passage (outlined): 7 → 5 tokens."
    )


def test_a_pair_absent_from_the_passage_is_said_so(classic) -> None:
    frame = frame_at(classic.tokenizer, 3, "xyz")
    assert frame.occurrences == 0 and frame.pair_positions == ()
    assert "does not fuse anywhere in this passage" in anim.passage_caption(frame)


@settings(max_examples=60, deadline=None)
@given(passage=st.text(alphabet="the cats; ", max_size=80), step=st.integers(1, 44))
def test_a_frame_is_one_merge_applied_to_the_step_before(prose, passage: str, step: int) -> None:
    """After = before with the pair replaced at the outlined places, and nowhere else."""
    step = min(step, len(prose.history.steps))
    merge = prose.history.steps[step - 1]
    frame = frame_at(prose.tokenizer, step, passage)
    before, after = frame.before.ids, frame.after.ids
    assert len(before) - len(after) == frame.occurrences
    lefts = frame.pair_positions[0::2]
    assert all(before[i] == merge.left and before[i + 1] == merge.right for i in lefts)
    assert [after[i] for i in frame.fused_positions] == [merge.new_id] * frame.occurrences
    rebuilt = list(before)
    for i in reversed(lefts):
        rebuilt[i : i + 2] = [merge.new_id]
    assert rebuilt == after


# --- the narration -----------------------------------------------------------------


def test_narration_of_the_classic_example(classic) -> None:
    history, tokenizer = classic.history, classic.tokenizer
    start = anim.narration(history, 0, tokenizer)
    assert start.startswith("Step 0: the starting point.")
    assert "11 bytes is 11 tokens" in start
    first = anim.narration(history, 1, tokenizer)
    assert first.startswith(
        "Step 1: ('a', 'a') was the most frequent pair (4 times), so it becomes token 256 "
        "'aa'; the corpus shrinks from 11 to 9 tokens."
    )
    assert "Only 2 of the 4 could be merged" in first
    second = anim.narration(history, 2, tokenizer)
    assert "decided by a tie: ('a', 'b') was also seen 2 times" in second
    assert "first occurrence comes earliest in the corpus wins" in second
    third = anim.narration(history, 3, tokenizer)
    assert "tie" not in third
    assert third.endswith(
        "This is the last merge: training stopped because the target vocab size was reached."
    )


def synthetic_history(ties: tuple[tuple[int, int], ...] = ()) -> MergeHistory:
    """One merge of ' ' + 't' seen 1,234 times in a corpus of 98,765 bytes."""
    step = MergeStep(
        rank=0, left=32, right=116, new_id=256, token=b" t", count=1234, merged=1234,
        length_after=97531, ties=ties,
    )  # fmt: skip
    return MergeHistory((step,), StopReason.NO_PAIRS_LEFT, initial_length=98765)


def test_narration_formats_numbers_and_shows_whitespace() -> None:
    told = anim.narration(synthetic_history(), 1, Tokenizer([(32, 116)]))
    assert "('·', 't') was the most frequent pair (1,234 times)" in told
    assert "becomes token 256 '·t'" in told
    assert "shrinks from 98,765 to 97,531 tokens" in told
    assert "no pair of adjacent tokens was left to merge" in told
    assert "Only" not in told


def test_narration_names_every_tied_pair() -> None:
    tokenizer = Tokenizer([(32, 116)])
    two = anim.narration(synthetic_history(((104, 101), (97, 98))), 1, tokenizer)
    assert "('h', 'e') and ('a', 'b') were also seen 1,234 times" in two
    five = tuple((97, 98 + i) for i in range(5))
    many = anim.narration(synthetic_history(five), 1, tokenizer)
    assert "at least 5 other pairs were also seen 1,234 times, among them ('a', 'b')," in many
    assert "('a', 'e') and ('a', 'f'). The rule" in many and "perhaps" not in many


def test_html_pieces_escape_token_text() -> None:
    tokenizer = train("<b><b><b>", 257, pattern="none").tokenizer
    left, right = tokenizer.merges[0]
    merge = MergeStep(0, left, right, 256, tokenizer.vocab[256], 3, 3, 6)
    card = anim.merge_card_html(tokenizer, merge)
    made = tokenizer.vocab[256].decode()
    assert "<" in made or ">" in made
    assert f">{html.escape(made)}</span>" in card
    assert f">{made}</span>" not in card
    assert "<script>" not in paragraph_html("<script>x</script>")


def test_merge_chips_take_their_tokens_colours_in_the_passage() -> None:
    tokenizer = train("the the then", 260, pattern="none").tokenizer
    left, right = tokenizer.merges[3]
    merge = MergeStep(3, left, right, 259, tokenizer.vocab[259], 2, 2, 6)
    card = anim.merge_card_html(tokenizer, merge)
    passage = tokens_to_html(tokenizer, [left, right, 259])
    for token in (left, right, 259):
        color = token_color(tokenizer, token)
        both = declare("background", color)  # the light colour, then light-dark()
        assert f'style="{both}"' in card
        assert f".c-{color[1:].lower()}{{{both}}}" in passage


# --- playback ----------------------------------------------------------------------


def test_timer_keeps_ticks_at_most_five_a_second() -> None:
    for speed in playback.SPEEDS:
        interval, stride = playback.timer(speed)
        assert interval >= 1 / playback.MAX_TICKS_PER_SECOND - 1e-9
        assert stride / interval == pytest.approx(speed)


def playing_at(position: int, speed: float = 1) -> dict:
    """Session state in the middle of playback, the slider left at step 0."""
    return {
        keys.ANIMATE_STEP: 0,
        keys.ANIMATE_POSITION: position,
        keys.ANIMATE_PLAYING: True,
        keys.ANIMATE_SPEED: speed,
    }


def test_tick_advances_the_position_and_stops_at_the_last_step() -> None:
    state = playing_at(0)
    playback.tick(state, last=2)
    assert state[keys.ANIMATE_POSITION] == 1 and state[keys.ANIMATE_PLAYING] is True
    assert state[keys.ANIMATE_STEP] == 0  # the slider's key is left alone while playing
    assert playback.shown_step(state, last=2) == 1
    assert playback.wanted_timer(state) == 1.0
    playback.tick(state, last=2)
    assert (
        state[keys.ANIMATE_PLAYING] is False and state[keys.ANIMATE_STEP] == 2
    )  # the slider's turn
    assert playback.wanted_timer(state) is None
    playback.tick(state, last=2)  # paused: nothing moves
    assert playback.shown_step(state, last=2) == 2


def test_fast_ticks_take_several_steps_but_never_pass_the_end() -> None:
    state = playing_at(5, speed=100)
    playback.tick(state, last=100)
    assert state[keys.ANIMATE_POSITION] == 25
    assert playback.wanted_timer(state) == 1 / playback.MAX_TICKS_PER_SECOND
    state[keys.ANIMATE_POSITION] = 95
    playback.tick(state, last=100)
    assert state[keys.ANIMATE_STEP] == 100 and not state[keys.ANIMATE_PLAYING]


def test_play_pause_and_stepping() -> None:
    state: dict = {keys.ANIMATE_STEP: 3}
    playback.toggle_play(state, last=3)  # from the end, play starts again at 0
    assert state[keys.ANIMATE_PLAYING] is True and playback.shown_step(state, last=3) == 0
    state[keys.ANIMATE_POSITION] = 2
    playback.toggle_play(state, last=3)  # pause: the slider takes the step on screen
    assert state[keys.ANIMATE_PLAYING] is False and state[keys.ANIMATE_STEP] == 2
    playback.toggle_play(state, last=3)
    assert state[keys.ANIMATE_POSITION] == 2  # play goes on from the slider
    playback.step_by(state, -1, last=3)
    assert state[keys.ANIMATE_PLAYING] is False and state[keys.ANIMATE_STEP] == 1
    playback.step_by(state, 5, last=3)
    assert state[keys.ANIMATE_STEP] == 3
    playback.step_by(state, -9, last=3)
    assert state[keys.ANIMATE_STEP] == 0


def test_clamp_step_keeps_a_remembered_step_in_range() -> None:
    state = {keys.ANIMATE_STEP: 1744}
    playback.clamp_step(state, last=3)
    assert state[keys.ANIMATE_STEP] == 3
    empty: dict = {}
    playback.clamp_step(empty, last=3)
    assert empty == {}  # a step from the URL is left to the slider


# --- charts ------------------------------------------------------------------------


@given(last=st.integers(0, 50_000), points=st.integers(2, 700))
def test_sample_steps_are_few_sorted_and_keep_both_ends(last: int, points: int) -> None:
    steps = anim_charts.sample_steps(last, points)
    assert len(steps) <= points
    assert steps[0] == 0 and steps[-1] == last
    assert steps == sorted(set(steps))


def long_history(merges: int) -> tuple[MergeHistory, Tokenizer]:
    """A long run of made-up merges (each new token + 'a'), cheap to build."""
    pairs = [(97, 97)] + [(255 + k, 97) for k in range(1, merges)]
    tokenizer = Tokenizer(pairs)
    steps = tuple(
        MergeStep(k, *pair, 256 + k, tokenizer.vocab[256 + k], 50_000 - k, 1, 100_000 - k)
        for k, pair in enumerate(pairs)
    )
    return MergeHistory(steps, StopReason.VOCAB_SIZE_REACHED, 100_000), tokenizer


def test_long_histories_are_thinned_but_the_marker_is_exact() -> None:
    history, tokenizer = long_history(20_000)
    rows = anim_charts.step_rows(history, tokenizer)
    assert len(rows) <= anim_charts.MAX_CHART_POINTS
    assert rows[-1]["step"] == 20_000
    row = anim_charts.step_row(history, 12_345, tokenizer)
    assert row["step"] == 12_345 and row["count"] == 50_000 - 12_344
    assert row["tokens"] == 100_000 - 12_344


def test_charts_have_titles_axes_tooltips_and_a_marker(classic) -> None:
    specs = anim_charts.run_charts(classic.history, classic.tokenizer)
    for spec, field in zip(specs, ["count", "tokens"], strict=True):
        line = spec["layer"][0]
        assert line["title"]
        assert line["encoding"]["x"]["title"] == "Step (merges so far)"
        assert line["encoding"]["y"]["title"]
        assert line["encoding"]["tooltip"]
        assert spec["layer"][1]["data"] == {"name": anim_charts.MARKER_DATA}
        row = anim_charts.step_row(classic.history, 2, classic.tokenizer)
        shown = anim_charts.marked(spec, row, field)
        assert marker_rows(shown) == [row]
        assert anim_charts.MARKER_DATA not in spec["datasets"]  # the cached spec is left alone
        assert row["merge"] == "('aa', 'a') → 'aaa'"


def marker_rows(spec: dict) -> list[dict]:
    """The marked step's rows, as the chart reads them from its Arrow dataset."""
    data = spec["datasets"][anim_charts.MARKER_DATA]
    return pa.ipc.open_stream(data).read_all().to_pylist()


def test_step_zero_has_no_count_to_mark(classic) -> None:
    row = anim_charts.step_row(classic.history, 0, classic.tokenizer)
    assert row["count"] is None and row["tokens"] == 11
    assert marker_rows(anim_charts.marked({"datasets": {}}, row, "count")) == []
    assert marker_rows(anim_charts.marked({"datasets": {}}, row, "tokens")) == [row]


def test_the_lines_are_sent_as_arrow_once_converted(classic) -> None:
    counts, lengths = anim_charts.run_charts(classic.history, classic.tokenizer)
    (line,) = lengths["datasets"].values()
    assert isinstance(line, bytes)  # Streamlit sends bytes as they are, unconverted
    assert [row["tokens"] for row in pa.ipc.open_stream(line).read_all().to_pylist()] == [
        11, 9, 7, 5,
    ]  # fmt: skip
    (line,) = counts["datasets"].values()  # step 0 has no pair count
    assert [row["count"] for row in pa.ipc.open_stream(line).read_all().to_pylist()] == [4, 2, 2]


def test_every_run_fills_the_same_specs_without_changing_them(classic) -> None:
    other = train("hello hello hello", 260, pattern="none")
    first = anim_charts.run_charts(classic.history, classic.tokenizer)
    second = anim_charts.run_charts(other.history, other.tokenizer)
    assert without_domains(first[0]) == without_domains(second[0])  # only data and extents
    assert first[0]["datasets"] != second[0]["datasets"]
    assert first[0]["layer"][0] != second[0]["layer"][0]
    shared = anim_charts._chart_specs()
    assert not shared[0]["datasets"]  # no run's data left behind
    assert without_domains(shared[0]) == {"layer": shared[0]["layer"]}  # nor its extents


def without_domains(spec: dict) -> dict:
    """The spec's layers with no scale domain (each run sets its own)."""

    def bare(encoding: dict) -> dict:
        return {
            channel: {**value, "scale": {k: v for k, v in value["scale"].items() if k != "domain"}}
            if "scale" in value else value
            for channel, value in encoding.items()
        }  # fmt: skip

    return {"layer": [{**layer, "encoding": bare(layer["encoding"])} for layer in spec["layer"]]}


def test_every_step_is_inside_the_charts_fixed_scales(classic) -> None:
    counts, lengths = anim_charts.run_charts(classic.history, classic.tokenizer)
    steps = range(len(classic.history.steps) + 1)
    rows = [anim_charts.step_row(classic.history, step, classic.tokenizer) for step in steps]
    for spec, field in [(counts, "count"), (lengths, "tokens")]:
        x, y = (spec["layer"][0]["encoding"][axis]["scale"] for axis in "xy")
        assert x["domain"] == [0, len(classic.history.steps)] and x["nice"] and y["nice"]
        values = [row[field] for row in rows if row[field] is not None]
        assert y["domain"] == [min(values), max(values)]  # every marker on the chart


def test_narration_text_survives_html_escaping(classic) -> None:
    told = anim.narration(classic.history, 2, classic.tokenizer)
    body = paragraph_html(told)
    assert html.unescape(body.split(">", 1)[1].rsplit("<", 1)[0]) == told


def test_the_module_examples_hold() -> None:
    """ui/ is outside pytest's doctest paths, so its worked examples are run here."""
    result = doctest.testmod(anim, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 10 and result.failed == 0
