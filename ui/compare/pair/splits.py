"""Compare: the passage as A and as B split it, side by side (stacked on a phone),
the places where their token boundaries differ highlighted on both sides and counted,
the rest dimmed. The places are explorer.analysis.diffs.split_diff's; the HTML is
explorer.html.split_html's.
"""

from __future__ import annotations

import streamlit as st

from explorer import Encoding, Tokenizer
from explorer.analysis.diffs.split_diff import differing_spans, span_of_tokens, token_boundaries
from explorer.encoding.pretokenize import as_unicode
from explorer.html.split_html import split_html
from ui.compare.pair.side import Side
from ui.views.formatting import excerpt, markdown_text, plural
from ui.views.token_view import fmt_int

MAX_CHARS = 5_000  # of the passage: a side-by-side reading, not a corpus


@st.cache_resource(max_entries=16, ttl="1h", show_spinner=False)
def spans_cached(_tokenizer: Tokenizer, side_key: str, text: str) -> Encoding:
    """The text's tokens with their byte spans (special tokens in it taken as special)."""
    return _tokenizer.encode_with_spans(text, allowed_special="all")


def count_sentence(count: int) -> str:
    """The headline: `count_sentence(12) == "12 places where the splits differ"`.

    >>> count_sentence(1), count_sentence(0)
    ('1 place where the splits differ', 'A and B split this passage the same way')
    """
    if count == 0:
        return "A and B split this passage the same way"
    return f"{plural(count, 'place')} where the splits differ"


def splits_section(a: Side, b: Side, passage: str) -> None:
    """The passage (cut to MAX_CHARS) as A and B split it, the places where they differ
    highlighted."""
    text = as_unicode(excerpt(passage, MAX_CHARS))
    if not text:
        st.info("Type a passage above to see where A and B split it.")
        return
    if a.key == b.key:
        st.info(
            f"A and B are the same tokenizer, {markdown_text(a.name)}: they split every passage "
            "alike. Choose another tokenizer for B."
        )
        return
    try:
        encodings = [spans_cached(side.tokenizer, side.key, text) for side in (a, b)]
    except ValueError as exc:  # a custom pattern that times out, say
        st.error(f"The passage could not be encoded: {markdown_text(str(exc))}")
        return
    spans = differing_spans(text, *(token_boundaries(e.byte_spans) for e in encodings))
    st.markdown(f"### {count_sentence(len(spans))}")
    st.caption(
        "Highlighted on both sides, numbered alike: a stretch between boundaries both share "
        "that one of them splits differently. Inside it every token is outlined (spaces as ·); "
        "the text both split alike is grey. Hover a token for its id and bytes."
    )
    for column, side, encoding in zip(st.columns(2), (a, b), encodings):
        with column:
            st.markdown(f"**{side.letter} · {markdown_text(side.name)}**")
            st.caption(f"Vocab size {fmt_int(side.size)} · {plural(len(encoding.ids), 'token')}")
            owners = span_of_tokens(encoding.byte_spans, spans)
            st.html(split_html(side.tokenizer, encoding.ids, encoding.byte_spans, owners))
    if len(passage) > len(text):
        st.caption(f"The passage's first {fmt_int(len(text))} characters.")
