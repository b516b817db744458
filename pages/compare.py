"""Compare: compression as the vocabulary grows, and one passage at several sizes or tokenizers."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from ui.compare.bend import bend_marks, bends_of, show_bend_sentences, stopped_early_at
from ui.compare.charts import (
    OPENAI,
    compression_chart,
    curve_ratio_at,
    default_sizes,
    language_chart,
    language_table,
    size_label,
    size_options,
    tokens_at,
    training_counts_cached,
)
from ui.compare.heldout import heldout_curve, heldout_section
from ui.compare.languages import language_growth_section
from ui.compare.overlap import overlap_section
from ui.compare.pair.section import pair_section
from ui.session import state as keys
from ui.session.runs import (
    Run,
    bundled_spec,
    current_run_or_error,
    load_run,
    origin,
    run_specs,
    texts_of,
    tokenizer_at,
    trained_vocab_size,
    view_tokenizer,
    view_vocab_size,
)
from ui.session.samples import text_beside
from ui.shell import run_page
from ui.views.formatting import excerpt, markdown_text, plural
from ui.views.token_view import (
    COLOR_HELP,
    COLOR_LABELS,
    corpus_excerpt,
    counts_at_every_size_cached,
    fmt_int,
    fmt_ratio,
    follow_text,
    mark_edited,
    preset,
    show_token_column,
    text_with_menu,
)

TRAIN_PAGE = Path(__file__).resolve().parent / "train.py"
CURVE_CHARS = 20_000  # a sample loaded for the curve: long enough for a steady ratio
PASSAGE_CHARS = 200
PASSAGE_TOKENS = 2_000  # coloured tokens drawn per column
TRAINING, YOURS = "Training corpus", "Your text"


def other_text_input(run: Run) -> str:
    """The text to draw beside the training corpus: one in a single language to start with.

    (A mix of 26 languages, of which the box shows only the English start, made "-60 %"
    look like a verdict on English.) A caption names the text until the user replaces it.
    """
    name, text = text_beside(texts_of(run.spec))
    start = excerpt(text, CURVE_CHARS)
    chosen = text_with_menu(
        keys.COMPARE,
        "Your text",
        start,
        run_name=run.spec.name,
        limit=CURVE_CHARS,
        height=120,
        help="Text the tokenizer did not train on shows how well its vocabulary travels.",
    )
    if chosen == start:
        cut = "" if start == text else f", its first {fmt_int(len(start))} characters"
        st.caption(
            f"Your text is {name}{cut}, {fmt_int(len(start.encode()))} bytes. Type or load "
            "another text to compare it with the training corpus."
        )
    return chosen


def curve_section(run: Run, size: int) -> None:
    """Bytes per token against vocab size: the training corpus and the user's text."""
    st.header("Compression as the vocabulary grows")
    text = other_text_input(run)
    curves: dict[str, Sequence[int]] = {}
    if run.history is None:
        st.info(
            f"This tokenizer was {origin(run.spec)}, so it has no training history and only "
            "your text's curve is shown. Train a tokenizer on the Train page to see its "
            "training curve too."
        )
    else:
        curves[TRAINING] = training_counts_cached(run.history, run.key)
    if text:
        try:
            curves[YOURS] = counts_at_every_size_cached(run.tokenizer, run.key, text)
        except ValueError as exc:
            st.error(f"Your text could not be encoded: {exc}")
    else:
        st.info("Type or load a text above to draw its curve beside the training corpus.")
    curves.update(heldout_curve(run))  # a run trained with a held-out share: its third curve
    if not curves:
        return
    bends = bends_of(curves)
    st.altair_chart(compression_chart(curves, size, bend_marks(bends, curves)), width="stretch")
    curve_metrics(curves, size)
    show_bend_sentences(bends, stopped_early_at(run))


