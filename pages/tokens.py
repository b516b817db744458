"""Tokens: any text encoded with the sidebar's tokenizer, as coloured tokens with counts."""

from __future__ import annotations

import streamlit as st

from ui.session.links import urls
from ui.session.runs import (
    current_run_or_error,
    current_spec,
    load_model_run,
    trained_vocab_size,
    view_tokenizer,
    view_vocab_size,
)
from ui.shell import run_page
from ui.tokens import encode_steps
from ui.tokens.controls import display_options, text_input
from ui.tokens.model_tokens import show_model_tokens
from ui.tokens.summary import show_counts, show_ids, show_specials
from ui.tokens.whole_counts import text_counts
from ui.tokens.whole_text import drawn_part, long_text_note
from ui.views.formatting import RawHtml, markdown_text, plural
from ui.views.section import guarded
from ui.views.token_view import (
    COLOR_HELP,
    MAX_RENDERED_TOKENS,
    encode_cached,
    fmt_int,
    tokens_html_cached,
)


def main() -> None:
    st.title("Tokens")
    if current_spec().kind.is_model:  # a real model's tokenizer: its own ids, drawn apart
        try:
            model_run = load_model_run(current_spec())
        except ValueError as exc:
            st.error(f"This tokenizer could not be read: {markdown_text(str(exc))}")
            return
        show_model_tokens(model_run)
        return
    run = current_run_or_error()
    if run is None:
        return
    tokenizer = view_tokenizer(run)
    size, full = view_vocab_size(run), trained_vocab_size(run)
    st.caption(
        f"Encoding with **{markdown_text(run.spec.name)}** at vocab size **{fmt_int(size)}** of "
        f"{fmt_int(full)} ({plural(size - 256, 'merge')}): change either in the sidebar."
    )
    text = text_input(run)
    urls.update(st.query_params, {"text": urls.link_text(text)})  # a short text goes in links
    options = display_options()
    if not text:
        st.info("Type or paste some text above to see its tokens.")
        return
    part = drawn_part(text)  # a long text: its start, the counts cover the whole
    try:
        encoded = encode_cached(tokenizer, run.key, size, part.text)
        page = tokens_html_cached(
            tokenizer, run.key, size, part.text, num_merges=full - 256, **options
        )
    except ValueError as exc:
        st.error(f"This text could not be encoded: {markdown_text(str(exc))}")
        return
    # the coloured text right under the text box: on a phone, within the first screen
    st.caption(
        f"Hover a token to see its id, bytes, merge number and parents. "
        f"{COLOR_HELP[str(options['color_by'])]}"
    )
    st.html(RawHtml(page))
    if part.cut:
        st.caption(long_text_note(part, min(len(encoded.ids), MAX_RENDERED_TOKENS)))
    with guarded("The counts"):
        stats, specials = text_counts(tokenizer, run.key, size, text, part, encoded)
        show_counts(stats)
        show_specials(run, specials)
    with guarded("Encode step by step"):
        encode_steps.section(tokenizer, run.key, size, part.text)  # a word, one merge at a time
    if not part.cut and len(encoded.ids) > MAX_RENDERED_TOKENS:
        st.caption(
            f"Showing the first {fmt_int(MAX_RENDERED_TOKENS)} of {fmt_int(len(encoded.ids))} "
            "tokens; the counts above cover the whole text."
        )
    with guarded("The token ids"):
        show_ids(encoded.ids, stats.tokens)


run_page(main)  # main inside the app's shell, even as a fresh server's first request
