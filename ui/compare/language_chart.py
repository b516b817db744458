"""Compare: bytes per token in 26 languages, the current tokenizer against OpenAI's, as a
table and a chart.
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from explorer import Tokenizer, load_bundled
from explorer.analysis.compression.stats import byte_length
from ui.compare.charts import SERIES_COLORS
from ui.session.run_spec import OPENAI
from ui.session.samples import udhr_texts

LANGUAGE_COLUMNS = ["Language", "Tokenizer", "Bytes", "Tokens", "Bytes per token"]
LANGUAGE_TITLE = "Bytes per token in 26 languages"
LANGUAGE_SUBTITLE = (
    "The Universal Declaration of Human Rights (preamble and articles 1–5) in each language. "
    "Higher is better: fewer tokens for the same text."
)


def language_rows(
    name: str, tokenizer: Tokenizer, texts: dict[str, str]
) -> list[dict[str, object]]:
    """One chart row per language: its bytes, its tokens and their ratio under `tokenizer`.

    >>> row = language_rows("bytes", Tokenizer(), {"English": "hi"})[0]
    >>> row["Tokens"], row["Bytes per token"]
    (2, 1.0)
    """
    rows = []
    for language, text in texts.items():
        size, tokens = byte_length(text), len(tokenizer.encode_ordinary(text))
        rows.append(
            {
                "Language": language,
                "Tokenizer": name,
                "Bytes": size,
                "Tokens": tokens,
                "Bytes per token": size / tokens if tokens else 0.0,
            }
        )
    return rows


@st.cache_data(max_entries=16, ttl="1h", show_spinner=False)
def language_table(
    run_key: str, vocab_size: int, yours: str, names: tuple[str, ...], _tokenizer: Tokenizer
) -> pd.DataFrame:
    """Bytes per token of every UDHR language: the run (named `yours`, at `vocab_size`),
    then each bundled vocabulary in `names`, labelled as OPENAI calls it."""
    rows = language_rows(yours, _tokenizer, udhr_texts())
    for name in names:
        rows += bundled_language_rows(name)
    return pd.DataFrame(rows, columns=LANGUAGE_COLUMNS)


@st.cache_resource(max_entries=4, ttl="6h", show_spinner=False)
def bundled_language_rows(name: str) -> tuple[dict[str, object], ...]:
    """A bundled vocabulary's rows, labelled as OPENAI calls it: the same for every run
    and size, so encoded once per server (78 of a table's 104 encodes), not per table.
    Shared read only."""
    return tuple(language_rows(OPENAI.get(name, name), load_bundled(name), udhr_texts()))


def language_chart(frame: pd.DataFrame) -> alt.Chart:
    """Grouped bars: for each language, one bar per tokenizer, in the table's order."""
    languages = list(dict.fromkeys(frame["Language"]))
    series = list(dict.fromkeys(frame["Tokenizer"]))
    colors = [SERIES_COLORS[i % len(SERIES_COLORS)] for i in range(len(series))]
    chart: alt.Chart = (  # altair types mark_*() as returning Any
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X(
                "Language:N",
                sort=languages,
                title="Language",
                axis=alt.Axis(labelAngle=-45, labelOverlap=False),
            ),
            xOffset=alt.XOffset("Tokenizer:N", sort=series),
            y=alt.Y("Bytes per token:Q", title="Bytes per token"),
            color=alt.Color(
                "Tokenizer:N",
                title=None,
                sort=series,
                scale=alt.Scale(domain=series, range=colors),
                legend=alt.Legend(orient="top", labelLimit=400),
            ),
            tooltip=[
                alt.Tooltip("Language:N"),
                alt.Tooltip("Tokenizer:N"),
                alt.Tooltip("Bytes per token:Q", format=".2f"),
                alt.Tooltip("Tokens:Q", format=",d"),
                alt.Tooltip("Bytes:Q", format=",d"),
            ],
        )
        .properties(
            title=alt.TitleParams(LANGUAGE_TITLE, subtitle=LANGUAGE_SUBTITLE, anchor="start"),
            height=400,
        )
        .configure_axis(labelFontSize=12, titleFontSize=13)
    )
    return chart
