"""The front door: what BPE is, in a few lines, with the classic example playing beside
them; then three doors — explore a real model's tokenizer, train your own, teach a class.

It is the page a link without a path opens. A link that says more (`/?run=…&sample=…`,
`/?class=…`: every link to "/" from before the front door, when "/" was Train) is
forwarded to Train with its query whole by the shell (ui/shell.py
`forward_old_root_link`), so every old link still opens what it opened.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui.front.example import EXAMPLE, example_steps
from ui.session import state as keys
from ui.session.links.compare_link import HUB_PARAM
from ui.session.runs import add_run, bundled_spec
from ui.views.formatting import RawHtml

PAGES_DIR = Path(__file__).resolve().parents[2] / "pages"
TRAIN, TOKENS, ANIMATE, COMPARE = (
    PAGES_DIR / f"{name}.py" for name in ("train", "tokens", "animate", "compare")
)
BUNDLED_MODEL = "o200k_base"  # GPT-4o's vocabulary, shipped with the app
STEP_SECONDS = 2.5  # the example's pace: time to read a step's sentence
INTRO = (
    "A language model reads numbers, not letters. **Byte-pair encoding** (BPE) is how most "
    "of them turn text into numbers: start from the text's bytes, find the pair of "
    "neighbours that comes most often, and join it into one new token; then again, and "
    "again. The joins it learned, in order — its *merges* — are the tokenizer, and the "
    "same merges, applied in the same order, split any new text."
)
EXAMPLE_INTRO = (
    f"Playing here, the classic example: `{EXAMPLE}`, 11 bytes. Three merges make it 5 "
    "tokens. Every token is a byte or the join of two tokens before it."
)


def front_door() -> None:
    """The page: the words and the example, then the three doors."""
    st.title("BPE Merge Explorer")
    words, example = st.columns([5, 6], gap="large")
    with words:
        st.markdown(INTRO)
        st.markdown(EXAMPLE_INTRO)
        st.toggle("Play the example", value=True, key=keys.FRONT_PLAYING)
    with example:
        playing = bool(st.session_state.get(keys.FRONT_PLAYING, True))
        st.fragment(example_view, run_every=STEP_SECONDS if playing else None)(playing)
    st.divider()
    doors()


def example_view(playing: bool) -> None:
    """The example at its step; each tick of the fragment shows the next, round again."""
    steps = example_steps()
    state = st.session_state
    step = int(state.get(keys.FRONT_STEP, -1))
    step = (step + 1) % len(steps) if playing else max(0, step)
    state[keys.FRONT_STEP] = step
    st.html(RawHtml(steps[step].html))


def doors() -> None:
    """Three ways in, side by side (stacked on a phone)."""
    explore, own, teach = st.columns(3, gap="medium")
    with explore.container(border=True):
        st.header("Explore a real model's tokenizer")
        st.markdown(
            "See how GPT-4o splits your text, token by token: its vocabulary comes with "
            "the app. Any model on the Hugging Face Hub opens by its name."
        )
        if st.button("GPT-4o's tokens", key=keys.FRONT_GPT4O, icon=":material/palette:"):
            add_run(bundled_spec(BUNDLED_MODEL), ())  # the sidebar's, from the next run on
            st.switch_page(TOKENS)
        hub_door()
        st.page_link(
            COMPARE,
            label="Compare models on 26 languages",
            icon=":material/query_stats:",
            query_params={keys.COMPARE_SECTION: "Real models"},
        )
    with own.container(border=True):
        st.header("Train your own")
        st.markdown(
            "Train a tokenizer on a sample or your own text — the worked examples start "
            f"with {EXAMPLE} — and read every merge it learned; watch them happen on Animate."
        )
        st.page_link(TRAIN, label="Train a tokenizer", icon=":material/model_training:")
    with teach.container(border=True):
        st.header("Teach a class")
        st.markdown(
            "Play the merges to a room: students join from their phones with a code or a "
            "QR code and follow your step on Animate, with questions to answer as it goes. "
            "Start one from the sidebar's **Class** panel."
        )
        st.page_link(ANIMATE, label="Animate merges", icon=":material/co_present:")


def hub_door() -> None:
    """A box for a Hub name; its button opens Tokens with the model (`?hub=`)."""
    with st.form(keys.FRONT_HUB_FORM, border=False):
        name = st.text_input(
            "A model's Hub name",
            placeholder="Qwen/Qwen3-0.6B",
            key=keys.FRONT_HUB,
            max_chars=200,
        )
        opened = st.form_submit_button("Open its tokenizer", icon=":material/open_in_new:")
    if opened and name.strip():
        st.switch_page(TOKENS, query_params={HUB_PARAM: name.strip()})
    elif opened:
        st.info("Type a model's name on the Hub first, for example Qwen/Qwen3-0.6B.")
