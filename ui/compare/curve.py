"""Compare's first section: bytes per token as the vocabulary grows, for the training corpus,
a text of the user's (one language to start with) and a held-out share, with each curve's
bend and its value at the sidebar's size."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ui.compare.bend import bend_marks, bends_of, show_bend_sentences, stopped_early_at
from ui.compare.charts import (
    compression_chart,
    curve_ratio_at,
    tokens_at,
    training_counts_cached,
)
from ui.compare.heldout import heldout_curve
from ui.session import state as keys
from ui.session.runs import Run, origin, texts_of
from ui.session.samples import text_beside
from ui.views.formatting import excerpt, markdown_text
from ui.views.shared_charts import show_chart
from ui.views.token_view import counts_at_every_size_cached, fmt_int, fmt_ratio, text_with_menu

CURVE_CHARS = 20_000  # a sample loaded for the curve: long enough for a steady ratio
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
            f"Your text is {markdown_text(name)}{cut}, {fmt_int(len(start.encode()))} bytes. Type "
            "or load another text to compare it with the training corpus."
        )
    return chosen


def curve_section(run: Run, size: int) -> None:
    """Bytes per token against vocab size: the training corpus and the user's text."""
    st.header("Compression as the vocabulary grows")
    text = other_text_input(run)
    curves: dict[str, Sequence[int]] = {}
    if run.history is None:
        st.info(
            f"This tokenizer was {markdown_text(origin(run.spec))}, so it has no training history "
            "and only your text's curve is shown. Train a tokenizer on the Train page to see its "
            "training curve too."
        )
    else:
        curves[TRAINING] = training_counts_cached(run.history, run.key)
    if text:
        try:
            curves[YOURS] = counts_at_every_size_cached(run.tokenizer, run.key, text)
        except ValueError as exc:
            st.error(f"Your text could not be encoded: {markdown_text(str(exc))}")
    else:
        st.info("Type or load a text above to draw its curve beside the training corpus.")
    curves.update(heldout_curve(run))  # a run trained with a held-out share: its third curve
    if not curves:
        return
    bends = bends_of(curves)
    # the curves follow from the run, the text and the size: one chart for every session
    show_chart(
        ("compression", run.key, text, size),
        lambda: compression_chart(curves, size, bend_marks(bends, curves)),
    )
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
