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
import unicodedata
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
    display_pieces,
    render_token,
    token_colors,
)
from explorer.html.scheme import declare, light_dark

# One rule set per page is enough: class names depend only on the colour, so several
# renderings on one page never disagree. Tokens are the div's children: a faint edge and a
# 1px gap tell two neighbours of one colour apart.
# A token's card is its span's ::after, hidden (display:none, so neither shown, copied
# nor in innerText) until the token is hovered or focused. Its text is a rule per distinct
# token of the rendering (`.bpe7 .k261::after{content:"..."}`), and the description a
# screen reader reads is one hidden element per distinct token, so a token that occurs a
# hundred times carries a class and an id reference, not a hundred copies of its card.
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
    ".bpe>span::after{display:none;position:absolute;left:0;top:100%;margin-top:3px;"
    "z-index:1000;width:max-content;max-width:min(24rem,90vw);padding:6px 9px;"
    f"border-radius:6px;background:{CARD_COLOR};color:{CARD_TEXT_COLOR};font-size:14px;"
    f"background:{light_dark(CARD_COLOR, CARD_COLOR_DARK)};"
    f"color:{light_dark(CARD_TEXT_COLOR, CARD_TEXT_COLOR_DARK)};"
    "line-height:1.45;font-weight:400;text-align:left;direction:ltr;unicode-bidi:isolate;"
    "white-space:pre-wrap;box-shadow:0 3px 10px rgba(0,0,0,.3);pointer-events:none;"
    "-webkit-user-select:none;user-select:none}"
    ".bpe>span:hover::after,.bpe>span:focus::after{display:block}"
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
) -> str:
    """Tokens inline as coloured spans, each with a details card; all token text is escaped.

    byte_symbols shows each byte as GPT-2's printable stand-in (Ġ for a space), as
    `render_token` does, instead of the text.

    `highlight` holds positions in `ids` to outline; special tokens are dark and bold.
    Hovering, focusing (Tab) or tapping a token opens its card: token_title's text, also
    its accessible description. Each distinct token's card is written once (a CSS rule
    and a hidden description), whatever the number of times it occurs; titles=False
    leaves the cards out.

    >>> page = tokens_to_html(Tokenizer(), list(b"<b>"))
    >>> "<b>" in page, '<span class="c-8dd3c7 k60" tabindex="0" aria-describedby=' in page
    (False, True)
    >>> print(tokens_to_html(Tokenizer(), [0xD9], titles=False).split("</style>")[1])
    <div class="bpe"><span class="c-fccde5"><bdi dir="ltr">&lt;0xD9&gt;</bdi></span></div>
    """
    colors = token_colors(tokenizer, ids, color_by=color_by, palette=palette, num_merges=num_merges)
    marked = _positions(highlight, len(ids))
    rendering = f"bpe{next(_RENDERINGS)}"
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
    cards = [(token, _card(tokenizer, token)) for token in pieces] if titles else []
    parts[0] = _style_block(colors, _card_rules(rendering, cards))
    parts.append(_descriptions(rendering, cards))
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
        rf'(?<=class="bpe ){old}(?=")|(?<=\.){old}(?= \.k\d+::after\{{content:")'
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
    return _text_html(data, visible_whitespace, keep_layout=True)


def _text_html(data: bytes, visible_whitespace: bool, keep_layout: bool) -> str:
    """render_token's text, escaped, with hex labels isolated so they read left to right.

    >>> _text_html("ـم".encode()[:3], False, False)
    'ـ<bdi dir="ltr">&lt;0xD9&gt;</bdi>'
    """
    return "".join(
        f'<bdi dir="ltr">{html.escape(piece)}</bdi>' if is_hex else html.escape(piece)
        for piece, is_hex in display_pieces(data, visible_whitespace, keep_layout)
    )


def token_title(tokenizer: Tokenizer, token: int) -> str:
    """Plain text describing a token: id, bytes in hex, and how it was made.

    Merges count from 1, as minbpe's log does: merge k creates id 255 + k.

    >>> print(token_title(Tokenizer([(116, 104)]), 256))
    id 256: 'th'
    bytes 74 68
    merge 1: 't' + 'h'
    >>> print(token_title(Tokenizer(outside_merges={256: b"xyz"}), 256).splitlines()[-1])
    no merge makes it (outside the merge path)
    """
    return "\n".join(
        "".join(part if isinstance(part, str) else _quoted(part) for part in line)
        for line in _detail_lines(tokenizer, token)
    )


@dataclass(frozen=True, slots=True)
class _Card:
    """token_title twice: escaped HTML lines (the description a screen reader reads) and
    the text of a CSS string (what the ::after card shows); right-to-left text isolated
    in both."""

    html: str
    css: str


