r"""Show tokens to people: display text, colours and escaped HTML.

Bytes that are not valid UTF-8 show as hex and control characters as escapes, so no
token is invisible and none is silently turned into U+FFFD:

    >>> render_token("’".encode()[:2]), render_token("’".encode()[2:])
    ('<0xE2><0x80>', '<0x99>')
    >>> print(render_token(b" hi\n\x00", visible_whitespace=True))
    ·hi↵\u0000
"""

from __future__ import annotations

import html
import itertools
import unicodedata
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from explorer.byte_map import gpt2_chars
from explorer.tokenizer import Tokenizer

COLOR_MODES = ("id", "rank", "length")
TEXT_COLOR = "#1A1A1A"  # on every palette colour but `special`: at least 4.5:1 (WCAG AA)
SPECIAL_TEXT_COLOR = "#FFFFFF"
CARD_COLOR, CARD_TEXT_COLOR = "#1F2328", "#FFFFFF"  # a token's details card: 15.8:1
VISIBLE_WHITESPACE = {" ": "·", "\n": "↵", "\t": "→"}
LAYOUT_CHARS = frozenset("\n\t")  # kept as real characters when keep_layout is on


class RenderError(ValueError):
    """A rendering option that does not exist, with the ones that do."""


def render_token(
    token: bytes,
    *,
    visible_whitespace: bool = False,
    byte_symbols: bool = False,
    keep_layout: bool = False,
) -> str:
    r"""Display text for a token's bytes; see the module docstring for more examples.

    keep_layout keeps newlines and tabs real (after their visible symbol), for HTML with
    pre-wrap. byte_symbols shows every byte as GPT-2's printable stand-in and ignores the
    other options:

    >>> render_token(b" a\n", visible_whitespace=True, keep_layout=True)
    '·a↵\n'
    >>> render_token(b" a\n", byte_symbols=True)
    'ĠaĊ'
    """
    if not isinstance(token, (bytes, bytearray)):
        raise TypeError(
            f"token must be bytes (e.g. tokenizer.vocab[id]), not {type(token).__name__}"
        )
    if byte_symbols:
        return gpt2_chars(token)
    return "".join(piece for piece, _ in _display_pieces(token, visible_whitespace, keep_layout))


def _display_pieces(
    token: bytes, visible_whitespace: bool, keep_layout: bool
) -> Iterator[tuple[str, bool]]:
    """render_token's text in pieces, each saying whether it is hex for bytes."""
    for piece, is_hex in _utf8_pieces(token):
        yield (piece if is_hex else _render_text(piece, visible_whitespace, keep_layout)), is_hex


def _utf8_pieces(token: bytes) -> Iterator[tuple[str, bool]]:
    """Decoded text, and hex for each run of bytes that is not valid UTF-8."""
    rest = token
    while rest:
        try:
            yield rest.decode("utf-8"), False
            return
        except UnicodeDecodeError as error:
            yield rest[: error.start].decode("utf-8"), False
            yield "".join(f"<0x{byte:02X}>" for byte in rest[error.start : error.end]), True
            rest = rest[error.end :]


def _render_text(text: str, visible_whitespace: bool, keep_layout: bool) -> str:
    if text.isprintable() and not (visible_whitespace and " " in text):
        return text  # the common case: nothing to replace
    return "".join(_render_char(char, visible_whitespace, keep_layout) for char in text)


def _render_char(char: str, visible_whitespace: bool, keep_layout: bool) -> str:
    symbol = VISIBLE_WHITESPACE.get(char, "") if visible_whitespace else ""
    if keep_layout and char in LAYOUT_CHARS:
        return symbol + char
    if symbol:
        return symbol
    if unicodedata.category(char).startswith("C"):
        return f"\\u{ord(char):04x}"  # minbpe's escape for control characters
    return char


@dataclass(frozen=True)
class Palette:
    """Background colours; all but `special` are light enough for dark text (WCAG AA)."""

    categorical: tuple[str, ...]  # by token id, cycling
    ramp: tuple[str, ...]  # ordered: merge rank or length, low to high
    neutral: str  # bytes in rank mode
    special: str  # special tokens, drawn with light text


def _colors(names: str) -> tuple[str, ...]:
    return tuple(names.split())


PALETTES: dict[str, Palette] = {
    # ColorBrewer Set3 (without its grey and second yellow); viridis mixed 62% with white.
    "default": Palette(
        categorical=_colors(
            "#8DD3C7 #FFFFB3 #BEBADA #FB8072 #80B1D3 #FDB462 #B3DE69 #FCCDE5 #BC80BD #CCEBC5"
        ),
        ramp=_colors("#B89EBE #B9B1CE #B3C1D4 #ADCED4 #AADBD1 #BAE7C8 #DBF1B4 #FEF6AC"),
        neutral="#E8E8E8",
        special="#404040",
    ),
    # Paul Tol's colour-blind-safe "light" scheme and eight light steps of his sequential
    # "iridescent" scheme (personal.sron.nl/~pault/).
    "colorblind": Palette(
        categorical=_colors("#77AADD #EE8866 #EEDD88 #FFAABB #99DDFF #44BB99 #BBCC33 #AAAA00"),
        ramp=_colors("#F5F3C1 #DDECBF #C2E3D2 #A8D8DC #8DCBE4 #7BBCE7 #88A5DD #9B8AC4"),
        neutral="#DDDDDD",
        special="#404040",
    ),
}