def curve_metrics(curves: dict[str, Sequence[int]], size: int) -> None:
    """Bytes per token of each curve at the sidebar's size; your text against training."""
    ratios = {name: curve_ratio_at(counts, size) for name, counts in curves.items()}
    for column, (name, counts) in zip(st.columns(len(curves)), curves.items()):
        tokens = tokens_at(counts, size)
        delta = None
        if name == YOURS and ratios.get(TRAINING):
            delta = f"{ratios[YOURS] / ratios[TRAINING] - 1:+.0%} vs training corpus"
        column.metric(
            f"{name} at vocab size {fmt_int(size)}",
            f"{fmt_ratio(ratios[name])} bytes/token",
            delta,
            help=f"{fmt_int(counts[0])} bytes in {fmt_int(tokens)} tokens",
        )


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
    names = [spec.name for spec in run_specs()]
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
        spec = next(s for s in run_specs() if s.name == st.session_state[key])
        with column:
            try:
                with st.spinner(f"Loading {spec.name}…"):
                    other = load_run(spec)
            except ValueError as exc:
                st.error(f"{spec.name} could not be rebuilt: {exc}")
                continue
            size = trained_vocab_size(other)
            st.caption(f"Vocab size {fmt_int(size)} · trained on {spec.source}")
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


def openai_runs() -> list[Run]:
    """GPT-2's, GPT-4's and GPT-4o's vocabularies (loaded once per process, then shared)."""
    with st.spinner("Loading GPT-2, GPT-4 and GPT-4o's vocabularies (a few seconds, once)…"):
        return [load_run(bundled_spec(name)) for name in OPENAI]


def openai_section(run: Run, passage: str, color_by: str) -> None:
    """The passage with the current tokenizer (at the view size) and OpenAI's three."""
    size = view_vocab_size(run)
    yours = view_tokenizer(run)
    try:
        others = openai_runs()
    except ValueError as exc:  # BundledError: a vocabulary file missing or altered
        st.error(f"OpenAI's vocabularies could not be loaded: {exc}")
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


def languages_section(run: Run) -> None:
    """Bytes per token of the UDHR in 26 languages: the current tokenizer and OpenAI's."""
    st.header("Across 26 languages")
    size = view_vocab_size(run)
    try:
        openai_runs()  # loads them with a spinner the first time
        frame = language_table(
            run.key, size, f"Yours: {run.spec.name}", tuple(OPENAI), view_tokenizer(run)
        )
    except ValueError as exc:
        st.error(f"The languages could not be compared: {exc}")
        return
    st.altair_chart(language_chart(frame), width="stretch")
    st.caption(
        f"Your tokenizer at vocab size {fmt_int(size)}. A tokenizer trained mostly on English "
        "spends more tokens on other scripts: a byte or two per token means it barely merged "
        "them."
    )


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
    sizes_tab, tokenizers_tab, openai_tab = st.tabs(
        ["At several vocab sizes", "Two tokenizers", "Yours vs GPT-2, GPT-4, GPT-4o"]
    )
    try:
        with sizes_tab:
            sizes_section(run, passage, color_by)
        with tokenizers_tab:
            tokenizers_section(run, passage, color_by)
        with openai_tab:
            openai_section(run, passage, color_by)
    except ValueError as exc:
        st.error(f"The passage could not be encoded: {exc}")


def main() -> None:
    st.title("Compare")
    run = current_run_or_error()
    if run is None:
        return
    size = view_vocab_size(run)
    st.caption(
        f"Comparing with **{run.spec.name}** (vocab size {fmt_int(trained_vocab_size(run))}); "
        f"the sidebar's view size, {fmt_int(size)}, is marked on the chart."
    )
    curve_section(run, size)
    heldout_section(run, size)
    st.divider()
    passage_section(run)
    st.divider()
    pair_section(run)
    st.divider()
    languages_section(run)
    language_growth_section(run)
    st.divider()
    overlap_section(run)


run_page(main)  # main inside the app's shell, even as a fresh server's first request
