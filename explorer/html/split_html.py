"""A passage as one tokenizer split it, the places where another splits it differently
highlighted and the rest dimmed: escaped HTML for a side-by-side view.

Inside a highlighted place every token is drawn with its edges (two alternating colours)
and visible whitespace, so the two splits can be read against each other; outside, the
text is plain and grey (#595959 on white: 7:1, past WCAG AA's 4.5:1; on a dark page,
#A6A6A6: 7.4:1). Every colour comes light and dark (explorer.html.scheme).

    >>> from explorer.encoding.tokenizer import Tokenizer
    >>> page = split_html(Tokenizer(), list(b"<b>"), [(0, 1), (1, 2), (2, 3)], [None, 0, None])
    >>> "<b>" in page, page.count('<mark class="sd-place"')
    (False, 1)
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from explorer.encoding.tokenizer import Tokenizer
from explorer.html.render import TEXT_COLOR, TEXT_COLOR_DARK, display_pieces
from explorer.html.scheme import DARK_PAGE, LIGHT_PAGE, declare, light_dark
from explorer.html.token_html import token_title

DIM_COLOR = "#595959"  # on white: 7.0:1
TOKEN_COLORS = ("#FFD966", "#A8D5FF")  # alternate inside a place; dark text 11:1 and 12:1
# dark: #A6A6A6 on the page 7.4:1; the place #3D3413 under light text 11:1, its number 10:1;
# the tokens' dark variants under light text 6.7:1 and 7.2:1
_EDGE = light_dark("rgba(0,0,0,.35)", "rgba(255,255,255,.35)")
_STYLE = (
    ".sd-view{white-space:pre-wrap;overflow-wrap:anywhere;line-height:2.1;"
    f"{declare('color', DIM_COLOR, '#A6A6A6')};{declare('background', LIGHT_PAGE, DARK_PAGE)};"
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}"
    f".sd-view mark{{{declare('background', '#FFF4C2', '#3D3413')};"
    f"{declare('color', TEXT_COLOR, TEXT_COLOR_DARK)};"
    f"outline:2px solid #9A6700;outline:2px solid {light_dark('#9A6700', '#E0B040')};"
    "border-radius:3px;padding:0 1px;-webkit-box-decoration-break:clone;"
    "box-decoration-break:clone}"
    f".sd-view mark>span{{box-shadow:inset 0 0 0 1px rgba(0,0,0,.35);"
    f"box-shadow:inset 0 0 0 1px {_EDGE};border-radius:2px;"
    "margin-right:1px;-webkit-box-decoration-break:clone;box-decoration-break:clone}"
    f".sd-view .t0{{{declare('background', TOKEN_COLORS[0])}}}"
    f".sd-view .t1{{{declare('background', TOKEN_COLORS[1])}}}"
    f".sd-view sup{{font-size:.65em;font-weight:700;{declare('color', '#5C4400', '#FFE9A8')};"
    "margin-right:2px;-webkit-user-select:none;user-select:none}"
)


def split_html(
    tokenizer: Tokenizer,
    ids: Sequence[int],
    byte_spans: Sequence[tuple[int, int]],
    places: Sequence[int | None],
) -> str:
    """The tokens `ids` (with their byte spans) as HTML: each run of tokens in the same
    place (`places[i]`, from `split_diff.span_of_tokens`) in one numbered <mark>, every
    other token as dimmed text. All token text is escaped.
    """
    return pieces_split_html(
        tokenizer.token_bytes, lambda token: token_title(tokenizer, token), ids, places
    )


def pieces_split_html(
    token_bytes: Callable[[int], bytes],
    title: Callable[[int], str],
    ids: Sequence[int],
    places: Sequence[int | None],
) -> str:
    """`split_html` for any tokenizer: `token_bytes(id)` spells a token, `title(id)` is
    its card (a real model's id and merge rank, say). All text is escaped.

    >>> page = pieces_split_html(bytes.fromhex, str, ["3c62", "3e"], [0, None])
    >>> "<b" in page, page.count('data-place="1"')
    (False, 1)
    """
    parts = [f"<style>{_STYLE}</style>", '<div class="sd-view">']
    index = 0
    while index < len(ids):
        place = places[index]
        end = index + 1
        while end < len(ids) and places[end] == place:
            end += 1
        run = ids[index:end]
        if place is None:
            data = b"".join(token_bytes(token) for token in run)
            parts.append(_text_html(data, visible_whitespace=False))
        else:
            parts.append(_place_html(token_bytes, title, run, place + 1))
        index = end
    parts.append("</div>")
    return "".join(parts)


def _place_html(
    token_bytes: Callable[[int], bytes],
    title: Callable[[int], str],
    ids: Sequence[int],
    number: int,
) -> str:
    """One place where the splits differ: its number, then each token with its edges."""
    tokens = "".join(
        f'<span class="t{position % 2}" title="{html.escape(title(token))}">'
        f"{_text_html(token_bytes(token), visible_whitespace=True)}</span>"
        for position, token in enumerate(ids)
    )
    label = f"place {number}: {len(ids)} token{'' if len(ids) == 1 else 's'}"
    return (
        f'<mark class="sd-place" data-place="{number}" title="{label}">'
        f'<sup aria-hidden="true">{number}</sup>{tokens}</mark>'
    )


def _text_html(data: bytes, *, visible_whitespace: bool) -> str:
    """Bytes as escaped text (layout kept); bytes that are not UTF-8 as isolated hex."""
    return "".join(
        f'<bdi dir="ltr">{html.escape(piece)}</bdi>' if is_hex else html.escape(piece)
        for piece, is_hex in display_pieces(data, visible_whitespace, True)
    )
