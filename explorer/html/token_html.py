"""Tokens as escaped HTML: coloured spans, each with a details card that opens on hover,
focus or tap, lines that break only between words, right-to-left text kept readable.

    >>> from explorer.encoding.tokenizer import Tokenizer
    >>> page = tokens_to_html(Tokenizer(), list(b"<b>"))
    >>> "<b>" in page, '<span class="c-8dd3c7 k60" tabindex="0" aria-describedby=' in page
    (False, True)
"""

from __future__ import annotations

import functools
import html
import itertools
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from explorer.encoding.tokenizer import Tokenizer
from explorer.html.render import (
    CARD_COLOR,
    CARD_COLOR_DARK,
    CARD_TEXT_COLOR,
    CARD_TEXT_COLOR_DARK,
    PALETTES,
    SPECIAL_COLOR_DARK,
    SPECIAL_TEXT_COLOR,
    SPECIAL_TEXT_COLOR_DARK,
    TEXT_COLOR,
    TEXT_COLOR_DARK,
    RenderError,
    render_token,
    token_colors,
)
from explorer.html.scheme import declare, light_dark
from explorer.html.token_cards import block_name, card, card_rules, descriptions, text_html
from explorer.html.token_cards import token_title as token_title  # where it always was

# One rule set per page is enough: class names depend only on the colour, so several
# renderings on one page never disagree. Tokens are the div's children: a faint edge and a
# 1px gap tell two neighbours of one colour apart.
# A token's card is its span's ::after, which only a hovered or focused token has (so
# it is neither shown, copied nor in innerText otherwise). Its text is a rule per distinct
# token of the rendering (`.bpe7 .k261:hover::after,.bpe7 .k261:focus::after{content:
# "..."}`); subtle: every rule names :hover or :focus, so the browser builds no ::after
# for the hundreds of tokens nobody points at (a rule for every span's ::after, even
# display:none, had it style each one at every Animate step). The description a
# screen reader reads is one hidden element per distinct token, so a token that occurs a
# hundred times carries a class and an id reference, not a hundred copies of its card
# (explorer.html.token_cards; renderings on one screen may share one block of cards).
# Lines break between words, never inside one ("pa|ir"): the spans give the browser no
# break opportunity between tokens, and visible whitespace (·) leaves none between words
# either, so a <wbr> marks each place next to whitespace; overflow-wrap:anywhere then only
# breaks a word longer than the line.
# subtle: a token span must not isolate its direction (unicode-bidi:isolate). Isolated
# tokens sit in the paragraph's order, left to right, and an Arabic word of three tokens
# would read backwards; only hex labels (<bdi dir="ltr">) and ids (sub) are isolated.
# Colours come light and dark (explorer.html.scheme): the page's colour-scheme picks.
OUTLINE = (  # a highlighted token (also ui.animate.animation)
    f"outline:2px solid #000;outline:2px solid {light_dark('#000', '#FFF')};outline-offset:0"
)
_STYLE = (
    ".bpe{white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.9;"
    f"{declare('color', TEXT_COLOR, TEXT_COLOR_DARK)};"
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}"
    ".bpe>span{position:relative;border-radius:3px;margin-right:1px;"
    "box-shadow:inset 0 0 0 1px rgba(0,0,0,.2);"
    f"box-shadow:inset 0 0 0 1px {light_dark('rgba(0,0,0,.2)', 'rgba(255,255,255,.3)')};"
    "-webkit-box-decoration-break:clone;box-decoration-break:clone}"
    f".bpe .s{{{declare('color', SPECIAL_TEXT_COLOR, SPECIAL_TEXT_COLOR_DARK)};font-weight:600}}"
    f".bpe .h{{{OUTLINE}}}"
    ".bpe>span:focus-visible{outline:3px solid #0B57D0;"
    f"outline:3px solid {light_dark('#0B57D0', '#8AB4F8')};outline-offset:1px}}"
    ".bpe sub{font-size:.7em;margin-left:1px;direction:ltr;unicode-bidi:isolate;"
    "-webkit-user-select:none;user-select:none}"
    ".bpe>span:hover::after,.bpe>span:focus::after{display:block;position:absolute;left:0;"
    "top:100%;margin-top:3px;"
    "z-index:1000;width:max-content;max-width:min(24rem,90vw);padding:6px 9px;"
    f"border-radius:6px;background:{CARD_COLOR};color:{CARD_TEXT_COLOR};font-size:14px;"
    f"background:{light_dark(CARD_COLOR, CARD_COLOR_DARK)};"
    f"color:{light_dark(CARD_TEXT_COLOR, CARD_TEXT_COLOR_DARK)};"
    "line-height:1.45;font-weight:400;text-align:left;direction:ltr;unicode-bidi:isolate;"
    "white-space:pre-wrap;box-shadow:0 3px 10px rgba(0,0,0,.3);pointer-events:none;"
    "-webkit-user-select:none;user-select:none}"
)


