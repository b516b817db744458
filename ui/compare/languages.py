"""Compare: the 26 UDHR languages' bytes per token with yours and OpenAI's tokenizers, what each
language costs as the vocabulary grows, and the token tax.

One encode per language (explorer.analysis.compression.language_cost) gives the text's length at
every vocab size, so the heatmap of 26 languages by ~32 sizes is 26 encodes, cached per run; the
token tax at the viewed size reads the same curves.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import altair as alt
import pandas as pd
import streamlit as st

from explorer import Tokenizer
from explorer.analysis.compression.language_cost import (
    REFERENCE_LANGUAGE,
    LanguageCurve,
    cost_grid,
    heatmap_sizes,
    language_curves,
    token_tax,
)
from ui.compare.language_chart import language_chart, language_table
from ui.compare.openai_runs import openai_runs
from ui.session import state as keys
from ui.session.run_spec import OPENAI
from ui.session.runs import Run, trained_vocab_size, view_tokenizer, view_vocab_size
from ui.session.samples import udhr_texts
from ui.views.formatting import format_seconds, markdown_text
from ui.views.shared_charts import show_chart
from ui.views.theme_css import CHART_GREY  # the theme_css rule lightens it on a dark page
from ui.views.token_view import fmt_int

HEATMAP_TITLE = "Bytes per token by language and vocab size"
TAX_TITLE = "The token tax: tokens per English token"
TAX_COLUMNS = ["Language", "Tokens per English token", "Bytes per token", "Tokens", "Bytes"]
HEATMAP_COLUMNS = ["Language", "Vocab size", "Bytes per token", "Tokens"]
VIEW_OUTLINE = "#1A1A1A"
ROW_STEP = 20  # pixels per language: every label shows


@dataclass(frozen=True)
class LanguageCosts:
    """Every UDHR language's curve under one tokenizer, and how long the encodes took."""

    curves: tuple[LanguageCurve, ...]
    seconds: float


@st.cache_resource(max_entries=16, ttl="1h", show_spinner=False)
def language_costs_cached(_tokenizer: Tokenizer, run_key: str) -> LanguageCosts:
    """The 26 curves of the run's full tokenizer: one encode per language, once per run."""
    start = time.perf_counter()
    curves = tuple(language_curves(_tokenizer, udhr_texts()))
    return LanguageCosts(curves, time.perf_counter() - start)


def heatmap_frame(curves: Sequence[LanguageCurve], full: int, view_size: int) -> pd.DataFrame:
    """Bytes per token of every language at ~32 log-spaced sizes and the viewed size."""
    sizes = sorted({*heatmap_sizes(full), view_size})
    return pd.DataFrame(cost_grid(curves, sizes), columns=HEATMAP_COLUMNS)


def heatmap_chart(frame: pd.DataFrame, view_size: int) -> alt.LayerChart:
    """Languages down, vocab sizes across, colour for bytes per token; the view outlined."""
    languages = list(dict.fromkeys(frame["Language"]))
    x = alt.X(
        "Vocab size:O",
        title="Vocab size",
        axis=alt.Axis(format=",d", labelAngle=-45, labelOverlap=True),
    )
    y = alt.Y(
        "Language:N",
        sort=languages,
        title="Language",
        axis=alt.Axis(labelLimit=160, labelOverlap=False),
    )
    tooltip = [
        alt.Tooltip("Language:N"),
        alt.Tooltip("Vocab size:O", format=",d"),
        alt.Tooltip("Bytes per token:Q", format=".2f"),
        alt.Tooltip("Tokens:Q", format=",d"),
    ]
    cells = (
        alt.Chart(frame)
        .mark_rect()
        .encode(
            x,
            y,
            color=alt.Color(
                "Bytes per token:Q",
                title="Bytes per token",
                scale=alt.Scale(scheme="viridis"),
                legend=alt.Legend(orient="top", direction="horizontal", gradientLength=220),
            ),
            tooltip=tooltip,
        )
    )
    view = (
        alt.Chart(frame[frame["Vocab size"] == view_size])
        .mark_rect(fill=None, stroke=VIEW_OUTLINE, strokeWidth=2)
        .encode(x, y, tooltip=tooltip)
    )
    subtitle = [
        "The UDHR (preamble, articles 1–5) in each language.",
        "Brighter is cheaper: more bytes per token.",
        "Columns: log-spaced sizes; outlined: the view size.",
    ]
    chart: alt.LayerChart = (  # altair types configure_*() as returning Any
        alt.layer(cells, view)
        .properties(title=alt.TitleParams(HEATMAP_TITLE, subtitle=subtitle, anchor="start"))
        .properties(height=alt.Step(ROW_STEP))
        .configure_axis(labelFontSize=12, titleFontSize=13)
    )
    return chart


