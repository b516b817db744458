"""Compare: text the tokenizer has not seen — the held-out share of a run's corpus.

A run trained with a held-out share (Train's "Hold out text the tokenizer does not
see") gets a third curve on the compression chart, and this section: bytes per token of
the held-out text against the training text, the share of its bytes left as single-byte
tokens (ids 0-255) at every vocab size, and the characters training never saw.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import Path

import altair as alt
import pandas as pd
import streamlit as st

from explorer import Tokenizer
from explorer.analysis.compression.unseen import tokens_and_single_bytes, unseen_characters
from explorer.html.render import render_token
from explorer.training.holdout import HoldoutError, HoldoutSplit
from ui.compare.charts import (
    curve_ratio_at,
    sample_indices,
    training_counts_cached,
    view_marks,
)
from ui.session.holdout_split import split_of
from ui.session.run_spec import RunKind
from ui.session.runs import Run, origin, texts_of
from ui.views.formatting import markdown_text, plural
from ui.views.token_view import fmt_int, fmt_ratio

HELD_OUT = "Held-out text"
TRAIN_PAGE = Path(__file__).resolve().parents[2] / "pages" / "train.py"
GAP_LINE = (
    "The gap between the training and held-out curves is the over-fitting to look for: "
    "merges that fit the training text but not new text of the same kind."
)
FALLBACK_TITLE = "Held-out bytes left as single-byte tokens"
FALLBACK_SUBTITLE = "Bytes no merge covered (ids 0–255). Lower is better. Hover for values."
FALLBACK_COLOR = "#54A24B"  # the held-out curve's green on the compression chart
CHAR_COLUMNS = ["Character", "Code point", "Name", "Count"]


@st.cache_resource(max_entries=16, ttl="1h", show_spinner=False)
def heldout_counts_cached(
    _tokenizer: Tokenizer, run_key: str, _texts: tuple[str, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The held-out text's tokens and single-byte tokens at every vocab size (the run's
    key names its corpus and share, and so its held-out text)."""
    tokens, singles = tokens_and_single_bytes(_tokenizer, _texts)
    return tuple(tokens), tuple(singles)


@st.cache_data(max_entries=16, ttl="1h", show_spinner=False)
def unseen_table(run_key: str, _split: HoldoutSplit) -> pd.DataFrame:
    """Characters of the held-out text that the training text never has, with counts."""
    rows = [
        {
            "Character": render_token(
                char.encode("utf-8", "surrogatepass"), visible_whitespace=True
            ),
            "Code point": f"U+{ord(char):04X}",
            "Name": unicodedata.name(char, "(no name)"),
            "Count": count,
        }
        for char, count in unseen_characters(_split.training_texts(), _split.heldout_texts())
    ]
    return pd.DataFrame(rows, columns=CHAR_COLUMNS)


def heldout_split(run: Run) -> HoldoutSplit | None:
    """The run's split, or None when it holds nothing out; HoldoutError when it cannot."""
    if not run.spec.kind.has_corpus:
        return None
    texts = texts_of(run.spec)
    return split_of(run.spec, texts) if texts else None


def heldout_curve(run: Run) -> dict[str, Sequence[int]]:
    """{"Held-out text": token counts at every size} for the chart, or {} without one."""
    try:
        split = heldout_split(run)
    except HoldoutError:  # the section below says why
        return {}
    if split is None:
        return {}
    tokens, _ = heldout_counts_cached(run.tokenizer, run.key, split.heldout_texts())
    return {HELD_OUT: tokens}


def why_none(run: Run) -> str:
    """Why a run has no held-out text, for people ("" when it has one)."""
    if not run.spec.kind.has_corpus:
        return (
            f"This tokenizer was {markdown_text(origin(run.spec))}, so the app has no training "
            "corpus to hold text out of. Train one on the Train page with “Hold out text the "
            "tokenizer does not see” turned on to see how it does on unseen text."
        )
    if run.spec.kind is RunKind.WORD_COUNTS:
        return (
            "This tokenizer was trained on a word-count list, which has no running text to "
            "hold out. Train on a text with “Hold out text the tokenizer does not see” "
            "turned on to see how it does on unseen text."
        )
    if not run.spec.holdout_percent:
        return (
            "This tokenizer trained on all of its text, so none is left to test it on. "
            "Turn on “Hold out text the tokenizer does not see” on the Train page (10 % is "
            "preset) and train again: the held-out curve then appears above."
        )
    return ""


def heldout_section(run: Run, size: int) -> None:
    """The held-out text at the viewed size, its single-byte share, its unseen characters."""
    st.header("Text the tokenizer has not seen")
    reason = why_none(run)
    if reason:
        st.info(reason)
        if run.spec.kind is not RunKind.BUNDLED:
            st.page_link(TRAIN_PAGE, label="Train with a held-out share", icon="🏋️")
        return
    try:
        split = heldout_split(run)
    except HoldoutError as exc:
        st.error(f"The held-out text cannot be cut from this corpus: {markdown_text(str(exc))}.")
        return
    if split is None or run.history is None:
        st.info("This tokenizer's corpus is no longer in this session: train it again.")
        return
    st.markdown(GAP_LINE)
    tokens, singles = heldout_counts_cached(run.tokenizer, run.key, split.heldout_texts())
    training = training_counts_cached(run.history, run.key)
    unseen = unseen_table(run.key, split)
    heldout_metrics(split, training, (tokens, singles), len(unseen), size)
    st.altair_chart(fallback_chart(singles, size), width="stretch")
    characters_table(unseen)


