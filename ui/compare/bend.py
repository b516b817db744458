"""Compare: where each compression curve bends, as rules on the chart and one sentence each.

The bend is explorer/analysis/compression/curve_bend.py's: the smallest vocab size past which every
doubling of the vocabulary gains less than 5 % bytes per token.

    >>> from explorer.analysis.compression.curve_bend import Bend, BendKind
    >>> bend_sentence("Your text", Bend(BendKind.BEND, 1200, 0.04, 5000))
    '**Your text**: beyond about 1,200 tokens, each doubling gains less than 5 % on this text.'
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd
import streamlit as st

from explorer.analysis.compression.curve_bend import Bend, BendKind, find_bend, ratios_from_counts
from ui.session.runs import Run
from ui.views.formatting import markdown_text

DEFINITION = (
    "Where the curve bends: the smallest vocab size N such that doubling the vocabulary, "
    "from N or from any larger size the curve reaches, gains less than 5 % bytes per token "
    "(bytes per token at 2N is less than 1.05 times that at N). The dotted lines mark it on "
    "each curve; a curve too short to double (it ends below 512) cannot say."
)
RULE_DASH = [2, 3]


def bends_of(curves: dict[str, Sequence[int]]) -> dict[str, Bend]:
    """Each curve's bend (a curve of token counts at every size; linear in its length)."""
    return {name: find_bend(ratios_from_counts(counts)) for name, counts in curves.items()}


def percent(gain: float) -> str:
    """A gain as people read it here: `percent(0.05) == '5 %'`."""
    return f"{gain * 100:,.0f} %"


def bend_sentence(name: str, bend: Bend, stopped_early_at: int | None = None) -> str:
    """One sentence for a curve's bend, in Markdown (the curve's name in bold)."""
    head = f"**{markdown_text(name)}**: "
    limit = percent(bend.threshold)
    if bend.kind is BendKind.BEND:
        start = " — from the very start: the merges barely touch it" if bend.size == 256 else ""
        return (
            f"{head}beyond about {bend.size:,} tokens, each doubling gains less than "
            f"{limit} on this text{start}."
        )
    if bend.kind is BendKind.STILL_GAINING:
        assert bend.size is not None
        more = (
            f" Training stopped at {stopped_early_at:,} (no pair was left to merge), so "
            "this is as far as it can tell."
            if stopped_early_at
            else " Train a larger vocabulary to find where it bends."
        )
        return (
            f"{head}no bend yet: still gaining more than {limit} per doubling at "
            f"{bend.size:,} tokens (doubling to {2 * bend.size:,} gains "
            f"{percent(bend.gain_at_size)}).{more}"
        )
    if bend.kind is BendKind.TOO_SHORT:
        return (
            f"{head}too short to tell: the curve ends at {bend.last_size:,} tokens, and a "
            "first doubling needs 512."
        )
    if bend.kind is BendKind.FLAT:
        return f"{head}no merge shortens this text, so its curve is flat: there is no bend."
    return f"{head}empty: nothing to measure."


def bend_frame(bends: dict[str, Bend], curves: dict[str, Sequence[int]]) -> pd.DataFrame:
    """One row per curve that bends: where, its bytes per token there, and the sentence."""
    rows = []
    for name, bend in bends.items():
        if bend.kind is not BendKind.BEND or bend.size is None:
            continue
        counts = curves[name]
        tokens = counts[min(bend.size - 256, len(counts) - 1)]
        rows.append(
            {
                "Text": name,
                "Vocab size": bend.size,
                "Bytes per token": counts[0] / tokens if tokens else 0.0,
                "Bend": f"beyond about {bend.size:,} tokens, each doubling gains less "
                f"than {percent(bend.threshold)}",
            }
        )
    return pd.DataFrame(rows, columns=["Text", "Vocab size", "Bytes per token", "Bend"])


def bend_marks(bends: dict[str, Bend], curves: dict[str, Sequence[int]]) -> list[alt.Chart]:
    """A dotted rule in each curve's colour at its bend, with a tooltip, and a label."""
    frame = bend_frame(bends, curves)
    if frame.empty:
        return []
    x = alt.X("Vocab size:Q")
    color = alt.Color("Text:N", legend=None)
    tooltip = [
        alt.Tooltip("Text:N"),
        alt.Tooltip("Vocab size:Q", title="Bends at", format=",d"),
        alt.Tooltip("Bytes per token:Q", format=".2f"),
        alt.Tooltip("Bend:N", title="Past it"),
    ]
    base = alt.Chart(frame)
    rule = base.mark_rule(strokeDash=RULE_DASH, strokeWidth=2).encode(x, color, tooltip=tooltip)
    label = base.mark_text(align="left", baseline="bottom", dx=4, dy=-4, fontSize=11).encode(
        x, y=alt.Y("Bytes per token:Q"), color=color, text=alt.value("bend"), tooltip=tooltip
    )
    return [rule, label]


def stopped_early_at(run: Run) -> int | None:
    """The vocab size a trained run reached when it stopped before the size asked for."""
    reached = run.tokenizer.vocab_size
    return reached if run.spec.kind.has_corpus and reached < run.spec.vocab_size else None


def show_bend_sentences(bends: dict[str, Bend], stopped_early_at: int | None = None) -> None:
    """The sentence of each curve, then the definition as a caption.

    `stopped_early_at`: the vocab size a run reached when training stopped before the
    size it was asked for (every curve of the run ends there).
    """
    for name, bend in bends.items():
        if bend.kind is not BendKind.EMPTY:
            st.markdown(bend_sentence(name, bend, stopped_early_at))
    st.caption(DEFINITION)
