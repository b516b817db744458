"""Tokens: the page's inputs: the text to encode (with its fill-in menu) and the display options."""

from __future__ import annotations

from typing import TypedDict

import streamlit as st

from ui.session import state as keys
from ui.session.runs import Run, texts_of
from ui.views.token_view import COLOR_LABELS, corpus_excerpt, text_with_menu


class DisplayOptions(TypedDict):
    """The display controls' values, as tokens_html_cached's keyword arguments."""

    color_by: str
    show_ids: bool
    visible_whitespace: bool
    colorblind: bool


def text_input(run: Run) -> str:
    """The text area, with a menu that fills it with the training text or a sample."""
    start = corpus_excerpt(run.spec.kind, texts_of(run.spec))
    return text_with_menu(
        keys.TOKENS,
        "Text to encode",
        start,
        run_name=run.spec.name,
        training_text=start if texts_of(run.spec) else None,
        help="Type or paste anything: every byte has a token, so nothing is unknown.",
    )


def display_options() -> DisplayOptions:
    """The colour and display controls, folded away, as keyword arguments for
    tokens_html_cached."""
    with st.expander("Display: colours, ids, whitespace", icon=":material/tune:"):
        return display_controls()


def display_controls() -> DisplayOptions:
    """The colour radio and the three toggles, read as tokens_html_cached's keyword arguments."""
    color_by = st.radio(
        "Colour by",
        list(COLOR_LABELS),
        format_func=COLOR_LABELS.get,
        horizontal=True,
        key=keys.TOKENS_COLOR_BY,
        persist_state="session",
    )
    row = st.container(horizontal=True, gap="large")
    show_ids = row.toggle("Show ids", key=keys.TOKENS_SHOW_IDS, persist_state="session")
    whitespace = row.toggle(
        "Visible whitespace",
        key=keys.TOKENS_WHITESPACE,
        persist_state="session",
        help="Spaces as ·, newlines as ↵, tabs as →",
    )
    colorblind = row.toggle(
        "Colour-blind palette",
        key=keys.TOKENS_COLORBLIND,
        persist_state="session",
        help="Paul Tol's colour-blind-safe colours",
    )
    return {
        "color_by": color_by,
        "show_ids": show_ids,
        "visible_whitespace": whitespace,
        "colorblind": colorblind,
    }
