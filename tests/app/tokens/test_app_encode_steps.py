"""Tokens, encode step by step: the section's steps, numbers and narration are the engine's."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from explorer import Tokenizer, train
from explorer.encoding.encode_trace import MAX_TRACE_CHARS, trace_encoding
from tests.app_support import APP, TIMEOUT, open_app, texts_of
from ui.session import state as keys
from ui.session.encode_place import EncodePlace, encode_place
from ui.session.samples import sample_text
from ui.tokens import encode_playback, encode_story


@pytest.fixture(scope="module")
def sample_tokenizer() -> Tokenizer:
    """The tokenizer a new session opens on (Shakespeare, gpt4, 2,000)."""
    return train(sample_text("shakespeare"), 2000, pattern="gpt4").tokenizer


def opened_section(text: str | None = None) -> AppTest:
    app = open_app("tokens")
    app.session_state[keys.TOKENS_ENCODE_OPEN] = True
    app.run()
    assert not app.exception, app.exception
    if text is not None:
        app.text_input(key=keys.TOKENS_ENCODE_TEXT).input(text).run()
        assert not app.exception, app.exception
    return app


def htmls(app: AppTest) -> list[str]:
    return [element.proto.body for element in app.get("html")]


def narration(app: AppTest) -> str:
    (found,) = [body for body in htmls(app) if "am-narration" in body]
    return found


def candidate_numbers(app: AppTest) -> tuple[list[int], int | None]:
    """The merge numbers of the candidate chips in order, and the marked lowest one."""
    bodies = [body for body in htmls(app) if "es-list" in body]
    if not bodies:
        return [], None
    numbers = [int(n) for n in re.findall(r"data-merge='(\d+)'", bodies[0])]
    lowest = re.search(r"class='es-cand es-low' data-merge='(\d+)'", bodies[0])
    return numbers, int(lowest.group(1)) if lowest else None


def step_label(app: AppTest) -> str:
    return next(m for m in texts_of(app.markdown) if m.startswith("**Step "))


def test_every_step_is_the_engines(sample_tokenizer: Tokenizer) -> None:
    text = "tokenization, unbelievably"
    app = opened_section(text)
    trace = trace_encoding(sample_tokenizer, text)
    steps = trace.steps
    assert len(steps) > 5
    assert step_label(app) == f"**Step 0 of {len(steps)}**"
    assert "Step 0 of" in narration(app)
    for numbered in steps:
        app.button(key=keys.TOKENS_ENCODE_NEXT).click().run()
        assert not app.exception, app.exception
        step = numbered.step
        said = narration(app)
        assert f"Step {numbered.number} of {len(steps)}" in said
        assert f"merge {step.merge_number} fuses" in said
        assert f"into token {step.new_id} " in said
        numbers, lowest = candidate_numbers(app)
        assert numbers == [c.merge_number for c in step.candidates]
        assert lowest == step.merge_number == min(numbers)
        assert app.query_params["encode_step"] == str(numbered.number)
    assert "That was the last merge" in narration(app)
    assert f"the text is {len(trace.ids)} tokens" in narration(app)
    assert trace.ids == sample_tokenizer.encode(text)
    assert app.button(key=keys.TOKENS_ENCODE_NEXT).disabled
    app.button(key=keys.TOKENS_ENCODE_BACK).click().run()
    assert step_label(app) == f"**Step {len(steps) - 1} of {len(steps)}**"
    app.button(key=keys.TOKENS_ENCODE_RESTART).click().run()
    assert step_label(app) == f"**Step 0 of {len(steps)}**"
    assert "encode_step" not in app.query_params
    assert app.query_params["encode"] == text


def test_opens_on_the_page_texts_most_merged_word(sample_tokenizer: Tokenizer) -> None:
    app = opened_section()
    word = app.text_input(key=keys.TOKENS_ENCODE_TEXT).value
    page_text = app.text_area(key="tokens_text").value
    assert word and word in page_text
    (chunk,) = trace_encoding(sample_tokenizer, word).chunks
    menu = app.selectbox(key=keys.TOKENS_ENCODE_PICK)
    assert word in menu.options or any(word == o.replace("·", " ") for o in menu.options)
    assert all(
        len(trace_encoding(sample_tokenizer, w).steps) <= len(chunk.steps)
        for w, _ in sample_tokenizer.pre_tokens(page_text[:1000])
        if w.strip()
    )


def test_picking_a_word_traces_it_from_step_0() -> None:
    app = opened_section("tokenization")
    app.button(key=keys.TOKENS_ENCODE_NEXT).click().run()
    app.button(key=keys.TOKENS_ENCODE_NEXT).click().run()
    menu = app.selectbox(key=keys.TOKENS_ENCODE_PICK)
    picked = menu.options[3]
    menu.set_value(picked).run()
    assert not app.exception, app.exception
    traced = app.text_input(key=keys.TOKENS_ENCODE_TEXT).value
    assert traced.replace(" ", "·") == picked
    assert step_label(app).startswith("**Step 0 of ")
    assert app.selectbox(key=keys.TOKENS_ENCODE_PICK).value is None


def test_user_text_is_escaped() -> None:
    app = opened_section("<b>&amp;</b>")
    pages = ["".join(htmls(app))]
    while not app.button(key=keys.TOKENS_ENCODE_NEXT).disabled:
        app.button(key=keys.TOKENS_ENCODE_NEXT).click().run()
        pages.append("".join(htmls(app)))
    assert len(pages) > 1
    for page in pages:
        assert "<b>" not in page and "</b>" not in page  # no tag of the user's survives
        assert "&lt;" in page and "&amp;" in page
    assert any("amp" in page and "&amp;" in page for page in pages)


def test_clear_messages_for_empty_long_and_mergeless() -> None:
    app = opened_section("")
    assert any("Type a word" in info for info in texts_of(app.info))
    app.text_input(key=keys.TOKENS_ENCODE_TEXT).input("a" * (MAX_TRACE_CHARS + 1)).run()
    assert any(f"at most {MAX_TRACE_CHARS}" in error for error in texts_of(app.error))
    app.text_input(key=keys.TOKENS_ENCODE_TEXT).input("tokenization").run()
    app.sidebar.slider(key="sidebar_view_size").set_value(256).run()
    assert not app.exception, app.exception
    assert any("no merges at vocab size 256" in info for info in texts_of(app.info))


def test_a_link_opens_the_section_at_its_step(sample_tokenizer: Tokenizer) -> None:
    app = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    app.query_params["encode"] = "unbelievably"
    app.query_params["encode_step"] = "3"
    app.switch_page("pages/tokens.py")
    app.run()
    assert not app.exception, app.exception
    assert app.text_input(key=keys.TOKENS_ENCODE_TEXT).value == "unbelievably"
    steps = trace_encoding(sample_tokenizer, "unbelievably").steps
    assert step_label(app) == f"**Step 3 of {len(steps)}**"
    assert f"merge {steps[2].step.merge_number} fuses" in narration(app)


def test_closed_it_runs_nothing_and_leaves_the_url() -> None:
    app = opened_section("tokenization")
    app.button(key=keys.TOKENS_ENCODE_NEXT).click().run()
    assert app.query_params["encode_step"] == "1"
    app.session_state[keys.TOKENS_ENCODE_OPEN] = False
    app.run()
    assert "encode" not in app.query_params and "encode_step" not in app.query_params
    assert not [body for body in htmls(app) if "am-narration" in body]


def test_play_and_pause_toggle_the_button() -> None:
    app = opened_section("unbelievably")
    app.button(key=keys.TOKENS_ENCODE_PLAY).click().run()
    assert encode_place(app.session_state).playing
    assert app.button(key=keys.TOKENS_ENCODE_PLAY).label == "Pause"
    app.button(key=keys.TOKENS_ENCODE_PLAY).click().run()
    assert not encode_place(app.session_state).playing


def test_ticks_advance_and_stop_at_the_last_step() -> None:
    state: dict[str, object] = {keys.TOKENS_ENCODE_PLACE: EncodePlace(step=3)}
    encode_playback.toggle_play(state, last=3)  # at the end: play from the start
    assert encode_place(state) == EncodePlace(step=0, playing=True)
    assert encode_playback.wanted_timer(state) == 1 / encode_playback.DEFAULT_SPEED
    seen = []
    while encode_place(state).playing:
        encode_playback.tick(state, last=3)
        seen.append(encode_place(state).step)
    assert seen == [1, 2, 3] and encode_playback.wanted_timer(state) is None
    encode_playback.step_by(state, -5, last=3)
    assert encode_place(state).step == 0


def test_a_new_trace_starts_at_0_paused_but_the_first_keeps_a_linked_step() -> None:
    state: dict[str, object] = {keys.TOKENS_ENCODE_PLACE: EncodePlace(step=4, playing=True)}
    assert encode_playback.follow_trace(state, "a", last=9) == 4  # a link's or a class's step
    assert encode_place(state) == EncodePlace(step=4, trace="a", playing=True)
    assert encode_playback.follow_trace(state, "a", last=2) == 2  # never past the last
    assert encode_playback.follow_trace(state, "b", last=9) == 0
    assert encode_place(state) == EncodePlace(step=0, trace="b", playing=False)


def test_narration_says_why_not_reading_order_nor_frequency() -> None:
    tokenizer = Tokenizer([(99, 100), (97, 97)])  # merge 1: 'c' + 'd', merge 2: 'a' + 'a'
    trace = trace_encoding(tokenizer, "aaaacd")
    said = encode_story.narration(tokenizer, trace, 1)
    assert "merge 1 fuses ('c', 'd') into token 256 'cd', 1 time" in said
    assert "('a', 'a') comes first in the chunk, but training learned it later (merge 2)" in said
    assert "('a', 'a') appears 3 times in this chunk, yet merge 2 comes later" in said
    last = encode_story.narration(tokenizer, trace, 2)
    assert "So merge 2 fuses ('a', 'a') into token 257 'aa', 2 times" in last
    assert "That was the last merge: the text is 3 tokens" in last
    assert "Step 0 of 2" in encode_story.narration(tokenizer, trace, 0)
    none = trace_encoding(tokenizer, "xy")
    assert "no adjacent pair" in encode_story.narration(tokenizer, none, 0)
