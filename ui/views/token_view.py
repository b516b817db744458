"""Encoded text for the pages: cached encodes, counts, coloured HTML and id lists.

Every result is keyed on plain values — the run's key, a vocab size and the text — with
the tokenizer passed alongside (not part of the key), so moving a slider or ticking a
toggle never encodes twice; encodes and pages are kept within a byte budget. Long texts
are counted in full but drawn only up to MAX_RENDERED_TOKENS, which keeps the page fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from explorer import Tokenizer, tokens_to_html
from explorer.analysis.compression.stats import TextStats, counted_stats, tokens_at_every_size
from explorer.html.token_html import with_fresh_ids
from ui.server.lru import SharedLru
from ui.session import state as keys
from ui.session.run_spec import RunKind
from ui.session.samples import DEFAULT_SAMPLE, SAMPLES, sample_text
from ui.views.formatting import RawHtml, excerpt

MAX_RENDERED_TOKENS = 10_000  # coloured spans drawn per text; counts cover everything
EXCERPT_CHARS = 1_500
COLOR_LABELS = {"id": "Token id", "rank": "Merge number", "length": "Length in bytes"}
COLOR_HELP = {
    "id": "Each token id has its own colour: the same token always looks the same.",
    "rank": "Early merges are purple, late merges yellow; single bytes are grey.",
    "length": "Short tokens are purple, long ones yellow (1 to 8+ bytes).",
}
SPECIAL_HINT = "special tokens are dark and bold"
# Every session's encodes and drawn pages, kept by size (issue 35: the encode cache held
# 3.4 GB for 21 texts). The Tokens page encodes at most 512K characters here
# (ui/tokens/whole_text.py), ~5 MB kept; the newest entry is kept even when alone larger.
ENCODES_KEPT, ENCODES_BYTES = 64, 64 << 20
PAGES_KEPT, PAGES_BYTES = 32, 32 << 20
_encodes = SharedLru(ENCODES_KEPT, ENCODES_BYTES)
_pages = SharedLru(PAGES_KEPT, PAGES_BYTES)


@dataclass(frozen=True)
class EncodedText:
    """A text's token ids, its counts, and the special tokens it contains (read only)."""

    ids: tuple[int, ...]
    stats: TextStats
    specials: tuple[str, ...]
    text_bytes: int = 0  # the encoded text's size in memory (what a cache key holds)


def encode_cached(tokenizer: Tokenizer, run_key: str, vocab_size: int, text: str) -> EncodedText:
    """Encode once per (run, size, text), kept for every session within ENCODES_BYTES;
    special tokens in the text become special ids.

    Raises the engine's ValueError subclasses (e.g. a custom pattern that times out).
    """
    return _encodes.get_or_make(
        (run_key, vocab_size, text), lambda: _encoded(tokenizer, text), _encoded_bytes
    )


def _encoded(tokenizer: Tokenizer, text: str) -> EncodedText:
    ids = tuple(tokenizer.encode(text, allowed_special="all"))
    specials = tokenizer.special_by_id
    found = tuple(sorted({specials[i] for i in ids if i in specials}))
    return EncodedText(ids, counted_stats(text, len(ids)), found, sys.getsizeof(text))


def _encoded_bytes(encoded: EncodedText) -> int:
    """What one kept encode holds: its text (in the key) and its ids.

    Ids are mostly shared int objects (the vocabulary's): measured at 13 bytes an id
    for 512K characters of Shakespeare under a 2,000-token run; 16 leaves room.
    """
    return encoded.text_bytes + 16 * len(encoded.ids) + 256


def tokens_html_cached(
    tokenizer: Tokenizer,
    run_key: str,
    vocab_size: int,
    text: str,
    *,
    color_by: str = "id",
    colorblind: bool = False,
    show_ids: bool = False,
    visible_whitespace: bool = False,
    num_merges: int | None = None,
    limit: int = MAX_RENDERED_TOKENS,
) -> str:
    """The first `limit` tokens of the text as coloured, escaped HTML with hover titles,
    kept for every session within HTML_BYTES."""
    options = (color_by, colorblind, show_ids, visible_whitespace, num_merges, limit)

    def make() -> str:
        encoded = encode_cached(tokenizer, run_key, vocab_size, text)
        return tokens_to_html(
            tokenizer,
            encoded.ids[:limit],
            color_by=color_by,
            palette="colorblind" if colorblind else "default",
            show_ids=show_ids,
            visible_whitespace=visible_whitespace,
            num_merges=num_merges,
            titles=True,
        )

    key = (run_key, vocab_size, text, options)
    return _pages.get_or_make(key, make, lambda page: sys.getsizeof(page) + sys.getsizeof(text))


@st.cache_resource(max_entries=16, ttl="1h", show_spinner=False)
def counts_at_every_size_cached(_tokenizer: Tokenizer, run_key: str, text: str) -> tuple[int, ...]:
    """The text's token count with 0, 1, 2, ... merges, from one encode."""
    return tuple(tokens_at_every_size(_tokenizer, text))


def id_list(ids: Sequence[int], separator: str = " ", limit: int | None = None) -> str:
    """Ids as text to copy, the first `limit` of them.

    >>> id_list([258, 100, 258], ", ")
    '258, 100, 258'
    """
    return separator.join(str(i) for i in ids[:limit])


def default_sample_excerpt(limit: int = EXCERPT_CHARS) -> str:
    """An excerpt of the default bundled sample."""
    return excerpt(sample_text(DEFAULT_SAMPLE), limit)


