"""Tokens for a real model's run: the text encoded by the model's own library, coloured by id.

A loaded model (explorer.models) keeps its own ids, merge ranks and normalizer, so it is
drawn apart from our runs' tokens (whose id tells the merge): each token is coloured by
its id, and its card gives the id, then, apart, every merge that makes it with its rank
(explorer.models.token_facts). When the normalizer changed the text, the normalised text
is shown beside the original, the changes by code point.
The encode is the reference library's (`tokenizers`, tiktoken), with no BOS or EOS.
"""

from __future__ import annotations

import streamlit as st

from explorer.html.piece_html import pieces_to_html
from explorer.models.model import LoadedModel
from explorer.models.normal_diff import MAX_CHANGES, changes, code_points
from ui.server.lru import SharedLru
from ui.session import state as keys
from ui.session.links import urls
from ui.session.runs import ModelRun
from ui.tokens import model_steps
from ui.tokens.summary import show_ids
from ui.tokens.whole_text import DrawnPart, drawn_part
from ui.views.formatting import RawHtml, markdown_text
from ui.views.model_step_view import model_pieces
from ui.views.section import guarded
from ui.views.token_view import MAX_RENDERED_TOKENS, default_sample_excerpt, fmt_int, text_with_menu

_encodes = SharedLru(64, 4_000_000)  # (run, text) -> ids, weighed by ids


def model_ids(run: ModelRun, text: str) -> tuple[int, ...]:
    """The model's ids for a text, once per run and text (every session shares them)."""
    return _encodes.get_or_make(
        (run.key, text), lambda: tuple(run.model.encode(text)), lambda ids: len(ids) + 1
    )


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


NUMBERING = (
    "Three numbers, never mixed: a token's **id** is the model's own; a merge's **rank** is "
    "its place in the file's merge order, from 0; a **step** counts the merges applied to "
    "one text (Encode step by step)."
)
SHOWN_NORMALIZED_CHARS = 2_000  # the normalised text beside the original: its start


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
    show_normalized(model, text)
    st.caption(
        "Each token id has its own colour; hover a token for its id and, apart, every merge "
        "that makes it with its rank. Special tokens are dark."
        + (
            " Tokens are written as the model writes them: `▁` is a space, and an underlined "
            "`<0xE3>` is one byte of a character the vocabulary lacks (byte fallback)."
            if model.base == "characters"
            else ""
        )
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
    st.caption(NUMBERING)
    with guarded("Encode step by step"):
        model_steps.section(run, text)
    show_ids(ids, len(ids))


def show_normalized(model: LoadedModel, text: str) -> None:
    """The normalised text beside the original, and what changed, when the normalizer
    changed it (the tokens are of the normalised text)."""
    if not model.normalizer:
        return
    normalized = model.normalize(text)
    if normalized == text:
        st.caption(
            f"The model's normalizer ({markdown_text(model.normalizer)}) leaves this text as it is."
        )
        return
    st.caption(
        f"The model's normalizer ({markdown_text(model.normalizer)}) changed the text before "
        "it was split: the tokens below are of the normalised text, shown beside yours."
    )
    cut = SHOWN_NORMALIZED_CHARS
    yours, seen = st.columns(2)
    yours.markdown("**Your text**")
    yours.code(text[:cut], language=None, wrap_lines=True)
    seen.markdown(f"**What the model sees** (after {markdown_text(model.normalizer)})")
    seen.code(normalized[:cut], language=None, wrap_lines=True)
    found = changes(text[:cut], normalized[:cut])
    if found:
        listed = markdown_text(
            "; ".join(
                f"{code_points(change.before) or 'nothing'} → "
                f"{code_points(change.after) or 'nothing'}"
                for change in found[:MAX_CHANGES]
            )
        )
        more = f"; and {len(found) - MAX_CHANGES:,} more" if len(found) > MAX_CHANGES else ""
        st.caption(f"Changed ({len(found):,} in all, by code point): {listed}{more}.")