_RENDERINGS = itertools.count()  # numbers each rendering, so card ids never repeat on a page


def tokens_to_html(
    tokenizer: Tokenizer,
    ids: Sequence[int],
    *,
    color_by: str = "id",
    palette: str = "default",
    show_ids: bool = False,
    visible_whitespace: bool = False,
    highlight: Collection[int] = (),
    num_merges: int | None = None,
    titles: bool = True,
    byte_symbols: bool = False,
    cards: str | None = None,
) -> str:
    """Tokens inline as coloured spans, each with a details card; all token text is escaped.

    byte_symbols shows each byte as GPT-2's printable stand-in (Ġ for a space), as
    `render_token` does, instead of the text.

    `highlight` holds positions in `ids` to outline; special tokens are dark and bold.
    Hovering, focusing (Tab) or tapping a token opens its card: token_title's text, also
    its accessible description. Each distinct token's card is written once (a CSS rule
    and a hidden description), whatever the number of times it occurs; titles=False
    leaves the cards out. cards="name" leaves them to one block shared by every rendering
    on the screen drawn with that name (explorer.html.token_cards.shared_cards_html):
    each token is described by `name-<id>` and carded by the rule for `.name .k<id>`.

    >>> page = tokens_to_html(Tokenizer(), list(b"<b>"))
    >>> "<b>" in page, '<span class="c-8dd3c7 k60" tabindex="0" aria-describedby=' in page
    (False, True)
    >>> print(tokens_to_html(Tokenizer(), [0xD9], titles=False).split("</style>")[1])
    <div class="bpe"><span class="c-fccde5"><bdi dir="ltr">&lt;0xD9&gt;</bdi></span></div>
    >>> shared = tokens_to_html(Tokenizer(), [97], cards="am")
    >>> shared.split("</style>")[1].replace(' tabindex="0"', "")
    '<div class="bpe am"><span class="c-fccde5 k97" aria-describedby="am-97">a</span></div>'
    """
    colors = token_colors(tokenizer, ids, color_by=color_by, palette=palette, num_merges=num_merges)
    marked = _positions(highlight, len(ids))
    rendering = f"bpe{next(_RENDERINGS)}" if cards is None else block_name(cards)
    # subtle: a passage repeats a few hundred distinct tokens, so each one's HTML around
    # its outline is built once; an Animate step draws two passages, and this loop was
    # most of a step's HTML work
    pieces: dict[int, _Pieces] = {}
    parts = ["", f'<div class="bpe {rendering}">' if titles else '<div class="bpe">']
    break_next = False
    for index, (token, color) in enumerate(zip(ids, colors)):
        piece = pieces.get(token)
        if piece is None:
            options = (show_ids, visible_whitespace, byte_symbols)
            piece = pieces[token] = _pieces(tokenizer, token, color, rendering, titles, options)
        if index and (break_next or piece.break_before):
            parts.append("<wbr>")  # a line may break here, and only here (see _STYLE)
        break_next = piece.break_after
        parts.append(f"{piece.head} h{piece.rest}" if index in marked else piece.whole)
    parts.append("</div>")
    own = [(token, card(tokenizer, token)) for token in pieces] if titles and cards is None else []
    parts[0] = _style_block(colors, card_rules(rendering, own))
    parts.append(descriptions(rendering, own))
    return "".join(parts)


