"""Compare's "One passage, side by side": a short passage at two to four vocab sizes of the
sidebar's tokenizer, with two tokenizers of the session, and against OpenAI's three, each
in a tab, coloured as the user picks."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from explorer.analysis.compression.metric_stream import last_word_end
from ui.compare.charts import default_sizes, size_label, size_options
from ui.compare.openai_runs import openai_runs
from ui.session import state as keys
from ui.session.run_cache import tokenizer_at
from ui.session.run_spec import OPENAI
from ui.session.runs import (
    Run,
    load_run,
    texts_of,
    tokenizer_specs,
    trained_vocab_size,
    view_tokenizer,
    view_vocab_size,
)
from ui.views.formatting import markdown_text, plural
from ui.views.token_view import (
    COLOR_HELP,
    COLOR_LABELS,
    corpus_excerpt,
    fmt_int,
    follow_text,
    mark_edited,
    preset,
    show_token_column,
)

TRAIN_PAGE = Path(__file__).resolve().parents[2] / "pages" / "train.py"
PASSAGE_CHARS = 200
PASSAGE_TOKENS = 2_000  # coloured tokens drawn per column
# what side by side encodes: a column draws 2,000 tokens, ~8,000 characters of prose; a
# 20 MB passage (Streamlit takes 25 MB in a box) was encoded whole, up to 9 times, on the
# interpreter every page shares
PASSAGE_MAX_CHARS = 20_000


def passage_section(run: Run) -> None:
    """One passage at several vocab sizes, with two session tokenizers, and against OpenAI's."""
    st.header("One passage, side by side")
    passage = passage_input(run)
    color_by = st.radio(
        "Colour by",
        list(COLOR_LABELS),
        index=2,
        format_func=COLOR_LABELS.get,
        horizontal=True,
        key=keys.COMPARE_COLOR_BY,
        persist_state="session",
    )
    st.caption(f"{COLOR_HELP[color_by]} Hover a token for its id, bytes and parents.")
    if not passage:
        st.info("Type a passage above to see it side by side.")
        return
    if len(passage) > PASSAGE_MAX_CHARS:
        st.caption(long_passage_note(len(passage)))
        passage = passage_head(passage)
    sizes_tab, tokenizers_tab, openai_tab = st.tabs(
        ["At several vocab sizes", "Two of yours", "Yours vs GPT-2, GPT-4, GPT-4o"]
    )
    try:
        with sizes_tab:
            sizes_section(run, passage, color_by)
        with tokenizers_tab:
            tokenizers_section(run, passage, color_by)
        with openai_tab:
            openai_section(run, passage, color_by)
    except ValueError as exc:
        st.error(f"The passage could not be encoded: {markdown_text(str(exc))}")


def passage_input(run: Run) -> str:
    """The short passage both side-by-side views encode."""
    start = corpus_excerpt(run.spec.kind, texts_of(run.spec), PASSAGE_CHARS)
    follow_text(keys.COMPARE_PASSAGE, start, run.spec.name)
    return st.text_area(
        "Passage",
        key=keys.COMPARE_PASSAGE,
        on_change=mark_edited,
        args=(keys.COMPARE_PASSAGE,),
        persist_state="session",
        height=100,
        help="A sentence or two reads best side by side.",
    )


def passage_head(passage: str) -> str:
    """The passage's first PASSAGE_MAX_CHARS characters, cut at the last word's end.

    >>> len(passage_head("word " * 10_000)) <= PASSAGE_MAX_CHARS
    True
    """
    head = passage[:PASSAGE_MAX_CHARS]
    return head[: last_word_end(head) or PASSAGE_MAX_CHARS]


def long_passage_note(chars: int) -> str:
    """What the section says when it sets only the passage's start side by side."""
    return (
        f"Side by side shows the first {PASSAGE_MAX_CHARS:,} characters of this "
        f"{chars:,}-character passage (a column draws {PASSAGE_TOKENS:,} tokens at most); "
        "the passage stays whole in its box. The Tokens page counts a long text whole."
    )


