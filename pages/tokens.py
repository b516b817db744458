"""Tokens: any text encoded with the sidebar's tokenizer, as coloured tokens with counts."""

from __future__ import annotations

import streamlit as st

from explorer.analysis.stats import TextStats
from ui.session import links
from ui.session import state as keys
from ui.session.runs import (
    Run,
    current_run_or_error,
    texts_of,
    trained_vocab_size,
    view_tokenizer,
    view_vocab_size,
)
from ui.shell import run_page
from ui.tokens import encode_steps
from ui.views.formatting import RawHtml, plural
from ui.views.token_view import (
    COLOR_HELP,
    COLOR_LABELS,
    MAX_RENDERED_TOKENS,
    SPECIAL_HINT,
    EncodedText,
    corpus_excerpt,
    encode_cached,
    fmt_int,
    fmt_ratio,
    id_list,
    text_with_menu,
    tokens_html_cached,
)

SEPARATORS = {"space": " ", "comma": ", "}


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


def display_options() -> dict[str, object]:
    """The colour and display controls, folded away, as keyword arguments for
    tokens_html_cached."""
    with st.expander("Display: colours, ids, whitespace", icon=":material/tune:"):
        return display_controls()


def display_controls() -> dict[str, object]:
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


def show_counts(stats: TextStats) -> None:
    """Five metrics: characters, bytes, tokens and the two ratios, in a row that wraps
    (columns would stack one a row on a phone)."""
    row = st.container(horizontal=True, horizontal_alignment="distribute")
    row.metric("Characters", fmt_int(stats.chars), width="content")
    row.metric("Bytes (UTF-8)", fmt_int(stats.bytes), width="content")
    row.metric("Tokens", fmt_int(stats.tokens), width="content")
    row.metric(
        "Bytes per token",
        fmt_ratio(stats.bytes_per_token),
        help="Higher is better compression",
        width="content",
    )
    row.metric("Characters per token", fmt_ratio(stats.chars_per_token), width="content")


def show_specials(run: Run, encoded: EncodedText) -> None:
    """Say which special tokens the text holds, or that the tokenizer has some to try."""
    if encoded.specials:
        names = ", ".join(_code(s) for s in encoded.specials)
        st.info(
            f"The text contains the special token(s) {names}: each is encoded as one special "
            f"token ({SPECIAL_HINT}), as `allowed_special='all'` does."
        )
    elif run.tokenizer.special_tokens:
        names = ", ".join(_code(s) for s in run.tokenizer.special_tokens)
        st.caption(f"This tokenizer has special tokens {names}: type one to see it as one token.")


def _code(text: str) -> str:
    """Text as inline code in markdown (backticks inside cannot break out)."""
    return "`" + text.replace("`", "ˋ") + "`"


def show_ids(ids: tuple[int, ...]) -> None:
    """The ids to copy, in an expander (the first MAX_RENDERED_TOKENS of a long text)."""
    with st.expander(f"Token ids ({fmt_int(len(ids))}) to copy"):
        separator = st.radio(
            "Separated by",
            list(SEPARATORS),
            horizontal=True,
            key=keys.TOKENS_ID_SEPARATOR,
            persist_state="session",
        )
        st.code(id_list(ids, SEPARATORS[separator], MAX_RENDERED_TOKENS), language=None)
        if len(ids) > MAX_RENDERED_TOKENS:
            st.caption(f"The first {fmt_int(MAX_RENDERED_TOKENS)} ids.")


def main() -> None:
    st.title("Tokens")
    run = current_run_or_error()
    if run is None:
        return
    tokenizer = view_tokenizer(run)
    size, full = view_vocab_size(run), trained_vocab_size(run)
    st.caption(
        f"Encoding with **{run.spec.name}** at vocab size **{fmt_int(size)}** of "
        f"{fmt_int(full)} ({plural(size - 256, 'merge')}): change either in the sidebar."
    )
    text = text_input(run)
    links.update(st.query_params, {"text": links.link_text(text)})  # a short text goes in links
    options = display_options()
    if not text:
        st.info("Type or paste some text above to see its tokens.")
        return
    try:
        encoded = encode_cached(tokenizer, run.key, size, text)
        page = tokens_html_cached(tokenizer, run.key, size, text, num_merges=full - 256, **options)
    except ValueError as exc:
        st.error(f"This text could not be encoded: {exc}")
        return
    # the coloured text right under the text box: on a phone, within the first screen
    st.caption(
        f"Hover a token to see its id, bytes, merge number and parents. "
        f"{COLOR_HELP[str(options['color_by'])]}"
    )
    st.html(RawHtml(page))
    show_counts(encoded.stats)
    show_specials(run, encoded)
    encode_steps.section(tokenizer, run.key, size, text)  # a word of it, one merge at a time
    if len(encoded.ids) > MAX_RENDERED_TOKENS:
        st.caption(
            f"Showing the first {fmt_int(MAX_RENDERED_TOKENS)} of {fmt_int(len(encoded.ids))} "
            "tokens; the counts above cover the whole text."
        )
    show_ids(encoded.ids)


run_page(main)  # main inside the app's shell, even as a fresh server's first request
