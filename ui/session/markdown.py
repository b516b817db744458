"""A user's text shown literally inside Markdown: the one helper, `markdown_text`.

It lives here, in the app's lowest layer, so the session's own messages (toasts, errors
naming a run) can use it; the pages import it from ui/views/formatting.py.

>>> print(markdown_text("**x**"))
\\*\\*x\\*\\*
"""

from __future__ import annotations

import functools

import regex

# every ASCII punctuation mark: Markdown's escapes, Streamlit's `:color[…]`, `:emoji:`
# and `$math$` directives, HTML; a backslash before any of them shows it as itself
_MARKDOWN_PUNCTUATION = regex.compile(r"""([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])""")
# GFM links bare addresses in text (https://…, www.…, a@b.c) after escapes are undone;
# an invisible word joiner inside each start keeps them text
_AUTOLINK_START = regex.compile(r"(?i)(?<=[a-z]:)(?=//)|(?<=\bwww)(?=\.)|(?=@)")
WORD_JOINER = "\u2060"


def markdown_text(text: str) -> str:
    r"""Text a user gave, shown literally inside Markdown: every caption, label, metric,
    toast, expander title or help text that holds a file name, run name, special token,
    pattern or text goes through this (and HTML-escaping where it goes into HTML).

    Punctuation is backslash-escaped, so no link, image, emphasis, heading, emoji,
    colour or math is made; a bare address gets a zero-width word joiner so it is not
    linked. Line breaks become spaces (one line, as in a caption).

    >>> print(markdown_text("my_notes_v2.txt"))
    my\_notes\_v2\.txt
    >>> print(markdown_text("[x](https://e.example)").replace(WORD_JOINER, "^"))
    \[x\]\(https\:^\/\/e\.example\)
    """
    # subtle: the same few names (runs, codes, nicknames) on every rerun of every page, a
    # class's sixty followers' at each step: short ones are kept, long ones done each time
    return _escaped_short(text) if len(text) <= SHORT_TEXT else _escaped(text)


SHORT_TEXT = 200  # characters: at most 4,096 kept, so under 1 MiB however it is called


@functools.lru_cache(maxsize=4096)
def _escaped_short(text: str) -> str:
    return _escaped(text)


def _escaped(text: str) -> str:
    one_line = " ".join(text.splitlines()) if "\n" in text or "\r" in text else text
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", _AUTOLINK_START.sub(WORD_JOINER, one_line))
