"""Compare real models: one passage as two to four tokenizers split it, side by side, the
places where any of them splits it differently numbered alike on every side.

A token's place in the text comes from the bytes it spells, laid end to end. A real model
whose normalizer changes the text (a `▁` prepended, NFC) spells another text: its tokens
are laid against the text it saw (a leading space it added is set aside), and when that is
not the passage its column says so and takes no part in the numbering.

    >>> token_spans([b"the", b" cat"], "the cat".encode())
    [(0, 3), (3, 7)]
    >>> token_spans([b" the", b" cat"], "the cat".encode())  # a prepended ▁, set aside
    [(0, 3), (3, 7)]
    >>> token_spans([b"x"], b"y") is None
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from explorer.analysis.diffs.split_diff import (
    differing_spans_among,
    span_of_tokens,
    token_boundaries,
)
from explorer.encoding.pretokenize import as_unicode
from explorer.html.split_html import pieces_split_html
from ui.compare.models.members import Member
from ui.session import state as keys
from ui.session.samples import udhr_texts
from ui.views.formatting import excerpt, markdown_text, plural

MIN_SIDES, MAX_SIDES = 2, 4
MAX_CHARS = 5_000  # of the passage: a side-by-side reading, not a corpus
DEFAULT_PASSAGE_CHARS = 400


@dataclass(frozen=True)
class Side:
    """One column: the member, its ids, and their byte spans in the passage (None when
    its tokens spell another text than the passage)."""

    member: Member
    ids: tuple[int, ...]
    spans: list[tuple[int, int]] | None


def token_spans(pieces: Sequence[bytes], text: bytes) -> list[tuple[int, int]] | None:
    """Each token's byte span in `text`, from the bytes the tokens spell end to end; a
    space the model put in front is set aside; None when they spell another text."""
    joined = b"".join(pieces)
    shift = 0
    if joined != text:
        if joined == b" " + text:
            shift = 1
        else:
            return None
    spans, offset = [], -shift
    for piece in pieces:
        start, offset = offset, offset + len(piece)
        spans.append((max(0, start), max(0, offset)))
    return spans


def default_passage() -> str:
    """The English declaration's start, cut where a word ends."""
    return excerpt(udhr_texts()["English"], DEFAULT_PASSAGE_CHARS)


def side_of(member: Member, text: str) -> Side:
    (ids,) = member.encode_all([text])
    pieces = [member.token_bytes(token) for token in ids]
    return Side(member, tuple(ids), token_spans(pieces, text.encode("utf-8", "surrogatepass")))


def count_sentence(count: int, sides: int) -> str:
    """The headline.

    >>> count_sentence(3, 4), count_sentence(0, 2)
    ('3 places where the splits differ', 'All 2 split this passage the same way')
    """
    if count == 0:
        return f"All {sides} split this passage the same way"
    return f"{plural(count, 'place')} where the splits differ"


def models_passage_section(members: Sequence[Member]) -> None:
    """The passage box, then the chosen tokenizers' splits side by side."""
    st.subheader("One passage, side by side")
    passage = st.text_area(
        "Passage",
        value=default_passage(),
        key=keys.COMPARE_MODELS_PASSAGE,
        height=110,
        help="Any text: each tokenizer below splits it; the numbered places are where they differ.",
    )
    labels = [member.label for member in members]
    shown = st.multiselect(
        "Side by side (two to four)",
        labels,
        default=labels[:MAX_SIDES],
        max_selections=MAX_SIDES,
        key=keys.COMPARE_MODELS_SIDES,
    )
    chosen = [member for member in members if member.label in shown]
    if len(chosen) < MIN_SIDES:
        st.info("Choose two to four tokenizers to see the passage side by side.")
        return
    text = as_unicode(excerpt(passage, MAX_CHARS))
    if not text:
        st.info("Type a passage above to see how each tokenizer splits it.")
        return
    show_sides([side_of(member, text) for member in chosen], text)
    if len(passage) > len(text):
        st.caption(f"The passage's first {len(text):,} characters.")


def show_sides(sides: Sequence[Side], text: str) -> None:
    """The columns, the places where their splits differ numbered alike."""
    laid = [side for side in sides if side.spans is not None]
    places = (
        differing_spans_among(text, [token_boundaries(side.spans or []) for side in laid])
        if len(laid) > 1
        else []
    )
    st.markdown(f"### {count_sentence(len(places), len(laid))}")
    st.caption(
        "Highlighted and numbered alike in every column: a stretch between boundaries all "
        "share that one of them splits differently (each token outlined, spaces as ·); the "
        "text all split alike is grey. Hover a token for its id and, for a real model, the "
        "rank of the merge that makes it."
    )
    for column, side in zip(st.columns(len(sides)), sides):
        with column:
            member = side.member
            st.markdown(f"**{markdown_text(member.label)}**")
            st.caption(f"{plural(len(side.ids), 'token')} · {member.vocab_size:,} ids")
            owners: Sequence[int | None]
            if side.spans is None:
                st.caption(
                    "Its normalizer changed this passage, so its tokens spell another text: "
                    "shown whole, outside the numbering."
                )
                owners = [None] * len(side.ids)
            else:
                owners = span_of_tokens(side.spans, places)
            st.html(pieces_split_html(member.token_bytes, member.card, side.ids, owners))
