"""A real model's encode as escaped HTML: one coloured span per id, coloured by that id.

Our own runs render through `explorer.html.token_html`, whose cards tell a token's merge
from its id (merge k makes 255 + k). A loaded model's id is its own number, so here each
piece comes with the words its card says (the caller's: the id, and the merge rank apart)
and the colour is a function of the id alone: the same id always looks the same. The
card is the span's `title` (hover) and its accessible name; every text is escaped.

    >>> page = pieces_to_html([Piece(9906, b"<b>", "id 9906"), Piece(0, b"<s>", "id 0", True)])
    >>> "<b>" in page, 'title="id 9906"' in page, page.count("<span")
    (False, True, 2)
    >>> '<span class="bf"' in pieces_to_html([Piece(3, bytes([227]), "id 3", shown="<0xE3>",
    ...                                              fallback=True)])
    True
"""

from __future__ import annotations

import html
from collections.abc import Collection, Sequence
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
    ".bpm>span.bf{box-shadow:inset 0 0 0 2px #1A1A1A;text-decoration:underline dotted}"
    ".bpm sub{font-size:.7em;margin-left:1px;-webkit-user-select:none;user-select:none}"
    "</style>"
)


@dataclass(frozen=True)
class Piece:
    """One id of an encode: the bytes it stands for, what its card says, whether special.

    `shown` is the text drawn instead of the bytes' (a SentencePiece-style model's token
    as its file writes it: `▁the`, `<0xE3>`); `fallback` marks a byte-fallback token.
    """

    id: int
    data: bytes
    card: str
    special: bool = False
    shown: str | None = None
    fallback: bool = False


def pieces_to_html(
    pieces: Sequence[Piece],
    *,
    palette: str = "default",
    show_ids: bool = False,
    visible_whitespace: bool = False,
    outlined: Collection[int] = (),
) -> str:
    """The pieces inline as coloured spans, each titled with its card; all text escaped.
    The pieces at the positions `outlined` get a thick outline (a pair about to fuse).

    >>> page = pieces_to_html([Piece(3, b"a b", "id 3")], visible_whitespace=True)
    >>> print(page.split("</style>")[1].replace(' tabindex="0"', ""))
    <div class="bpm"><span style="background:#FB8072;color:#1A1A1A" title="id 3">a·b</span></div>
    """
    if palette not in PALETTES:
        raise RenderError(f"unknown palette {palette!r}; choose one of {', '.join(PALETTES)}")
    colors = PALETTES[palette]
    parts = [_STYLE, '<div class="bpm">']
    marks = set(outlined)
    for position, piece in enumerate(pieces):
        if piece.special:
            style = f"background:{colors.special};color:{SPECIAL_TEXT_COLOR};font-weight:600"
        else:
            background = colors.categorical[piece.id % len(colors.categorical)]
            style = f"background:{background};color:{TEXT_COLOR}"
        if position in marks:
            style += ";outline:3px solid currentColor;outline-offset:1px"
        if piece.shown is not None:
            text = piece.shown
        else:
            text = render_token(piece.data, visible_whitespace=visible_whitespace, keep_layout=True)
        sub = f"<sub>{piece.id}</sub>" if show_ids else ""
        marked = ' class="bf"' if piece.fallback else ""
        parts.append(
            f'<span{marked} style="{style}" tabindex="0" title="{html.escape(piece.card)}">'
            f"{html.escape(text)}{sub}</span>"
        )
    parts.append("</div>")
    return "".join(parts)