def token_colors(
    tokenizer: Tokenizer,
    ids: Sequence[int],
    *,
    color_by: str = "id",
    palette: str = "default",
    num_merges: int | None = None,
) -> list[str]:
    """One background colour per token, a function of the token alone (see token_color).

    The same token always looks the same, side by side too: the HTML tells neighbours
    apart by a boundary, never by changing a colour.

    >>> token_colors(Tokenizer(), [97, 97, 98])
    ['#FCCDE5', '#FCCDE5', '#BC80BD']
    """
    _palette(palette), _mode(color_by)  # refuse unknown options even for no tokens
    known: dict[int, str] = {}
    for token in ids:
        if token not in known:
            known[token] = token_color(
                tokenizer, token, color_by=color_by, palette=palette, num_merges=num_merges
            )
    return [known[token] for token in ids]


def token_color(
    tokenizer: Tokenizer,
    token: int,
    *,
    color_by: str = "id",
    palette: str = "default",
    num_merges: int | None = None,
) -> str:
    """A token's background colour, for any view that shows it beside the coloured text.

    color_by "id" gives each id its colour; "rank" runs merges along an ordered ramp
    (bytes neutral); "length" buckets tokens by length in bytes. num_merges sets the
    rank ramp's scale (default: this tokenizer's merges), so a growing vocabulary keeps
    its colours. Special tokens are dark whatever the mode.

    >>> token_color(Tokenizer([(104, 105)]), 256), token_color(Tokenizer(), 97, color_by="rank")
    ('#B3DE69', '#E8E8E8')
    """
    colors = _palette(palette)
    mode = _mode(color_by)
    if token in tokenizer.special_by_id:
        return colors.special
    length = len(tokenizer.token_bytes(token))  # raises for an id the tokenizer lacks
    if mode == "id":
        return colors.categorical[token % len(colors.categorical)]
    if mode == "length":
        return colors.ramp[min(length, len(colors.ramp)) - 1]
    if token < 256:
        return colors.neutral
    # the first merge takes the ramp's first step and merge scale - 1 its last
    scale = max(1, len(tokenizer.merges) if num_merges is None else num_merges)
    last = len(colors.ramp) - 1
    return colors.ramp[min(last, round((token - 256) * last / max(1, scale - 1)))]


def _palette(name: str) -> Palette:
    if name not in PALETTES:
        raise RenderError(f"unknown palette {name!r}; choose one of {', '.join(PALETTES)}")
    return PALETTES[name]


def _mode(color_by: str) -> str:
    if color_by not in COLOR_MODES:
        raise RenderError(f"unknown color_by {color_by!r}; choose one of {', '.join(COLOR_MODES)}")
    return color_by


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
_STYLE = (
    f".bpe{{white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.9;color:{TEXT_COLOR};"
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}"
    ".bpe>span{position:relative;border-radius:3px;margin-right:1px;"
    "box-shadow:inset 0 0 0 1px rgba(0,0,0,.2);"
    "-webkit-box-decoration-break:clone;box-decoration-break:clone}"
    f".bpe .s{{color:{SPECIAL_TEXT_COLOR};font-weight:600}}"
    ".bpe .h{outline:2px solid #000;outline-offset:0}"
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
    bodies: dict[int, tuple[str, str]] = {}
    breaks: dict[int, tuple[bool, bool]] = {}  # a line may break before, after a token
    parts = [_style_block(colors), '<div class="bpe">']
    break_next = False
    for index, (token, color) in enumerate(zip(ids, colors)):
        if token not in bodies:
            data = tokenizer.token_bytes(token)
            shown = _shown_text(data, visible_whitespace, byte_symbols)
            bodies[token] = _token_body(tokenizer, token, shown, show_ids, titles)
            breaks[token] = _line_breaks(data, token in tokenizer.special_by_id)
        text, card = bodies[token]
        break_before, break_after = breaks[token]
        if index and (break_next or break_before):
            parts.append("<wbr>")  # a line may break here, and only here (see _STYLE)
        break_next = break_after
        special = " s" if token in tokenizer.special_by_id else ""
        outline = " h" if index in marked else ""
        classes = f"{_color_class(color)}{special}{outline}"
        parts.append(_token_span(classes, text, card, f"{prefix}{index}"))
    parts.append("</div>")
    return "".join(parts)


def _line_breaks(data: bytes, special: bool) -> tuple[bool, bool]:
    """Whether a line may break before and after this token: at whitespace, and around a
    special token.

    >>> _line_breaks(b" pair", False), _line_breaks(b"ir", False), _line_breaks(b".\\n", False)
    ((True, False), (False, False), (False, True))
    """
    return special or data[:1].isspace(), special or data[-1:].isspace()


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


def _token_span(classes: str, text: str, card: str, card_id: str) -> str:
    """One token; with a card, focusable (so Tab and a tap open it) and described by it."""
    if not card:
        return f'<span class="{classes}">{text}</span>'
    # the card comes first, so the token's text still ends where its span does
    return (
        f'<span class="{classes}" tabindex="0" aria-describedby="{card_id}">'
        f'<span class="d" role="tooltip" id="{card_id}">{card}</span>{text}</span>'
    )


def _text_html(data: bytes, visible_whitespace: bool, keep_layout: bool) -> str:
    """render_token's text, escaped, with hex labels isolated so they read left to right.

    >>> _text_html("ـم".encode()[:3], False, False)
    'ـ<bdi dir="ltr">&lt;0xD9&gt;</bdi>'
    """
    return "".join(
        f'<bdi dir="ltr">{html.escape(piece)}</bdi>' if is_hex else html.escape(piece)
        for piece, is_hex in _display_pieces(data, visible_whitespace, keep_layout)
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
