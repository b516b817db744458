"""Compare: how evenly a tokenizer treats the 26 UDHR languages at every vocab size — each
language's premium against English, and one Gini coefficient of tokens per byte, for the
sidebar's run beside GPT-2's, GPT-4's and GPT-4o's (explorer.analysis.compression.fairness).

The language curves are the languages section's (one encode per language and run, cached
per run), so this costs no encode of its own for the sidebar's run.
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from explorer.analysis.compression.fairness import (
    GINI_DEFINITION,
    GINI_SOURCE,
    PREMIUM_DEFINITION,
    PREMIUM_SOURCE,
    fairness_curve,
)
from ui.compare.languages import language_costs_cached
from ui.compare.openai_runs import openai_runs
from ui.compare.overlay.chart import PALETTE, log_sizes
from ui.session import state as keys
from ui.session.runs import Run, view_vocab_size
from ui.views.formatting import markdown_text

POINTS = 60  # log-spaced sizes per line
GINI_TITLE = "Gini of tokens per byte across 26 languages"
PREMIUM_TITLE = "Each language's premium against English"
LOG_X = alt.Scale(type="log", nice=False)


def fairness_rows(run: Run) -> list[dict[str, object]]:
    """Premiums and the Gini of one run at log-spaced sizes up to its full size."""
    full = 256 + len(run.tokenizer.merges)
    sizes = log_sizes(256, full, POINTS) if full > 256 else [256]
    curves = language_costs_cached(run.tokenizer, run.key).curves
    return [
        {"Tokenizer": run.spec.name, "Vocab size": point.size, "Gini": point.gini, **point.premiums}
        for point in fairness_curve(curves, sizes)
    ]


def gini_chart(frame: pd.DataFrame) -> alt.Chart:
    """One line of the Gini per tokenizer against vocab size (log)."""
    names = list(dict.fromkeys(frame["Tokenizer"]))
    chart: alt.Chart = (  # altair types mark_*() as returning Any
        alt.Chart(frame)
        .mark_line(point=alt.OverlayMarkDef(size=18), strokeWidth=2)
        .encode(
            x=alt.X("Vocab size:Q", title="Vocab size (log scale)", scale=LOG_X),
            y=alt.Y("Gini:Q", title="Gini of tokens per byte (lower is fairer)"),
            color=alt.Color(
                "Tokenizer:N",
                title=None,
                scale=alt.Scale(domain=names, range=list(PALETTE[: len(names)])),
                legend=alt.Legend(orient="top", labelLimit=360),
            ),
            tooltip=[
                alt.Tooltip("Tokenizer:N"),
                alt.Tooltip("Vocab size:Q", format=",d"),
                alt.Tooltip("Gini:Q", format=".3f"),
            ],
        )
        .properties(
            title=alt.TitleParams(
                GINI_TITLE, subtitle="The UDHR in each language. Hover for values.", anchor="start"
            ),
            height=300,
        )
    )
    return chart


def premium_chart(frame: pd.DataFrame) -> alt.Chart:
    """One line per language: its tokens per English token as the run's vocabulary grows;
    clicking a language in the legend picks it out."""
    long = frame.drop(columns=["Tokenizer", "Gini"]).melt(
        "Vocab size", var_name="Language", value_name="Premium"
    )
    pick = alt.selection_point(fields=["Language"], bind="legend")
    chart: alt.Chart = (  # altair types mark_*() as returning Any
        alt.Chart(long)
        .mark_line(strokeWidth=2)
        .encode(
            x=alt.X("Vocab size:Q", title="Vocab size (log scale)", scale=LOG_X),
            y=alt.Y("Premium:Q", title="Tokens per English token", scale=alt.Scale(type="log")),
            color=alt.Color(
                "Language:N",
                title="Language",
                sort=list(long["Language"].unique()),
                scale=alt.Scale(scheme="tableau20"),
                legend=alt.Legend(columns=2, symbolLimit=30),
            ),
            opacity=alt.condition(pick, alt.value(1.0), alt.value(0.15)),
            tooltip=[
                alt.Tooltip("Language:N"),
                alt.Tooltip("Vocab size:Q", format=",d"),
                alt.Tooltip("Premium:Q", format=".2f", title="Tokens per English token"),
            ],
        )
        .add_params(pick)
        .properties(
            title=alt.TitleParams(
                PREMIUM_TITLE,
                subtitle="1 is parity with English (log scale). Click a language to pick it out.",
                anchor="start",
            ),
            height=420,
        )
    )
    return chart


def fairness_section(run: Run) -> None:
    """The Gini per tokenizer and the premiums of the sidebar's run, with a CSV."""
    st.subheader(
        "How evenly the languages are treated",
        help=markdown_text(f"Premium: {PREMIUM_DEFINITION} {PREMIUM_SOURCE}"),
    )
    try:
        with st.spinner("Encoding the declaration in 26 languages…"):
            ours = pd.DataFrame(fairness_rows(run))
            others = [fairness_rows(other) for other in openai_runs() if other.key != run.key]
    except ValueError as exc:
        st.error(f"The languages could not be compared: {markdown_text(str(exc))}")
        return
    everyone = pd.concat([ours, *(pd.DataFrame(rows) for rows in others)], ignore_index=True)
    st.altair_chart(gini_chart(everyone[["Tokenizer", "Vocab size", "Gini"]]), width="stretch")
    st.caption(markdown_text(f"Gini: {GINI_DEFINITION} {GINI_SOURCE}"))
    st.altair_chart(premium_chart(ours), width="stretch")
    size = view_vocab_size(run)
    at_view = fairness_curve(language_costs_cached(run.tokenizer, run.key).curves, [size])[0]
    dearest = max(at_view.premiums, key=at_view.premiums.__getitem__)
    st.caption(
        f"{markdown_text(PREMIUM_DEFINITION)} At vocab size {size:,}, "
        f"{markdown_text(run.spec.name)} spends {at_view.premiums[dearest]:.1f} tokens on "
        f"{markdown_text(dearest)} for every English token; its Gini is {at_view.gini:.3f}."
    )
    st.download_button(
        "Download the premiums and Gini at every size (CSV)",
        everyone.to_csv(index=False).encode("utf-8"),
        file_name="udhr_premiums_gini.csv",
        mime="text/csv",
        key=keys.COMPARE_FAIRNESS_CSV,
    )
