"""Tokens as escaped HTML: coloured spans, each with a details card that opens on hover,
focus or tap, lines that break only between words, right-to-left text kept readable.

    >>> from explorer.tokenizer import Tokenizer
    >>> page = tokens_to_html(Tokenizer(), list(b"<b>"))
    >>> "<b>" in page, '<span class="c-8dd3c7" tabindex="0" aria-describedby=' in page
    (False, True)
"""

from __future__ import annotations

import functools
import html
import itertools
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from explorer.render import (
    CARD_COLOR,
    CARD_TEXT_COLOR,
    SPECIAL_TEXT_COLOR,
    TEXT_COLOR,
    RenderError,
    display_pieces,
    render_token,
    token_colors,
)
from explorer.tokenizer import Tokenizer

# One rule set per page is enough: class names depend only on the colour, so several
# renderings on one page never disagree. Tokens are the div's children: a faint edge and a
# 1px gap tell two neighbours of one colour apart. A card (.d) is hidden (display:none, so
# it is neither shown, copied nor in innerText) until its token is hovered or focused.
# Lines break between words, never inside one ("pa|ir"): the spans give the browser no
# break opportunity between tokens, and visible whitespace (·) leaves none between words
# either, so a <wbr> marks each place next to whitespace; overflow-wrap:anywhere then only
# breaks a word longer than the line.
# subtle: a token span must not isolate its direction (unicode-bidi:isolate). Isolated
# tokens sit in the paragraph's order, left to right, and an Arabic word of three tokens
# would read backwards; only hex labels (<bdi dir="ltr">) and ids (sub) are isolated.
OUTLINE = "outline:2px solid #000;outline-offset:0"  # a highlighted token (also ui.animation)
_STYLE = (
    f".bpe{{white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.9;color:{TEXT_COLOR};"
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}"
    ".bpe>span{position:relative;border-radius:3px;margin-right:1px;"
    "box-shadow:inset 0 0 0 1px rgba(0,0,0,.2);"
    "-webkit-box-decoration-break:clone;box-decoration-break:clone}"
    f".bpe .s{{color:{SPECIAL_TEXT_COLOR};font-weight:600}}"
    f".bpe .h{{{OUTLINE}}}"
    ".bpe>span:focus-visible{outline:3px solid #0B57D0;outline-offset:1px}"
    ".bpe sub{font-size:.7em;margin-left:1px;direction:ltr;unicode-bidi:isolate;"
    "-webkit-user-select:none;user-select:none}"
    ".bpe .d{display:none;position:absolute;left:0;top:100%;margin-top:3px;z-index:1000;"
    "width:max-content;max-width:min(24rem,90vw);padding:6px 9px;border-radius:6px;"
    f"background:{CARD_COLOR};color:{CARD_TEXT_COLOR};font-size:14px;line-height:1.45;"
    "font-weight:400;text-align:left;direction:ltr;unicode-bidi:isolate;white-space:pre-wrap;"
    "box-shadow:0 3px 10px rgba(0,0,0,.3);pointer-events:none;"
    "-webkit-user-select:none;user-select:none}"
    ".bpe>span:hover>.d,.bpe>span:focus>.d{display:block}"
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
    its accessible description. Cards are most of the size (about 170 bytes a token);
    titles=False leaves them out.

    >>> page = tokens_to_html(Tokenizer(), list(b"<b>"))
    >>> "<b>" in page, '<span class="c-8dd3c7" tabindex="0" aria-describedby=' in page
    (False, True)
    >>> print(tokens_to_html(Tokenizer(), [0xD9], titles=False).split("</style>")[1])
    <div class="bpe"><span class="c-fccde5"><bdi dir="ltr">&lt;0xD9&gt;</bdi></span></div>
    """
    colors = token_colors(tokenizer, ids, color_by=color_by, palette=palette, num_merges=num_merges)
    marked = _positions(highlight, len(ids))
    prefix = f"bpe{next(_RENDERINGS)}-"
    # subtle: a passage repeats a few hundred distinct tokens, so each one's HTML around
    # its position-dependent parts (outline, card id) is built once; an Animate step
    # draws two passages, and this loop was most of a step's HTML work
    pieces: dict[int, _Pieces] = {}
    parts = [_style_block(colors), '<div class="bpe">']
    break_next = False
    for index, (token, color) in enumerate(zip(ids, colors)):
        piece = pieces.get(token)
        if piece is None:
            piece = pieces[token] = _pieces(
                tokenizer, token, color, (show_ids, titles, visible_whitespace, byte_symbols)
            )
        if index and (break_next or piece.break_before):
            parts.append("<wbr>")  # a line may break here, and only here (see _STYLE)
        break_next = piece.break_after
        outline = " h" if index in marked else ""
        if piece.has_card:  # focusable (so Tab and a tap open the card), described by it
            card_id = f"{prefix}{index}"
            parts.append(
                f'{piece.head}{outline}" tabindex="0" aria-describedby="{card_id}">'
                f'<span class="d" role="tooltip" id="{card_id}">{piece.rest}'
            )
        else:
            parts.append(f'{piece.head}{outline}">{piece.rest}')
    parts.append("</div>")
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class _Pieces:
    """One token's HTML but for its outline and card id: `head` opens its span (classes
    unfinished); `rest` is its card's text and end, then its own text and end (or, with
    no card, the text and end alone)."""

    head: str
    rest: str
    has_card: bool
    break_before: bool
    break_after: bool


def _pieces(tokenizer: Tokenizer, token: int, color: str, options: tuple[bool, ...]) -> _Pieces:
    show_ids, titles, visible_whitespace, byte_symbols = options
    data = tokenizer.token_bytes(token)
    special = token in tokenizer.special_by_id
    text, card = _token_body(
        tokenizer, token, _shown_text(data, visible_whitespace, byte_symbols), show_ids, titles
    )
    head = f'<span class="{_color_class(color)}{" s" if special else ""}'
    # the card comes first, so the token's text still ends where its span does
    rest = f"{card}</span>{text}</span>" if card else f"{text}</span>"
    return _Pieces(head, rest, bool(card), *_line_breaks(data, special))


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


def _token_body(
    tokenizer: Tokenizer, token: int, text: str, show_ids: bool, titles: bool
) -> tuple[str, str]:
    """A token's shown text with its optional id, and its card's HTML ("" without titles)."""
    sub = f"<sub>{token}</sub>" if show_ids else ""
    return text + sub, _card_html(tokenizer, token) if titles else ""


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
    """
    return "\n".join(
        "".join(part if isinstance(part, str) else _quoted(part) for part in line)
        for line in _detail_lines(tokenizer, token)
    )


