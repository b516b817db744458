"""Tokens for a real model's run: the text encoded by the model's own library, coloured by id.

A loaded model (explorer.models) keeps its own ids, merge ranks and normalizer, so it is
drawn apart from our runs' tokens (whose id tells the merge): each token is coloured by
its id, and its card gives the id, then, apart, the rank of the merge that makes it.
The encode is the reference library's (`tokenizers`, tiktoken), with no BOS or EOS.
"""

from __future__ import annotations

import streamlit as st

from explorer.html.piece_html import Piece, pieces_to_html
from explorer.models.model import LoadedModel
from ui.server.lru import SharedLru
from ui.session import state as keys
from ui.session.links import urls
from ui.session.runs import ModelRun
from ui.tokens.summary import show_ids
from ui.tokens.whole_text import DrawnPart, drawn_part
from ui.views.formatting import RawHtml, markdown_text
from ui.views.token_view import MAX_RENDERED_TOKENS, default_sample_excerpt, fmt_int, text_with_menu

_encodes = SharedLru(64, 4_000_000)  # (run, text) -> ids, weighed by ids


def model_ids(run: ModelRun, text: str) -> tuple[int, ...]:
    """The model's ids for a text, once per run and text (every session shares them)."""
    return _encodes.get_or_make(
        (run.key, text), lambda: tuple(run.model.encode(text)), lambda ids: len(ids) + 1
    )


def token_card(model: LoadedModel, token_id: int) -> str:
    """What hovering a token says: the id, then apart the merge that makes it.

    The id is the model's number; a merge rank is the merge's place in the file's order.
    """
    token = model.tokens.get(token_id, "")
    card = f"id {token_id:,}: {token!r}"
    if token in model.special_tokens:
        return f"{card} (special token)"
    makers = model.makers(token_id)
    if not makers:
        return f"{card} · no merge makes it (a base symbol, or a token taken whole)"
    first = makers[0]
    pair = f"{model.tokens.get(first.left, '')!r} + {model.tokens.get(first.right, '')!r}"
    more = f", and {len(makers) - 1:,} more merges make it too" if len(makers) > 1 else ""
    return f"{card} · made by merge rank {first.rank:,} ({pair}){more}"


def model_pieces(model: LoadedModel, ids: tuple[int, ...]) -> list[Piece]:
    """The pieces to draw, each id's card made once."""
    cards: dict[int, Piece] = {}
    pieces = []
    for token_id in ids[:MAX_RENDERED_TOKENS]:
        piece = cards.get(token_id)
        if piece is None:
            special = model.tokens.get(token_id, "") in model.special_tokens
            card = token_card(model, token_id)
            piece = cards[token_id] = Piece(token_id, model.token_bytes(token_id), card, special)
        pieces.append(piece)
    return pieces


def model_long_text_note(part: DrawnPart) -> str:
    """What Tokens says when it encodes only a long text's start with a real model.

    >>> model_long_text_note(DrawnPart("abc", 900_000))[:46]
    'Encoded and counted: the first 3 of 900,000 ch'
    """
    return (
        f"Encoded and counted: the first {len(part.text):,} of {part.whole_chars:,} "
        "characters, cut where a word ends (a page shows no more). The text stays whole in "
        "its box."
    )


def show_model_tokens(run: ModelRun) -> None:
    """The Tokens page for a real model's run."""
    model = run.model
    st.caption(
        f"Encoding with **{markdown_text(run.spec.name)}**, a real model's tokenizer "
        f"({markdown_text(model.file_kind)}): {fmt_int(model.vocab_size)} ids and "
        f"{fmt_int(len(model.merges))} merges, encoded by its own library with no BOS or EOS. "
        "Its ids are its own: they do not follow its merges."
    )
    text = text_with_menu(
        keys.TOKENS,
        "Text to encode",
        default_sample_excerpt(),
        run_name=run.spec.name,
        help="Type or paste anything.",
    )
    urls.update(st.query_params, {"text": urls.link_text(text)})  # a short text goes in links
    if not text:
        st.info("Type or paste some text above to see its tokens.")
        return
    part = drawn_part(text)  # a long text: its start only, on the interpreter pages share
    if part.cut:
        st.caption(model_long_text_note(part))
    text = part.text
    try:
        ids = model_ids(run, text)
    except ValueError as exc:
        st.error(f"This text could not be encoded: {markdown_text(str(exc))}")
        return
    if model.normalizer and model.normalize(text) != text:
        st.caption(
            f"The model's normalizer ({markdown_text(model.normalizer)}) changed the text "
            "before it was split: the tokens below are of the normalised text."
        )
    st.caption(
        "Each token id has its own colour; hover a token for its id and, apart, the rank of "
        "the merge that makes it. Special tokens are dark."
    )
    st.html(RawHtml(pieces_to_html(model_pieces(model, ids))))
    data = len(text.encode("utf-8", "surrogatepass"))
    row = st.container(horizontal=True, horizontal_alignment="distribute")
    row.metric("Characters", fmt_int(len(text)), width="content")
    row.metric("Bytes (UTF-8)", fmt_int(data), width="content")
    row.metric("Tokens", fmt_int(len(ids)), width="content")
    row.metric("Bytes per token", f"{data / max(1, len(ids)):.2f}", width="content")
    if len(ids) > MAX_RENDERED_TOKENS:
        st.caption(
            f"Showing the first {fmt_int(MAX_RENDERED_TOKENS)} of {fmt_int(len(ids))} "
            "tokens; the counts above cover the whole text."
        )
    show_ids(ids, len(ids))
    st.caption(
        "Encode step by step and the other pages show our own runs' merges; a real model's "
        "trace, vocabulary and comparisons come next."
    )
