"""Compare: how much of your vocabulary GPT-2, GPT-4 and GPT-4o already have, and what they lack.

The three bundled vocabularies are reduced to sets of bytes once per process
(`st.cache_resource`, keyed on the name); the overlap at a vocab size is cached per run.
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from explorer import Tokenizer, load_bundled
from explorer.analysis.vocabulary.vocab_overlap import (
    TOP_MISSING,
    VocabOverlap,
    vocabulary_bytes,
    vocabulary_overlap,
)
from explorer.html.render import render_token
from ui.compare.charts import SERIES_COLORS
from ui.session.run_cache import tokenizer_at
from ui.session.run_spec import OPENAI, RunKind
from ui.session.runs import Run, view_vocab_size
from ui.views.cells import cut_columns
from ui.views.formatting import markdown_text, plural
from ui.views.shared_charts import show_chart

OVERLAP_TITLE = "Your tokens that GPT's vocabularies have"
MISSING_COLUMNS = ["Merge", "Token", "Length in bytes", "Hex"]


@st.cache_resource(max_entries=3, ttl="6h", show_spinner=False)
def bundled_bytes_cached(name: str) -> frozenset[bytes]:
    """Every byte string one bundled vocabulary has as a token (shared, read only)."""
    return vocabulary_bytes(load_bundled(name))


@st.cache_resource(max_entries=16, ttl="1h", show_spinner=False)
def overlaps_cached(
    _tokenizer: Tokenizer, run_key: str, vocab_size: int, names: tuple[str, ...]
) -> tuple[VocabOverlap, ...]:
    """Your tokens at `vocab_size` against each bundled vocabulary in `names`."""
    return tuple(
        vocabulary_overlap(_tokenizer, bundled_bytes_cached(name), OPENAI[name]) for name in names
    )


def others_than(run: Run) -> tuple[tuple[str, ...], str | None]:
    """The bundled vocabularies to compare with, and the run's own when it is one of them."""
    own = run.spec.text_key if run.spec.kind is RunKind.BUNDLED else None
    return tuple(name for name in OPENAI if name != own), own


def overlap_frame(overlaps: tuple[VocabOverlap, ...]) -> pd.DataFrame:
    """One row per vocabulary: how many of yours it has, lacks, and the share."""
    rows = [(o.name, o.share, o.shared, o.missing, o.considered) for o in overlaps]
    return pd.DataFrame(rows, columns=["Vocabulary", "Share", "Shared", "Missing", "Yours"])


def overlap_chart(frame: pd.DataFrame, size: int) -> alt.Chart:
    """One bar per GPT vocabulary: the share of your merged tokens it has."""
    names = list(frame["Vocabulary"])
    colors = [SERIES_COLORS[1 + list(OPENAI.values()).index(name)] for name in names]
    subtitle = [
        f"Your merged tokens at vocab size {size:,}, compared by their bytes",
        "(the 256 single bytes and special tokens left out).",
    ]
    chart: alt.Chart = (  # altair types mark_*() as returning Any
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X(
                "Share:Q", title="Share of your merged tokens", axis=alt.Axis(format="%")
            ).scale(domain=[0, 1]),
            y=alt.Y("Vocabulary:N", sort=names, title="GPT vocabulary"),
            color=alt.Color("Vocabulary:N", scale=alt.Scale(domain=names, range=colors)).legend(
                None
            ),
            tooltip=[
                alt.Tooltip("Vocabulary:N"),
                alt.Tooltip("Share:Q", format=".1%"),
                alt.Tooltip("Shared:Q", format=",d", title="Of yours it has"),
                alt.Tooltip("Missing:Q", format=",d", title="Of yours it lacks"),
            ],
        )
        .properties(
            title=alt.TitleParams(OVERLAP_TITLE, subtitle=subtitle, anchor="start"),
            height=alt.Step(36),
        )
        .configure_axis(labelFontSize=12, titleFontSize=13)
    )
    return chart


def missing_frame(overlap: VocabOverlap) -> pd.DataFrame:
    """The longest of your tokens the vocabulary lacks: printable label and hex."""
    rows = [
        (
            token.merge,
            render_token(token.data, visible_whitespace=True),
            len(token.data),
            token.data.hex(" "),
        )
        for token in overlap.largest_missing
    ]
    return pd.DataFrame(rows, columns=MISSING_COLUMNS)


def overlap_section(run: Run) -> None:
    """Metrics, a bar chart and the largest missing tokens, at the sidebar's view size."""
    st.header("How much of your vocabulary GPT already has")
    size = view_vocab_size(run)
    names, own = others_than(run)
    if own is not None:
        st.info(
            f"This is {OPENAI[own]}'s own vocabulary, so it has every one of its tokens: it "
            "is left out, and the others are compared with it."
        )
    if size == 256:
        st.info(
            "At vocab size 256 there are only the 256 single bytes, which every byte-level "
            "vocabulary has. Move the sidebar's view size up (or train with a larger vocab) "
            "to compare the tokens your merges made."
        )
        return
    try:
        with st.spinner("Loading GPT-2, GPT-4 and GPT-4o's vocabularies (a few seconds, once)…"):
            overlaps = overlaps_cached(
                tokenizer_at(run.tokenizer, run.key, size), run.key, size, names
            )
    except ValueError as exc:  # BundledError: a vocabulary file missing or altered
        st.error(f"OpenAI's vocabularies could not be loaded: {markdown_text(str(exc))}")
        return
    show_overlaps(overlaps, size, run)


def show_overlaps(overlaps: tuple[VocabOverlap, ...], size: int, run: Run) -> None:
    """The metrics row, the chart and one table of missing tokens per vocabulary."""
    considered = overlaps[0].considered
    for column, overlap in zip(st.columns(len(overlaps)), overlaps):
        column.metric(
            f"In {overlap.name}'s vocabulary",
            f"{overlap.share:.0%}",
            help=f"{overlap.shared:,} of your {plural(considered, 'merged token')} are tokens "
            f"of {overlap.name} too; {overlap.missing:,} are not.",
        )
    frame = overlap_frame(overlaps)
    show_chart(("overlap", run.key, size), lambda: overlap_chart(frame, size))
    st.caption(
        f"{markdown_text(run.spec.name)} at vocab size {size:,} has "
        f"{plural(considered, 'distinct merged token')}, compared by their bytes; the 256 "
        "single bytes (in every byte-level vocabulary) and special tokens are left out. "
        f"Below, the longest {TOP_MISSING} of yours that each lacks: often whole words of "
        "your text, or spacing a GPT pattern splits apart."
    )
    tabs = st.tabs([f"Missing from {overlap.name}" for overlap in overlaps])
    for tab, overlap in zip(tabs, overlaps):
        with tab:
            if not overlap.largest_missing:
                st.success(f"{overlap.name} has every one of your merged tokens.")
                continue
            st.dataframe(
                cut_columns(missing_frame(overlap), ["Token", "Hex"]),
                hide_index=True,
                width="stretch",
                column_config={
                    "Merge": st.column_config.NumberColumn(
                        help="Merge k made token id 255 + k", format="%d"
                    ),
                    "Token": st.column_config.TextColumn(help="Spaces show as ·, newlines as ↵"),
                    "Hex": st.column_config.TextColumn(help="The token's UTF-8 bytes"),
                },
            )