def _card_html(tokenizer: Tokenizer, token: int) -> str:
    """token_title as escaped HTML lines; a quoted right-to-left token is isolated.

    >>> _card_html(Tokenizer([(0xD8, 0xA8)]), 256).split("<br>")[0]
    "id 256: <bdi>'ب'</bdi>"
    """
    key = _card_key(tokenizer, token)
    card = _CARDS.get(key)
    if card is None:
        if len(_CARDS) >= _CARD_CACHE_SIZE:
            _CARDS.clear()
        card = _CARDS[key] = _new_card_html(tokenizer, token)
    return card


# subtle: a card is a function of what it shows, so one cache serves every tokenizer;
# Animate draws the same tokens' cards at every step (a third of a step's server time)
_CARD_CACHE_SIZE = 1 << 16
_CARDS: dict[tuple[object, ...], str] = {}


def _card_key(tokenizer: Tokenizer, token: int) -> tuple[object, ...]:
    """All a card shows: the id and its bytes, and whether special, a byte or the parents."""
    if token in tokenizer.special_by_id:
        return (token, tokenizer.special_by_id[token])
    if token < 256:
        return (token, tokenizer.vocab[token])
    left, right = tokenizer.merges[token - 256]
    return (token, tokenizer.vocab[left], tokenizer.vocab[right])


def _new_card_html(tokenizer: Tokenizer, token: int) -> str:
    return "<br>".join(
        "".join(_card_part(part) for part in line) for line in _detail_lines(tokenizer, token)
    )


def _card_part(part: str | bytes) -> str:
    if isinstance(part, str):
        return html.escape(part)
    quoted = f"'{_text_html(part, True, False)}'"  # quotes need escaping only in attributes
    # subtle: in the left-to-right card, "'ب' + 'ت'" would show its two parents swapped
    return f"<bdi>{quoted}</bdi>" if _has_rtl(part) else quoted


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
    else:
        left, right = tokenizer.merges[token - 256]
        parents = (tokenizer.vocab[left], " + ", tokenizer.vocab[right])
        lines.append((f"merge {token - 255}: ", *parents))
    return lines


def _quoted(data: bytes) -> str:
    return f"'{render_token(data, visible_whitespace=True)}'"


def _style_block(colors: Sequence[str]) -> str:
    rules = "".join(f".bpe .{_color_class(c)}{{background:{c}}}" for c in sorted(set(colors)))
    return f"<style>{_STYLE}{rules}</style>"


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
