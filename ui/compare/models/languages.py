"""Compare real models on the UDHR in 26 languages: bytes per token, tokens per word, and
each language's premium against English, one bar per tokenizer.

Each (tokenizer, language) is encoded once per process and its count kept (a SharedLru of
small numbers): a fifth tokenizer added to four costs 26 encodes, not 130. A real model's
26 texts go to its library in one batch.

    >>> rows = language_rows("t", {"English": "a b", "Thai": "ab"}, {"English": 2, "Thai": 4})
    >>> [(r["Language"], r["Tokens per word"], r["Premium against English"]) for r in rows]
    [('English', 1.0, 1.0), ('Thai', 4.0, 2.0)]
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd

from explorer.analysis.compression.language_cost import REFERENCE_LANGUAGE
from explorer.analysis.compression.stats import byte_length
from ui.compare.models.members import Member
from ui.server.lru import SharedLru

METRICS = ("Bytes per token", "Tokens per word", "Premium against English")
METRIC_HELP = {
    "Bytes per token": "Higher is better: fewer tokens for the same text.",
    "Tokens per word": "Lower is better. Words are split at spaces, so a script written "
    "without spaces between words (Chinese, Japanese, Thai, Khmer, Burmese) counts phrases.",
    "Premium against English": "Tokens for the language ÷ tokens for English, for the same "
    "declaration: 1 is parity, 2 costs twice as many (Petrov et al., NeurIPS 2023).",
}
MODELS_CHART_TITLE = "Real models on 26 languages"
COLUMNS = [
    "Language",
    "Tokenizer",
    "Bytes",
    "Words",
    "Tokens",
    *METRICS,
]
BAR_PIXELS = 5  # each tokenizer's bar in a language's band
SUBTITLE_CHARS = 48  # a subtitle's line: a phone's width
# Tableau 10's first six: one colour per tokenizer, apart in hue and lightness
MODEL_COLORS = ("#4C78A8", "#F58518", "#54A24B", "#B279A2", "#E45756", "#72B7B2")
_counts = SharedLru(2_048)  # (member key, language) -> tokens: small numbers


def token_counts(member: Member, texts: Mapping[str, str]) -> dict[str, int]:
    """Each language's token count under `member`, encoding only the ones not kept yet
    (in one batch)."""
    counts = {language: _counts.get((member.key, language)) for language in texts}
    missing = [language for language, count in counts.items() if count is None]
    if missing:
        for language, ids in zip(missing, member.encode_all([texts[x] for x in missing])):
            counts[language] = len(ids)
            _counts.put((member.key, language), len(ids))
    return {language: int(count or 0) for language, count in counts.items()}


def language_rows(
    name: str, texts: Mapping[str, str], counts: Mapping[str, int]
) -> list[dict[str, object]]:
    """One row per language: bytes, words, tokens, and the three measures."""
    english = counts.get(REFERENCE_LANGUAGE, 0)
    rows: list[dict[str, object]] = []
    for language, text in texts.items():
        size, words, tokens = byte_length(text), len(text.split()), counts[language]
        rows.append(
            {
                "Language": language,
                "Tokenizer": name,
                "Bytes": size,
                "Words": words,
                "Tokens": tokens,
                "Bytes per token": size / tokens if tokens else 0.0,
                "Tokens per word": tokens / words if words else 0.0,
                "Premium against English": tokens / english if english else 0.0,
            }
        )
    return rows


def models_frame(members: Sequence[Member], texts: Mapping[str, str]) -> pd.DataFrame:
    """Every member's rows, in the members' order."""
    rows: list[dict[str, object]] = []
    for member in members:
        rows += language_rows(member.label, texts, token_counts(member, texts))
    return pd.DataFrame(rows, columns=COLUMNS)


def models_chart(frame: pd.DataFrame, metric: str) -> alt.Chart:
    """Bars of `metric` across: a band per language, one bar per tokenizer in it; the
    languages down the page, so a phone reads all 26 as a laptop does."""
    languages = list(dict.fromkeys(frame["Language"]))
    series = list(dict.fromkeys(frame["Tokenizer"]))
    colors = [MODEL_COLORS[i % len(MODEL_COLORS)] for i in range(len(series))]
    subtitle = textwrap.wrap(
        f"{metric} of the UDHR (preamble, articles 1–5) in each language. {METRIC_HELP[metric]}",
        SUBTITLE_CHARS,
    )
    chart: alt.Chart = (  # altair types mark_*() as returning Any
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=alt.Y(
                "Language:N",
                sort=languages,
                title=None,
                axis=alt.Axis(labelOverlap=False, labelLimit=120),
            ),
            yOffset=alt.YOffset("Tokenizer:N", sort=series),
            x=alt.X(f"{metric}:Q", title=metric, axis=alt.Axis(orient="top")),
            color=alt.Color(
                "Tokenizer:N",
                title=None,
                sort=series,
                scale=alt.Scale(domain=series, range=colors),
                legend=alt.Legend(orient="top", direction="vertical", labelLimit=300),
            ),
            tooltip=[
                alt.Tooltip("Language:N"),
                alt.Tooltip("Tokenizer:N"),
                alt.Tooltip(f"{metric}:Q", format=".2f"),
                alt.Tooltip("Tokens:Q", format=",d"),
                alt.Tooltip("Bytes:Q", format=",d"),
                alt.Tooltip("Words:Q", format=",d"),
            ],
        )
        .properties(
            title=alt.TitleParams(MODELS_CHART_TITLE, subtitle=subtitle, anchor="start"),
            height=alt.Step(BAR_PIXELS),  # with an offset channel, a step is one bar
        )
        .configure_axis(labelFontSize=12, titleFontSize=13)
    )
    return chart
