"""Compare real models: how much of each vocabulary the others have, by the bytes their
tokens spell (ids differ from model to model; bytes do not).

A vocabulary here is the set of byte strings its tokens spell, longer than one byte,
special tokens aside: single bytes are in every byte-level vocabulary, and a
SentencePiece-style model's `▁the` spells b" the" as a byte-level model's `Ġthe` does.
Each set is built once per process (a 262k-id vocabulary in about a second).

    >>> shares({"a": frozenset({b"ab", b"cd"}), "b": frozenset({b"ab"})})
    [('a', 'a', 1.0, 2), ('a', 'b', 0.5, 1), ('b', 'a', 1.0, 1), ('b', 'b', 1.0, 1)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd
import streamlit as st

from ui.compare.models.members import Member
from ui.server.lru import SharedLru
from ui.views.formatting import markdown_text
from ui.views.shared_charts import show_chart

OVERLAP_TITLE = "Share of each vocabulary's tokens the other has"
OVERLAP_COLUMNS = ["Vocabulary", "Has tokens of", "Share", "Shared"]
_vocabularies = SharedLru(8)  # member key -> frozenset of bytes, shared read only


def vocabulary_of(member: Member) -> frozenset[bytes]:
    """The member's byte strings (see the module docstring), once per process."""
    return _vocabularies.get_or_make(member.key, member.vocabulary, len)


def shares(vocabularies: Mapping[str, frozenset[bytes]]) -> list[tuple[str, str, float, int]]:
    """For each pair (row, column): the share of the row's tokens the column has, and how
    many that is."""
    rows = []
    for name, own in vocabularies.items():
        for other_name, other in vocabularies.items():
            shared = len(own & other) if other_name != name else len(own)
            rows.append((name, other_name, shared / len(own) if own else 0.0, shared))
    return rows


def overlap_chart(frame: pd.DataFrame, names: Sequence[str]) -> alt.LayerChart:
    """A square of shares: rows are vocabularies, columns the one compared with."""
    base = alt.Chart(frame).encode(
        x=alt.X(
            "Has tokens of:N",
            sort=list(names),
            title="…that this vocabulary has",
            axis=alt.Axis(labelAngle=-30, labelLimit=220),
        ),
        y=alt.Y(
            "Vocabulary:N",
            sort=list(names),
            title="Share of this vocabulary's tokens…",
            axis=alt.Axis(labelLimit=220),
        ),
    )
    cells = base.mark_rect().encode(
        color=alt.Color(
            "Share:Q",
            scale=alt.Scale(scheme="blues", domain=[0, 1]),
            legend=alt.Legend(format="%", title="Share"),
        ),
        tooltip=[
            alt.Tooltip("Vocabulary:N"),
            alt.Tooltip("Has tokens of:N"),
            alt.Tooltip("Share:Q", format=".1%"),
            alt.Tooltip("Shared:Q", format=",d"),
        ],
    )
    labels = base.mark_text(fontSize=13).encode(
        text=alt.Text("Share:Q", format=".0%"),
        color=alt.condition("datum.Share > 0.55", alt.value("white"), alt.value("#1A1A1A")),
    )
    chart: alt.LayerChart = (  # altair types configure_*() as returning Any
        alt.layer(cells, labels)
        .properties(
            title=alt.TitleParams(
                OVERLAP_TITLE,
                subtitle="Compared by the bytes each token spells; single bytes and special "
                "tokens left out.",
                anchor="start",
            ),
            height=alt.Step(56),
            width=alt.Step(110),
        )
        .configure_axis(labelFontSize=12, titleFontSize=13)
    )
    return chart


def models_overlap_section(members: Sequence[Member]) -> None:
    """The overlap square, and a sentence on the largest."""
    st.subheader("Their vocabularies' overlap")
    with st.spinner("Reading each vocabulary's tokens as bytes…"):
        vocabularies = {member.label: vocabulary_of(member) for member in members}
    frame = pd.DataFrame(shares(vocabularies), columns=OVERLAP_COLUMNS)
    names = [member.label for member in members]
    show_chart(("models-overlap", *(m.key for m in members)), lambda: overlap_chart(frame, names))
    sizes = ", ".join(
        f"{markdown_text(name)}: {len(vocab):,}" for name, vocab in vocabularies.items()
    )
    st.caption(f"Distinct byte strings of two bytes or more in each vocabulary ({sizes}).")