def sizes_section(run: Run, passage: str, color_by: str) -> None:
    """The passage at two to four vocab sizes of the sidebar's tokenizer."""
    full = trained_vocab_size(run)
    if full == 256:  # one size only: nothing to set side by side
        st.info(
            "This tokenizer made no merges, so 256 (bytes only) is its one vocab size. "
            "Train it with a larger vocab or on a longer text to compare sizes."
        )
        return
    options = size_options(full)
    preset(keys.COMPARE_SIZES, default_sizes(full), lambda chosen: set(chosen) <= set(options))
    chosen = st.multiselect(
        "Vocab sizes",
        options,
        key=keys.COMPARE_SIZES,
        persist_state="session",
        format_func=lambda size: size_label(size, full),
        max_selections=4,
        help="Each size is the first merges of the same tokenizer: no retraining.",
    )
    sizes = sorted(chosen)
    if len(sizes) < 2:
        st.info("Choose two to four vocab sizes to see the passage at each.")
        return
    previous = None
    for column, size in zip(st.columns(len(sizes)), sizes):
        with column:
            st.markdown(f"**{size_label(size, full)}** · {plural(size - 256, 'merge')}")
            tokenizer = tokenizer_at(run.tokenizer, run.key, size)
            previous = show_token_column(
                tokenizer,
                run.key,
                size,
                passage,
                color_by=color_by,
                num_merges=full - 256,
                previous=previous,
                limit=PASSAGE_TOKENS,
            )


def tokenizers_section(run: Run, passage: str, color_by: str) -> None:
    """The passage with two tokenizers of the session, each at its full vocab size."""
    names = [spec.name for spec in tokenizer_specs()]
    if len(names) < 2:
        st.info(
            "This session has one tokenizer. Train another on the Train page (a different "
            "text, pattern or vocab size) and compare the two here on the same passage."
        )
        st.page_link(TRAIN_PAGE, label="Train another tokenizer", icon="🏋️")
        return
    others = [name for name in names if name != run.spec.name]
    pick = st.columns(2)
    with pick[0]:
        preset(keys.COMPARE_LEFT, run.spec.name, lambda name: name in names)
        st.selectbox("Left", names, key=keys.COMPARE_LEFT, persist_state="session")
    with pick[1]:
        preset(keys.COMPARE_RIGHT, others[-1], lambda name: name in names)
        st.selectbox("Right", names, key=keys.COMPARE_RIGHT, persist_state="session")
    previous = None
    columns = st.columns(2)
    for column, key in zip(columns, (keys.COMPARE_LEFT, keys.COMPARE_RIGHT)):
        spec = next(s for s in tokenizer_specs() if s.name == st.session_state[key])
        with column:
            try:
                with st.spinner(f"Loading {markdown_text(spec.name)}…"):
                    other = load_run(spec)
            except ValueError as exc:
                st.error(
                    f"{markdown_text(spec.name)} could not be rebuilt: {markdown_text(str(exc))}"
                )
                continue
            size = trained_vocab_size(other)
            st.caption(f"Vocab size {fmt_int(size)} · trained on {markdown_text(spec.source)}")
            previous = show_token_column(
                other.tokenizer,
                other.key,
                size,
                passage,
                color_by=color_by,
                num_merges=size - 256,
                previous=previous,
                limit=PASSAGE_TOKENS,
            )


def openai_section(run: Run, passage: str, color_by: str) -> None:
    """The passage with the current tokenizer (at the view size) and OpenAI's three."""
    size = view_vocab_size(run)
    yours = view_tokenizer(run)
    try:
        others = openai_runs()
    except ValueError as exc:  # BundledError: a vocabulary file missing or altered
        st.error(f"OpenAI's vocabularies could not be loaded: {markdown_text(str(exc))}")
        return
    st.caption(
        "Your tokenizer at the sidebar's view size, then OpenAI's, on the same passage; "
        "each change is counted against yours."
    )
    columns = st.columns(1 + len(others))
    with columns[0]:
        st.markdown(f"**Yours:** {markdown_text(run.spec.name)}")
        st.caption(f"Vocab size {fmt_int(size)}")
        baseline = show_token_column(
            yours,
            run.key,
            size,
            passage,
            color_by=color_by,
            num_merges=size - 256,
            limit=PASSAGE_TOKENS,
            label="Tokens · yours",
            baseline="the baseline",
        )
    for column, other in zip(columns[1:], others):
        title = OPENAI[other.spec.text_key]
        with column:
            st.markdown(f"**{title}:** {other.spec.text_key}")
            st.caption(f"Vocab size {fmt_int(trained_vocab_size(other))}")
            show_token_column(
                other.tokenizer,
                other.key,
                trained_vocab_size(other),
                passage,
                color_by=color_by,
                num_merges=trained_vocab_size(other) - 256,
                previous=baseline,
                limit=PASSAGE_TOKENS,
                label=f"Tokens · {title}",
            )
