"""Vocabulary: a token's lineage in words and pictures: how it was made, how much it is
used, its graph and its descendants as chips.

    >>> code("a`b"), repr_quoted("the")
    ('`` a`b ``', "'the'")
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import pandas as pd
import streamlit as st

from explorer import Tokenizer
from explorer.analysis.vocabulary.lineage import descendants, lineage_dot
from explorer.html.scheme import declare, light_dark
from ui.views.cells import cut_cell
from ui.vocabulary.view import render

MAX_CHIPS = 80  # descendants drawn; the rest are counted
PANEL_CHARS = 2_000  # the chosen token is shown this far (a token can be a whole text)


def narration(row: pd.Series, labels: pd.Series) -> str:
    """One sentence on how a token came to be, as Markdown (token text in code spans).

    labels maps an id to its rendered token (a Series indexed by id), for the parents.
    """
    token = code(repr_quoted(cut_cell(row["token"], PANEL_CHARS)))
    if row["kind"] == "byte":
        return (
            f"Token {row['id']} is the single byte {token}: every byte-level vocabulary "
            "starts with all 256 of them."
        )
    if row["kind"] == "special":
        return f"Token {row['id']} {token} is a special token: never merged, only matched whole."
    if row["kind"] == "outside":
        return (
            f"Token {row['id']} {token} has no merge: the file lists it, but no merge makes it "
            "(it is outside the merge path), so it has no parents and no step. Encoding gives "
            "it only for a pre-token that is exactly its text, if at all (see the Check-up)."
        )
    left, right = (
        code(repr_quoted(cut_cell(labels[int(row[side])]))) for side in ("left", "right")
    )
    sentence = (
        f"Token {row['id']} {token} was created at step {row['step']:,} from {left} + {right}"
    )
    if pd.isna(row["count"]):
        return sentence + "."
    sentence += f" (count {row['count']:,})."
    if not pd.isna(row["merged"]) and row["merged"] != row["count"]:
        sentence += (
            f" Only {row['merged']:,} of those could be merged: overlapping pairs share a token."
        )
    return sentence


def usage_sentence(row: pd.Series) -> str:
    """How much the token is used in the final encoding of the training corpus."""
    if pd.isna(row["uses"]):
        return ""
    if not pd.isna(row["intermediate"]) and bool(row["intermediate"]):
        return (
            "It is **intermediate-only**: it never appears in the final encoding of the "
            "training corpus, as later merges absorbed every occurrence."
        )
    times = "time" if row["uses"] == 1 else "times"
    return f"It appears **{row['uses']:,}** {times} in the final encoding of the training corpus."


def repr_quoted(text: str) -> str:
    """A rendered token in quotes, as the parents column shows it: 'the'."""
    return f"'{text}'"


def code(text: str) -> str:
    """Markdown inline code holding any text, backticks included: nothing inside a code
    span is Markdown (no link, image, colour or math), so a token shows as it is.

    >>> code("a``b\\n\\n[x](y)")
    '``` a``b  [x](y) ```'
    """
    # subtle: a blank line would end the paragraph, and the code span with it
    text = " ".join(text.splitlines())
    longest, run = 0, 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if longest else ""  # CommonMark strips one space each side again
    return f"{fence}{pad}{text}{pad}{fence}"


@st.cache_data(max_entries=64, ttl="6h", show_spinner=False)
def descendant_ids(
    _tokenizer: Tokenizer, run_key: str, vocab_size: int, token_id: int
) -> list[int]:
    """The tokens built from a token, directly or not, ascending."""
    return descendants(_tokenizer, token_id)


@st.cache_data(max_entries=64, ttl="6h", show_spinner=False)
def lineage_graph(_tokenizer: Tokenizer, run_key: str, vocab_size: int, token_id: int) -> str:
    """Graphviz DOT for a token's lineage, labelled with rendered tokens."""
    return lineage_dot(_tokenizer, token_id, label=lambda b: cut_cell(render(b)))


def chips_html(tokenizer: Tokenizer, ids: Sequence[int], limit: int = MAX_CHIPS) -> str:
    """Tokens as small escaped chips with their ids, the first `limit` of them."""
    shown = (html.escape(cut_cell(render(tokenizer.token_bytes(i)))) for i in ids[:limit])
    chips = "".join(
        f'<span class="vchip">{text}<sub>{i}</sub></span>' for text, i in zip(shown, ids)
    )
    more = len(ids) - limit
    tail = f'<span class="vmore">… and {more:,} more</span>' if more > 0 else ""
    return f"<style>{_CHIP_STYLE}</style><div class='vchips'>{chips}{tail}</div>"


_CHIP_STYLE = (
    ".vchips{display:flex;flex-wrap:wrap;gap:4px;line-height:1.6}"
    ".vchip{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre;"
    f"{declare('background', '#e8f0fe')};border:1px solid #c6d4f5;"
    f"border-color:{light_dark('#c6d4f5', '#7C8AA8')};border-radius:4px;padding:0 5px;"
    f"{declare('color', '#1a1a1a', '#F2F2F2')}}}"
    # the id at 60 % of the text (light); on the dark chip #E0E0E0, 5.0:1
    ".vchip sub{font-size:.7em;margin-left:3px;"
    f"{declare('color', 'rgba(26,26,26,.6)', '#E0E0E0')}}}"
    f".vmore{{{declare('color', '#5f6368', '#B0B4BA')};font-style:italic;padding:0 4px}}"
)