def heldout_metrics(
    split: HoldoutSplit,
    training: Sequence[int],
    counts: tuple[Sequence[int], Sequence[int]],
    unseen: int,
    size: int,
) -> None:
    """The held-out text at the viewed size against training, its single-byte share, and
    how many characters training never saw. `counts`: its tokens and single-byte tokens."""
    tokens, singles = counts
    trained, held = curve_ratio_at(training, size), curve_ratio_at(tokens, size)
    share = singles[min(size - 256, len(singles) - 1)] / singles[0] if singles[0] else 0.0
    units = split.held_out_units()
    left, middle, right = st.columns(3)
    left.metric(
        f"Held-out text at vocab size {fmt_int(size)}",
        f"{fmt_ratio(held)} bytes/token",
        f"{held / trained - 1:+.0%} vs training text" if trained else None,
        help=f"{fmt_int(tokens[0])} bytes in {plural(units, str(split.unit))} "
        f"({split.percent} % of the {split.unit}s), never trained on; the training text "
        f"has {fmt_ratio(trained)} bytes per token at this size.",
    )
    middle.metric(
        f"Held-out bytes as single-byte tokens at {fmt_int(size)}",
        f"{share:.1%}",
        help="Bytes no merge covered: each is a token of its own (ids 0–255).",
    )
    right.metric(
        "Characters never seen in training",
        fmt_int(unseen),
        help="Distinct characters of the held-out text that the training text never has.",
    )


def fallback_rows(singles: Sequence[int]) -> pd.DataFrame:
    """The share of bytes left as single-byte tokens at (a sample of) every vocab size.

    >>> fallback_rows([4, 2, 1]).to_dict("records")[1]
    {'Vocab size': 257, 'Single-byte tokens': 2, 'Share of bytes': 0.5}
    """
    total = singles[0] if singles else 0
    rows = [
        {
            "Vocab size": 256 + k,
            "Single-byte tokens": singles[k],
            "Share of bytes": singles[k] / total if total else 0.0,
        }
        for k in sorted(sample_indices(len(singles)))
    ]
    return pd.DataFrame(rows, columns=["Vocab size", "Single-byte tokens", "Share of bytes"])


def fallback_chart(singles: Sequence[int], view_size: int) -> alt.LayerChart:
    """A line of the single-byte share against vocab size, and the viewed size."""
    x = alt.X(
        "Vocab size:Q",
        title="Vocab size",
        axis=alt.Axis(format=",d"),
        scale=alt.Scale(nice=False, zero=False),
    )
    y = alt.Y("Share of bytes:Q", title="Single-byte share", axis=alt.Axis(format=".0%"))
    tooltip = [
        alt.Tooltip("Vocab size:Q", format=",d"),
        alt.Tooltip("Share of bytes:Q", format=".1%"),
        alt.Tooltip("Single-byte tokens:Q", format=",d"),
    ]
    hover = alt.selection_point(
        fields=["Vocab size"], nearest=True, on="pointerover", empty=False, clear="pointerout"
    )
    base = alt.Chart(fallback_rows(singles))
    line = base.mark_line(color=FALLBACK_COLOR, strokeWidth=2).encode(x, y)
    points = (
        base.mark_circle(size=50, color=FALLBACK_COLOR)
        .encode(x, y, opacity=alt.condition(hover, alt.value(1.0), alt.value(0.0)), tooltip=tooltip)
        .add_params(hover)
    )
    chart: alt.LayerChart = (  # altair types configure_*() as returning Any
        alt.layer(
            line, points, *view_marks(view_size, x, at_right=2 * (view_size - 256) > len(singles))
        )
        .properties(
            title=alt.TitleParams(FALLBACK_TITLE, subtitle=FALLBACK_SUBTITLE, anchor="start"),
            height=260,
        )
        .configure_axis(labelFontSize=12, titleFontSize=13)
    )
    return chart


def characters_table(table: pd.DataFrame) -> None:
    """The held-out characters that training never saw (unseen_table), most frequent first."""
    if table.empty:
        st.success("Every character of the held-out text also occurs in the training text.")
        return
    total = int(table["Count"].sum())
    st.markdown(
        f"**Characters never seen in training**: {plural(len(table), 'character')}, "
        f"{plural(total, 'time')} in the held-out text. No token of the vocabulary holds "
        "any of them whole, so each costs up to one token per byte."
    )
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        column_config={"Count": st.column_config.NumberColumn("Count", format="%d")},
    )
