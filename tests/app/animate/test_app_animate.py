"""The Animate page: step through the merges of a run and read what each step did."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from explorer import train
from explorer.files.formats import model_text
from tests.app_support import (
    labels,
    narration,
    open_app,
    spelled,
    stage_captions,
    texts_of,
    token_views,
)
from ui.session import state as keys
from ui.session.run_spec import RunSpec, text_key
from ui.views.present import presenter_passage

CLASSIC = {"sample": "aaabdaaabac", "vocab": "259", "pattern": "none"}


def test_stepping_forward_narrates_each_merge() -> None:
    app = open_app("animate", CLASSIC)
    assert app.slider(key="animate_step").value == 0
    assert "corpus of 11 bytes is 11 tokens" in narration(app)

    app.button(key="animate_next").click().run()
    assert app.slider(key="animate_step").value == 1
    assert narration(app).startswith(
        "Step 1: ('a', 'a') was the most frequent pair (4 times), so it becomes token 256 "
        "'aa'; the corpus shrinks from 11 to 9 tokens."
    )
    assert "Before step 1 · 11 tokens" in " ".join(labels(app))

    app.button(key="animate_next").click().run()
    told = narration(app)
    assert told.startswith("Step 2: ('aa', 'a')")
    assert "decided by a tie: ('a', 'b') was also seen 2 times" in told
    assert "earliest in the corpus wins" in told
    assert app.query_params["animate_step"] == "2"  # a link to this page opens here

    app.button(key="animate_back").click().run()
    assert narration(app).startswith("Step 1:")


def test_the_last_step_shows_the_final_tokens() -> None:
    app = open_app("animate", CLASSIC)
    app.slider(key="animate_step").set_value(3).run()
    assert "This is the last merge" in narration(app)
    assert "After step 3 · 5 tokens" in " ".join(labels(app))
    after = token_views(app)[1]
    assert after.count(">aaab</span>") == 2  # aaab d aaab a c
    assert app.button(key="animate_next").disabled


def test_the_merged_pair_is_outlined_before_and_fused_after() -> None:
    app = open_app("animate", {**CLASSIC, "animate_step": "1"})
    before, after = token_views(app)
    outlined = r"\.bpe>span:nth-of-type\((\d+)\)"  # a stylesheet beside each passage
    assert re.findall(outlined, before) == ["1", "2", "6", "7"]  # a a, twice: left and right
    assert re.findall(outlined, after) == ["1", "5"]  # aa, twice
    assert "fuses 2 times in this passage" in " ".join(stage_captions(app))


def step_slider_shown(app: AppTest) -> bool:
    return any(slider.key == keys.ANIMATE_STEP for slider in app.slider)


def test_play_sets_the_flag_and_pause_puts_the_slider_back() -> None:
    app = open_app("animate", CLASSIC)
    app.button(key="animate_play").click().run()
    assert app.session_state[keys.ANIMATE_PLAYING] is True
    assert app.button(key="animate_play").label == "Pause"
    assert not step_slider_shown(app)  # put away while playing: the progress bar moves
    assert narration(app).startswith("Step 1:")  # the first tick comes at once
    assert app.get("progress")[0].proto.text == "Playing: step 1 of 3"

    app.button(key="animate_play").click().run()
    assert app.session_state[keys.ANIMATE_PLAYING] is False
    assert app.slider(key="animate_step").value == 1
    assert narration(app).startswith("Step 1:")


def test_playback_stops_at_the_last_step() -> None:
    app = open_app("animate", CLASSIC)
    app.button(key="animate_play").click().run()
    app.run()  # each rerun while playing is one tick, as the timer's are
    assert narration(app).startswith("Step 2:")
    app.run()
    assert app.session_state[keys.ANIMATE_PLAYING] is False
    assert app.slider(key="animate_step").value == 3
    assert app.button(key="animate_play").label == "Play"
    assert app.query_params["animate_step"] == "3"
    assert "This is the last merge" in narration(app)


def test_next_while_playing_pauses_one_step_on() -> None:
    app = open_app("animate", CLASSIC)
    app.button(key="animate_play").click().run()
    app.button(key="animate_next").click().run()
    assert app.session_state[keys.ANIMATE_PLAYING] is False
    assert app.slider(key="animate_step").value == 2


def test_a_typed_passage_is_animated_and_escaped() -> None:
    app = open_app("animate", {**CLASSIC, "animate_step": "1"})
    app.text_area(key="animate_passage").input("<script>alert(1)</script> aaaa").run()
    assert not app.exception
    before, after = token_views(app)
    assert "<script>" not in before + after
    assert spelled(after) == "<script>alert(1)</script>·aaaa"  # shown, never run
    assert "fuses 2 times in this passage" in " ".join(stage_captions(app))  # aaaa

    app.button(key="animate_reset").click().run()
    assert app.text_area(key="animate_passage").value == "aaabdaaabac"


def test_a_loaded_model_has_no_steps_but_shows_the_passage() -> None:
    app = open_app("animate", CLASSIC)
    tokenizer = train("aaabdaaabac", 259, pattern="none").tokenizer
    texts = (model_text(tokenizer),)
    spec = RunSpec(
        name="classic.model", source="classic.model", text_key=text_key(texts),
        vocab_size=259, pattern="", kind="model",
    )  # fmt: skip
    app.session_state["runs"] = {**app.session_state["runs"], spec.name: spec}
    app.session_state["texts"] = {**app.session_state["texts"], spec.text_key: texts}
    app.session_state["pending_run"] = spec.name
    app.run()
    assert not app.exception
    assert any("no steps to animate" in text for text in texts_of(app.info))
    assert any("The passage at vocab size 259" in text for text in labels(app))
    assert len(token_views(app)) == 1
    assert not [s for s in app.slider if s.key == "animate_step"]


def test_a_word_count_table_animates_its_words() -> None:
    app = open_app("animate", {"sample": "hug_pug", "vocab": "259", "pattern": "none"})
    assert app.text_area(key="animate_passage").value == "hug pug pun bun hugs"
    app.button(key="animate_next").click().run()
    assert narration(app).startswith("Step 1: ('u', 'g') was the most frequent pair (20 times)")
    assert "fuses 3 times in this passage" in " ".join(stage_captions(app))


def test_another_run_brings_its_own_passage_and_starts_at_step_0() -> None:
    app = open_app("animate", {"sample": "shakespeare", "animate_step": "40"})
    assert narration(app).startswith("Step 40:")
    texts = ("the cat sat on the mat with the other cat",)
    spec = RunSpec(
        name="cats", source="cats", text_key=text_key(texts), vocab_size=262, pattern="gpt4"
    )
    app.session_state["runs"] = {**app.session_state["runs"], spec.name: spec}
    app.session_state["texts"] = {**app.session_state["texts"], spec.text_key: texts}
    app.session_state["pending_run"] = spec.name
    app.run()
    assert not app.exception
    assert app.text_area(key="animate_passage").value == texts[0]
    assert app.slider(key="animate_step").value == 0  # not step 40, nor its last step
    assert narration(app).startswith("Step 0:")
    app.sidebar.selectbox(key="sidebar_run").set_value(spec.name).run()  # the same run
    app.slider(key="animate_step").set_value(2).run()
    assert narration(app).startswith("Step 2:")


def test_an_empty_passage_says_what_to_do() -> None:
    app = open_app("animate", {**CLASSIC, "animate_step": "1"})
    app.text_area(key="animate_passage").input("").run()
    assert any("The passage is empty" in text for text in texts_of(app.info))
    assert narration(app).startswith("Step 1:")  # the step is still explained


def test_the_sidebar_view_size_bounds_the_steps() -> None:
    app = open_app(page="animate")
    app.sidebar.slider(key="sidebar_view_size").set_value(300).run()
    assert app.slider(key="animate_step").max == 44
    assert any("first 44 of 1,744 merges" in text for text in texts_of(app.caption))


def test_the_presenter_view_puts_the_editor_away_and_shows_a_short_passage() -> None:
    app = open_app("animate", {"present": "1", "animate_step": "2"})
    assert app.toggle(key=keys.SIDEBAR_PRESENT).value  # ?present=1 turned it on
    assert not [area for area in app.text_area if area.key == keys.ANIMATE_PASSAGE]
    _, after = token_views(app)  # before and after, side by side
    passage = str(app.session_state[keys.ANIMATE_PASSAGE])
    assert spelled(after) == presenter_passage(passage).replace(" ", "·").replace("\n", "↵\n")
    assert narration(app).startswith("Step 2:")
    app.toggle(key=keys.SIDEBAR_PRESENT).set_value(False).run()
    assert [area for area in app.text_area if area.key == keys.ANIMATE_PASSAGE]
    assert len(spelled(token_views(app)[1])) > len(spelled(after))  # the whole passage


def _controls_row(app: AppTest) -> list[str]:
    """The kinds of the controls row's children, a box's kinds in brackets (ui.animate.controls)."""
    blocks = [app.main]
    while blocks:
        block = blocks.pop()
        if keys.ANIMATE_CONTROLS in str(getattr(block.proto, "id", "")):
            return [_kinds(child) for child in block.children.values()]
        blocks += [child for child in block.children.values() if hasattr(child, "children")]
    raise AssertionError("no row of controls")


def _kinds(node: object) -> str:
    """A node's kind, and its children's kinds in brackets when it has any."""
    inside = getattr(node, "children", None)
    if not inside:
        return type(node).__name__
    return f"{type(node).__name__}[{','.join(type(c).__name__ for c in inside.values())}]"


def test_the_controls_row_reads_the_same_however_it_is_filled() -> None:
    # the stage is drawn before most controls after a click, and the slider first on a
    # first run (the step from a link): the row's order must not depend on it
    app = open_app("animate", CLASSIC)
    row = ["Block[Button,Button,Button]", "Slider", "Block[Toggle,SelectSlider]"]
    assert _controls_row(app) == row
    assert app.button(key="animate_back").disabled and not app.button(key="animate_next").disabled
    for _ in range(3):
        app.button(key="animate_next").click().run()
        assert _controls_row(app) == row
    assert app.button(key="animate_next").disabled  # the last step: decided after the stage
    assert "After step 3 · 5 tokens" in " ".join(labels(app))


def _blocks_keyed(app: AppTest, key: str) -> list[object]:
    """The blocks whose widget-style id holds `key` (st.container(key=...))."""
    found, blocks = [], [app.main]
    while blocks:
        block = blocks.pop()
        if key in str(getattr(getattr(block, "proto", None), "id", "")):
            found.append(block)
        blocks += [child for child in block.children.values() if hasattr(child, "children")]
    return found


def test_the_stage_is_sent_without_its_cards_which_follow_in_a_block_of_their_own() -> None:
    app = open_app("animate", CLASSIC)
    for _ in range(2):  # step 1, then step 2 (built ahead while step 1 was on screen)
        app.button(key="animate_next").click().run()
        bodies = [str(element.value) for element in app.html]
        (stage,) = [body for body in bodies if 'class="am-panes"' in body]
        (cards,) = [body for body in bodies if 'role="tooltip"' in body]
        assert "role=" not in stage and "content:" not in stage  # no card inside the stage
        described = set(re.findall(r'aria-describedby="([^"]+)"', stage))
        assert described == set(re.findall(r'<span id="([^"]+)" role="tooltip"', cards))
        shown = set(re.findall(r"\.(k\d+):hover::after,", cards))
        assert {f"k{name.rsplit('-', 1)[1]}" for name in described} == shown
        (box,) = _blocks_keyed(app, keys.ANIMATE_CARDS)
        assert [str(child.value) for child in box.children.values()] == [cards]
    assert "After step 2 · 7 tokens" in " ".join(labels(app))