def with_fresh_ids(page: str) -> str:
    """A tokens_to_html page under a new rendering name, so a cached page can be drawn twice
    on one screen without two elements sharing an id (its cards' descriptions).

    The name is replaced only where the markup has it (the div's class, the card rules,
    ids and aria-describedby), never in the text, where `"` is always escaped.

    >>> page = tokens_to_html(Tokenizer(), list(b"ab"))
    >>> names = lambda p: set(re.findall(r'(?:id|aria-describedby)="(bpe\\d+)-', p))
    >>> len(names(page)) == len(names(with_fresh_ids(page))) == 1
    True
    >>> names(page) == names(with_fresh_ids(page))
    False
    """
    found = _RENDERING_NAME.search(page)
    if found is None:  # titles=False: no ids to repeat
        return page
    old, new = found[1], f"bpe{next(_RENDERINGS)}"
    return re.sub(
        rf'(?<=class="bpe ){old}(?=")|(?<=\.){old}(?= \.k\d+:(?:hover|focus)::after[{{,])'
        rf'|(?<=id="){old}(?=-)|(?<=aria-describedby="){old}(?=-)',
        new,
        page,
    )


_RENDERING_NAME = re.compile(r'<div class="bpe (bpe\d+)">')


@dataclass(frozen=True, slots=True)
class _Pieces:
    """One token's HTML: `whole` as drawn; `head` and `rest` the same split where another
    class (the outline) goes."""

    head: str
    rest: str
    whole: str
    break_before: bool
    break_after: bool


def _pieces(
    tokenizer: Tokenizer,
    token: int,
    color: str,
    rendering: str,
    titles: bool,
    options: tuple[bool, ...],
) -> _Pieces:
    show_ids, visible_whitespace, byte_symbols = options
    data = tokenizer.token_bytes(token)
    special = token in tokenizer.special_by_id
    text = _shown_text(data, visible_whitespace, byte_symbols)
    text += f"<sub>{token}</sub>" if show_ids else ""
    head = f'<span class="{_color_class(color)}{" s" if special else ""}'
    if titles:  # focusable (so Tab and a tap open the card), described by it
        head += f" k{token}"
        rest = f'" tabindex="0" aria-describedby="{rendering}-{token}">{text}</span>'
    else:
        rest = f'">{text}</span>'
    return _Pieces(head, rest, head + rest, *_line_breaks(data, special))


def _line_breaks(data: bytes, special: bool) -> tuple[bool, bool]:
    """Whether a line may break before and after this token: at whitespace, and around a
    special token.

    >>> _line_breaks(b" pair", False), _line_breaks(b"ir", False), _line_breaks(b".\\n", False)
    ((True, False), (False, False), (False, True))
    """
    return special or data[:1].isspace(), special or data[-1:].isspace()


# a function of the bytes alone, so one cache serves every tokenizer: a passage's
# distinct tokens were re-rendered at every Animate step (8 % of its server time)
@functools.lru_cache(maxsize=1 << 16)
def _shown_text(data: bytes, visible_whitespace: bool, byte_symbols: bool) -> str:
    """A token's text as escaped HTML: GPT-2's byte symbols, or the text (hex isolated)."""
    if byte_symbols:
        return html.escape(render_token(data, byte_symbols=True))
    return text_html(data, visible_whitespace, keep_layout=True)


def _style_block(colors: Sequence[str], card_rules: str = "") -> str:
    rules = "".join(
        f".bpe .{_color_class(c)}{{{declare('background', c, _dark(c))}}}"
        for c in sorted(set(colors))
    )
    return f"<style>{_STYLE}{rules}{card_rules}</style>"


_SPECIAL_COLORS = frozenset(palette.special for palette in PALETTES.values())


def _dark(color: str) -> str | None:
    """A token colour on a dark page: special tokens turn light (their text dark), the
    others take explorer.html.scheme's dark variant."""
    return SPECIAL_COLOR_DARK if color in _SPECIAL_COLORS else None


def _color_class(color: str) -> str:
    return "c-" + color.lstrip("#").lower()


def _positions(highlight: Collection[int], count: int) -> frozenset[int]:
    outside = sorted(i for i in highlight if not 0 <= i < count)
    if outside:
        raise RenderError(
            f"highlight positions {outside[:5]} are outside the {count} tokens "
            f"(positions run from 0 to {count - 1})"
        )
    return frozenset(highlight)