def tax_frame(curves: Sequence[LanguageCurve], view_size: int) -> pd.DataFrame:
    """Each language's tokens per English token at the view size, the dearest first."""
    tax = token_tax(curves, view_size, REFERENCE_LANGUAGE)
    rows = [
        (
            c.language,
            tax[c.language],
            c.bytes_per_token_at(view_size),
            c.tokens_at(view_size),
            c.bytes,
        )
        for c in curves
    ]
    frame = pd.DataFrame(rows, columns=TAX_COLUMNS)
    return frame.sort_values("Tokens per English token", ascending=False, kind="stable")


def tax_chart(frame: pd.DataFrame, view_size: int) -> alt.LayerChart:
    """Horizontal bars of the token tax, the dearest language on top, a rule at English's 1."""
    order = list(frame["Language"])
    bars = (
        alt.Chart(frame)
        .mark_bar(color="#4C78A8")
        .encode(
            x=alt.X("Tokens per English token:Q", title="Tokens per English token"),
            y=alt.Y("Language:N", sort=order, title="Language", axis=alt.Axis(labelOverlap=False)),
            tooltip=[
                alt.Tooltip("Language:N"),
                alt.Tooltip("Tokens per English token:Q", format=".2f"),
                alt.Tooltip("Tokens:Q", format=",d"),
                alt.Tooltip("Bytes per token:Q", format=".2f"),
            ],
        )
    )
    english = (
        alt.Chart(pd.DataFrame({"Tokens per English token": [1.0]}))
        .mark_rule(color=CHART_GREY, strokeDash=[4, 3])
        .encode(x="Tokens per English token:Q")
    )
    subtitle = [
        f"At vocab size {view_size:,}: the same declaration's tokens in each",
        "language, per token of the English text. Dashed: English (1×).",
    ]
    chart: alt.LayerChart = (  # altair types configure_*() as returning Any
        alt.layer(bars, english)
        .properties(
            title=alt.TitleParams(TAX_TITLE, subtitle=subtitle, anchor="start"),
            height=alt.Step(ROW_STEP),
        )
        .configure_axis(labelFontSize=12, titleFontSize=13)
    )
    return chart


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
        st.error(f"The languages could not be compared: {markdown_text(str(exc))}")
        return
    show_chart(("languages", run.key, size, run.spec.name), lambda: language_chart(frame))
    st.caption(
        f"Your tokenizer at vocab size {fmt_int(size)}. A tokenizer trained mostly on English "
        "spends more tokens on other scripts: a byte or two per token means it barely merged "
        "them."
    )


def language_growth_section(run: Run) -> None:
    """The heatmap over every vocab size and the token tax at the viewed size."""
    st.header("Cost per language as the vocabulary grows")
    full, size = trained_vocab_size(run), view_vocab_size(run)
    if full == 256:
        st.info(
            "This tokenizer made no merges, so each language costs one token per byte at its "
            "one vocab size, 256. Train it with a larger vocab to see how each language's "
            "cost falls as merges are added."
        )
        return
    try:
        with st.spinner("Encoding the declaration in 26 languages…"):
            costs = language_costs_cached(run.tokenizer, run.key)
        frame = heatmap_frame(costs.curves, full, size)
        taxes = tax_frame(costs.curves, size)
    except ValueError as exc:
        st.error(f"The languages could not be encoded: {markdown_text(str(exc))}")
        return
    show_chart(("heatmap", run.key, size), lambda: heatmap_chart(frame, size))
    st.caption(
        f"Every column is the first merges of {markdown_text(run.spec.name)}: one encode per "
        f"language gave all {full - 255:,} sizes (26 encodes, "
        f"{format_seconds(costs.seconds)} for this tokenizer), not one encode per size."
    )
    tax_section(taxes, size, run.key)


def tax_section(frame: pd.DataFrame, size: int, run_key: str) -> None:
    """The token tax as a sorted bar chart, and as a table to sort and download."""
    chart_column, table_column = st.columns([3, 2])
    show_chart(("tax", run_key, size), lambda: tax_chart(frame, size), chart_column)
    with table_column:
        st.dataframe(
            frame,
            hide_index=True,
            width="stretch",
            height=600,
            column_config={
                "Tokens per English token": st.column_config.NumberColumn(format="%.2f×"),
                "Bytes per token": st.column_config.NumberColumn(format="%.2f"),
                "Tokens": st.column_config.NumberColumn(format="localized"),
                "Bytes": st.column_config.NumberColumn(format="localized"),
            },
        )
        st.download_button(
            f"Download the token tax at {size:,} (CSV)",
            frame.to_csv(index=False).encode("utf-8"),
            file_name=f"token_tax_{size}.csv",
            mime="text/csv",
            key=keys.COMPARE_TAX_CSV,
        )
    dearest = frame.iloc[0]
    st.caption(
        f"At vocab size {size:,}, {dearest['Language']} takes "
        f"{dearest['Tokens per English token']:.1f} tokens for every English token of the same "
        "text. A language the training text lacked pays in tokens: in context length, "
        "time and money."
    )