def corpus_excerpt(kind: RunKind, texts: Sequence[str], limit: int = EXCERPT_CHARS) -> str:
    """The start of a run's training text; a sample for a loaded or bundled one (no corpus)."""
    if not kind.has_corpus or not texts:
        return default_sample_excerpt(limit)
    head: list[str] = []
    for text in texts:  # only as many documents as the excerpt needs
        head.append(text[: limit + 1])
        if sum(map(len, head)) > limit:
            break
    return excerpt("\n\n".join(head), limit)


TRAINING_OPTION = "training"


def load_label(option: str) -> str:
    """What a "load a text" option is called in its menu."""
    if option == TRAINING_OPTION:
        return "This tokenizer's training text"
    return SAMPLES[option].title


def _load_into(text_key: str, menu_key: str, training_text: str, limit: int) -> None:
    """Put the chosen text in the text area, then reset the menu (a callback)."""
    option = st.session_state.get(menu_key)
    if option is None:
        return
    loaded = training_text if option == TRAINING_OPTION else sample_text(option)
    st.session_state[text_key] = excerpt(loaded, limit)
    st.session_state[keys.edited_key(text_key)] = option != TRAINING_OPTION  # a chosen sample stays
    st.session_state[menu_key] = None


def text_with_menu(
    prefix: str,
    label: str,
    default: str,
    *,
    run_name: str,
    training_text: str | None = None,
    limit: int = EXCERPT_CHARS,
    height: int = 180,
    help: str | None = None,
) -> str:
    """A text area (`<prefix>_text`) under a menu (`<prefix>_load`) that fills it.

    The menu offers the training text (when given) and every bundled sample, cut to
    `limit` characters; the text area keeps its value across pages, and goes back to
    the run's `default` when the run changes unless the user typed or chose a sample.
    """
    text_key, menu_key = f"{prefix}_text", f"{prefix}_load"
    follow_text(text_key, default, run_name)
    options = ([TRAINING_OPTION] if training_text is not None else []) + list(SAMPLES)
    what = "the training text or a sample" if training_text is not None else "a bundled sample"
    st.selectbox(
        "Load a text",
        options,
        index=None,
        format_func=load_label,
        placeholder=f"Replace the text below with {what}…",
        key=menu_key,
        on_change=_load_into,
        args=(text_key, menu_key, training_text or "", limit),
    )
    return st.text_area(
        label,
        key=text_key,
        persist_state="session",
        height=height,
        help=help,
        on_change=mark_edited,
        args=(text_key,),
    )


def follow_text(text_key: str, default: str, run_name: str) -> None:
    """Give a text box the run's default, again when the run changes, unless the user typed.

    Call it before drawing the text area (with `on_change=mark_edited`).
    """
    state = st.session_state
    new_run = keys.follow_run(state, keys.owner_key(text_key), run_name)
    if text_key not in state or (new_run and not state.get(keys.edited_key(text_key))):
        state[text_key] = default
        state[keys.edited_key(text_key)] = False


def mark_edited(text_key: str) -> None:
    """The text area's callback: the user typed, so the text stays when the run changes."""
    st.session_state[keys.edited_key(text_key)] = True


def show_token_column(
    tokenizer: Tokenizer,
    run_key: str,
    vocab_size: int,
    text: str,
    *,
    color_by: str,
    num_merges: int,
    previous: int | None = None,
    limit: int = 2_000,
    label: str = "Tokens",
    baseline: str | None = None,
) -> int:
    """A text's token count (with the change from `previous`) above its coloured tokens.

    For side-by-side columns; returns the count for the next column to compare with.
    `baseline` labels the column the others are compared with, where a change would be.
    """
    encoded = encode_cached(tokenizer, run_key, vocab_size, text)
    tokens = encoded.stats.tokens
    change = token_change(tokens, previous)
    moved = previous is not None and tokens != previous  # "+0" in red with an arrow misleads
    st.metric(
        label,
        fmt_int(tokens),
        change or baseline,
        delta_color="inverse" if moved else "off",
        delta_arrow="auto" if moved else "off",
        help=f"{fmt_ratio(encoded.stats.bytes_per_token)} bytes per token",
    )
    st.caption(
        f"{fmt_ratio(encoded.stats.bytes_per_token)} bytes per token · "
        f"{fmt_int(encoded.stats.bytes)} bytes"
    )
    page = tokens_html_cached(
        tokenizer, run_key, vocab_size, text, color_by=color_by, num_merges=num_merges, limit=limit
    )
    st.html(RawHtml(with_fresh_ids(page)))  # the same view may be drawn twice (A = B)
    if tokens > limit:
        st.caption(f"The first {fmt_int(limit)} tokens.")
    return tokens


def token_change(tokens: int, previous: int | None) -> str | None:
    """A metric's delta against the column before: fewer tokens is better.

    >>> token_change(90, 100), token_change(100, 100), token_change(100, None)
    ('-10 tokens', 'same count', None)
    """
    if previous is None:
        return None
    return f"{tokens - previous:+,} tokens" if tokens != previous else "same count"


def preset(key: str, default: object, valid: Callable[[Any], bool] | None = None) -> None:
    """Give a widget its first value through session state, or reset one `valid` rejects.

    Call it before drawing the widget, then draw it with `key` and no value of its own
    (and `persist_state="session"`, so it keeps its value across pages).
    """
    if key not in st.session_state or (valid is not None and not valid(st.session_state[key])):
        st.session_state[key] = default


def fmt_int(n: int) -> str:
    """`fmt_int(12345) == '12,345'`."""
    return f"{n:,}"


def fmt_ratio(x: float) -> str:
    """`fmt_ratio(3.94159) == '3.94'`."""
    return f"{x:,.2f}"
