"""A real model's encode as escaped HTML: one coloured span per id, coloured by that id.

Our own runs render through `explorer.html.token_html`, whose cards tell a token's merge
from its id (merge k makes 255 + k). A loaded model's id is its own number, so here each
piece comes with the words its card says (the caller's: the id, and the merge rank apart)
and the colour is a function of the id alone: the same id always looks the same. The
card is the span's `title` (hover) and its accessible name; every text is escaped.

    >>> page = pieces_to_html([Piece(9906, b"<b>", "id 9906"), Piece(0, b"<s>", "id 0", True)])
    >>> "<b>" in page, 'title="id 9906"' in page, page.count("<span")
    (False, True, 2)
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from explorer.html.render import (
    PALETTES,
    SPECIAL_TEXT_COLOR,
    TEXT_COLOR,
    RenderError,
    render_token,
)

_STYLE = (
    "<style>.bpm{white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.9;"
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}"
    ".bpm>span{border-radius:3px;margin-right:1px;box-shadow:inset 0 0 0 1px rgba(0,0,0,.2)}"
    ".bpm>span:focus-visible{outline:3px solid #0B57D0;outline-offset:1px}"
    ".bpm sub{font-size:.7em;margin-left:1px;-webkit-user-select:none;user-select:none}"
    "</style>"
)


@dataclass(frozen=True)
class Piece:
    """One id of an encode: the bytes it stands for, what its card says, whether special."""

    id: int
    data: bytes
    card: str
    special: bool = False


def pieces_to_html(
    pieces: Sequence[Piece],
    *,
    palette: str = "default",
    show_ids: bool = False,
    visible_whitespace: bool = False,
) -> str:
    """The pieces inline as coloured spans, each titled with its card; all text escaped.

    >>> page = pieces_to_html([Piece(3, b"a b", "id 3")], visible_whitespace=True)
    >>> print(page.split("</style>")[1].replace(' tabindex="0"', ""))
    <div class="bpm"><span style="background:#FB8072;color:#1A1A1A" title="id 3">a·b</span></div>
    """
    if palette not in PALETTES:
        raise RenderError(f"unknown palette {palette!r}; choose one of {', '.join(PALETTES)}")
    colors = PALETTES[palette]
    parts = [_STYLE, '<div class="bpm">']
    for piece in pieces:
        if piece.special:
            style = f"background:{colors.special};color:{SPECIAL_TEXT_COLOR};font-weight:600"
        else:
            background = colors.categorical[piece.id % len(colors.categorical)]
            style = f"background:{background};color:{TEXT_COLOR}"
        text = render_token(piece.data, visible_whitespace=visible_whitespace, keep_layout=True)
        sub = f"<sub>{piece.id}</sub>" if show_ids else ""
        parts.append(
            f'<span style="{style}" tabindex="0" title="{html.escape(piece.card)}">'
            f"{html.escape(text)}{sub}</span>"
        )
    parts.append("</div>")
    return "".join(parts)
