r"""Tokens and pairs as sentences say them, shared by Animate's narration and Tokens' encode story.

>>> quoted(b" the\n")
"'·the↵'"
>>> times(1), times(1234)
('1 time', '1,234 times')
"""

from __future__ import annotations

import html

from explorer import Tokenizer, render_token


def quoted(token: bytes) -> str:
    r"""A token as the narration shows it: quoted, whitespace visible.

    >>> quoted(b" the\n")
    "'·the↵'"
    """
    return f"'{render_token(token, visible_whitespace=True)}'"


def pair_text(tokenizer: Tokenizer, pair: tuple[int, int]) -> str:
    """`('t', 'h')`: a pair of token ids as text."""
    left, right = (quoted(tokenizer.token_bytes(token)) for token in pair)
    return f"({left}, {right})"


def times(count: int) -> str:
    """`times(1) == '1 time'`, `times(1234) == '1,234 times'`."""
    return f"{count:,} time" + ("" if count == 1 else "s")


def paragraph_html(text: str) -> str:
    """Plain text as an escaped paragraph in a size a class can read from the back."""
    return (
        '<p class="am-narration" style="font-size:1.1rem;line-height:1.6;margin:0">'
        f"{html.escape(text)}</p>"
    )