def _card(tokenizer: Tokenizer, token: int) -> _Card:
    """A token's card, from a cache shared by every tokenizer.

    >>> card = _card(Tokenizer([(0xD8, 0xA8)]), 256)
    >>> card.html.split("<br>")[0]
    "id 256: <bdi>'ب'</bdi>"
    >>> card.css.split(" + ")[0]  # isolates: U+2068 first-strong, U+2066 left to right
    "id 256: \\u2068'ب'\\u2069\\\\a bytes D8 A8\\\\a merge 1: '\\u2066\\\\3c 0xD8\\\\3e \\u2069'"
    """
    key = _card_key(tokenizer, token)
    card = _CARDS.get(key)
    if card is None:
        if len(_CARDS) >= _CARD_CACHE_SIZE:
            _CARDS.clear()
        lines = _detail_lines(tokenizer, token)
        card = _CARDS[key] = _Card(
            "<br>".join("".join(_card_part(part) for part in line) for line in lines),
            "\\a ".join("".join(_card_css_part(part) for part in line) for line in lines),
        )
    return card


# subtle: a card is a function of what it shows, so one cache serves every tokenizer;
# Animate draws the same tokens' cards at every step (a third of a step's server time)
_CARD_CACHE_SIZE = 1 << 16
_CARDS: dict[tuple[object, ...], _Card] = {}


def _card_key(tokenizer: Tokenizer, token: int) -> tuple[object, ...]:
    """All a card shows: the id and its bytes, and whether special, a byte or the parents."""
    if token in tokenizer.special_by_id:
        return (token, tokenizer.special_by_id[token])
    if token < 256:
        return (token, tokenizer.vocab[token])
    if token in tokenizer.outside_merges:
        return (token, None, tokenizer.outside_merges[token])
    left, right = tokenizer.merges[token - 256]
    return (token, tokenizer.vocab[left], tokenizer.vocab[right])


def _card_rules(rendering: str, cards: list[tuple[int, _Card]]) -> str:
    """One ::after rule per distinct token: `.bpe3 .k97::after{content:"id 97: 'a'..."}`."""
    return "".join(
        f'.{rendering} .k{token}::after{{content:"{card.css}"}}' for token, card in cards
    )


def _descriptions(rendering: str, cards: list[tuple[int, _Card]]) -> str:
    """The cards as hidden elements, one per distinct token, for aria-describedby."""
    if not cards:
        return ""
    spans = "".join(
        f'<span id="{rendering}-{token}" role="tooltip">{card.html}</span>' for token, card in cards
    )
    return f"<div hidden>{spans}</div>"


def _card_part(part: str | bytes) -> str:
    if isinstance(part, str):
        return html.escape(part)
    quoted = f"'{_text_html(part, True, False)}'"  # quotes need escaping only in attributes
    # subtle: in the left-to-right card, "'ب' + 'ت'" would show its two parents swapped
    return f"<bdi>{quoted}</bdi>" if _has_rtl(part) else quoted


def _card_css_part(part: str | bytes) -> str:
    """_card_part for a CSS string: hex labels and right-to-left text isolated by Unicode
    isolates (a CSS string holds no markup), every character that could end the string,
    the rule or the style element escaped.

    >>> _card_css_part('a "b" </style>').split(" ")
    ['a', '\\\\22', 'b\\\\22', '', '\\\\3c', '/style\\\\3e', '']
    """
    if isinstance(part, str):
        return _css_escape(part)
    text = "".join(
        f"\u2066{piece}\u2069" if is_hex else piece
        for piece, is_hex in display_pieces(part, True, False)
    )
    quoted = f"\u2068'{text}'\u2069" if _has_rtl(part) else f"'{text}'"
    return _css_escape(quoted)


_CSS_UNSAFE = frozenset('"\\<>&\u2028\u2029') | {chr(c) for c in (*range(0x20), 0x7F)}


def _css_escape(text: str) -> str:
    return "".join(f"\\{ord(char):x} " if char in _CSS_UNSAFE else char for char in text)


def _has_rtl(data: bytes) -> bool:
    text = data.decode("utf-8", errors="ignore")
    return any(unicodedata.bidirectional(char) in ("R", "AL") for char in text)


def _detail_lines(tokenizer: Tokenizer, token: int) -> list[tuple[str | bytes, ...]]:
    """token_title's lines in parts: plain text, and token bytes to show quoted."""
    data = tokenizer.token_bytes(token)
    lines: list[tuple[str | bytes, ...]] = [(f"id {token}: ", data)]
    lines.append((f"bytes {data.hex(' ').upper()}",))
    if token in tokenizer.special_by_id:
        lines.append(("special token",))
    elif token < 256:
        lines.append(("byte",))
    elif token in tokenizer.outside_merges:
        lines.append(("no merge makes it (outside the merge path)",))
    else:
        left, right = tokenizer.merges[token - 256]
        parents = (tokenizer.vocab[left], " + ", tokenizer.vocab[right])
        lines.append((f"merge {token - 255}: ", *parents))
    return lines


def _quoted(data: bytes) -> str:
    return f"'{render_token(data, visible_whitespace=True)}'"


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
