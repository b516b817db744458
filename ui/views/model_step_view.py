"""A real model's encode, one merge at a time: the chunk before and after a step, the pairs
that could merge (each with its rank), and the whole text at that step.

Shared by Tokens (encode step by step) and Animate (the passage replayed). The steps come
from `explorer.models.trace_steps`; each names the three numbers apart: the **step** (the
n-th merge applied to this text), the merge's **rank** and the tokens' **ids**.
"""

from __future__ import annotations

import streamlit as st

from explorer.html.piece_html import Piece, pieces_to_html
from explorer.models.model import LoadedModel, ModelTrace
from explorer.models.token_facts import pair_words, shown_token, token_card, token_kind
from explorer.models.trace_steps import (
    ModelStep,
    after,
    before,
    candidates,
    ids_at,
    model_steps,
)
from ui.server.lru import SharedLru
from ui.session.runs import ModelRun
from ui.views.formatting import RawHtml, markdown_text, plural
from ui.views.token_text import paragraph_html
from ui.views.token_view import MAX_RENDERED_TOKENS

MAX_CANDIDATES_SHOWN = 12
WINDOW_TOKENS = 40  # a long chunk is drawn this many tokens either side of the pair
_traces = SharedLru(64, 400_000)  # (run, text) -> (trace, steps), weighed by steps


def traced(run: ModelRun, text: str) -> tuple[ModelTrace, list[ModelStep]]:
    """The model's trace of a text and its steps, once per run and text (shared)."""

    def make() -> tuple[ModelTrace, list[ModelStep]]:
        trace = run.model.trace(text)
        return trace, model_steps(run.model, trace)

    return _traces.get_or_make((run.key, text), make, lambda found: len(found[1]) + 1)


def model_pieces(model: LoadedModel, ids: tuple[int, ...]) -> list[Piece]:
    """The pieces to draw, each id's card made once: a SentencePiece-style model's tokens
    as its file writes them (`▁the`, `<0xE3>`), byte-fallback tokens marked."""
    cards: dict[int, Piece] = {}
    pieces = []
    for token_id in ids[:MAX_RENDERED_TOKENS]:
        piece = cards.get(token_id)
        if piece is None:
            kind = token_kind(model, token_id)
            piece = cards[token_id] = Piece(
                token_id,
                model.token_bytes(token_id),
                token_card(model, token_id),
                special=kind == "special",
                shown=shown_token(model, token_id) if model.base == "characters" else None,
                fallback=kind == "byte fallback",
            )
        pieces.append(piece)
    return pieces


def narration(
    model: LoadedModel, steps: list[ModelStep], number: int, chunks: int, pairs: int
) -> str:
    """What step `number` does, in words (step 0: where the encode starts); `pairs` is how
    many pairs had a merge at that step."""
    if number == 0:
        if not steps:
            return (
                "No merge applies: every pre-token is already a token (taken whole) or a "
                "single base symbol."
            )
        return (
            f"The text cut into {plural(chunks, 'pre-token')}, each as its base symbols. "
            f"{plural(len(steps), 'merge')} follow, the lowest rank first in each pre-token."
        )
    step = steps[number - 1]
    made = model.tokens.get(step.merge.result, "?")
    among = (
        f", the lowest among {plural(pairs, 'pair')} that have a merge"
        if pairs > 1
        else ", the only pair that has a merge"
    )
    return (
        f"Step {number:,} of {len(steps):,}: merge {pair_words(model, step.merge)} makes id "
        f"{step.merge.result:,} ({made!r}){among}."
    )


def show_model_step(
    model: LoadedModel, trace: ModelTrace, steps: list[ModelStep], number: int
) -> None:
    """The step on screen: narration, the chunk before and after, the pairs, the whole text."""
    if number == 0:
        st.html(RawHtml(paragraph_html(narration(model, steps, 0, len(trace.chunks), 0))))
        whole = [i for ids in ids_at(trace, steps, 0) for i in ids]
        st.markdown(f"**The text at step 0** · {plural(len(whole), 'token')}")
        st.html(RawHtml(pieces_to_html(model_pieces(model, tuple(whole)))))
        return
    step = steps[number - 1]
    ids_before, ids_after = before(trace, step), after(trace, step)
    pairs = candidates(model, ids_before)
    st.html(RawHtml(paragraph_html(narration(model, steps, number, len(trace.chunks), len(pairs)))))
    where = f"Pre-token {step.chunk + 1:,} of {len(trace.chunks):,}"
    start, end = window(len(ids_before), step.position)
    near = f" (tokens {start + 1:,}–{end:,} of it)" if end - start < len(ids_before) else ""
    st.markdown(f"**{where}, before** · {plural(len(ids_before), 'token')}{near}")
    fusing = (step.position - start, step.position + 1 - start)
    st.html(RawHtml(pieces_to_html(model_pieces(model, ids_before[start:end]), outlined=fusing)))
    lowest = sorted(pairs, key=lambda c: (c.rank, c.position))[:MAX_CANDIDATES_SHOWN]
    listed = ", ".join(_candidate(model, step, ids_before, c.position, c.rank) for c in lowest)
    more = len(pairs) - len(lowest)
    tail = f", and {more:,} more" if more else ""
    st.caption(f"Pairs that have a merge, lowest rank first (the first fuses): {listed}{tail}")
    st.markdown(f"**After step {number:,}** · {plural(len(ids_after), 'token')}{near}")
    fused = (step.position - start,)
    st.html(
        RawHtml(pieces_to_html(model_pieces(model, ids_after[start : end - 1]), outlined=fused))
    )
    whole = [i for ids in ids_at(trace, steps, number) for i in ids]
    st.markdown(f"**The whole text after step {number:,}** · {plural(len(whole), 'token')}")
    st.html(RawHtml(pieces_to_html(model_pieces(model, tuple(whole)))))


def window(length: int, position: int, around: int = WINDOW_TOKENS) -> tuple[int, int]:
    """The stretch of a long chunk drawn around the pair at `position` (the whole when short).

    >>> window(10, 4), window(500, 250), window(500, 2)
    ((0, 10), (210, 292), (0, 82))
    """
    if length <= 2 * around + 2:
        return 0, length
    start = max(0, min(position - around, length - 2 * around - 2))
    return start, start + 2 * around + 2


def _candidate(
    model: LoadedModel, step: ModelStep, ids: tuple[int, ...], position: int, rank: int
) -> str:
    """One pair as Markdown (the model's tokens escaped); the one that fuses in bold."""
    left = model.tokens.get(ids[position], "?")
    right = model.tokens.get(ids[position + 1], "?")
    pair = f"{markdown_text(repr(left))} + {markdown_text(repr(right))} rank {rank:,}"
    return f"**{pair}** (fuses)" if position == step.position else pair
