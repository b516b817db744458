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
import unicodedata
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from explorer.tokenizer import Tokenizer

COLOR_MODES = ("id", "rank", "length")
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
        symbols = _byte_symbols()
        return "".join(symbols[byte] for byte in token)
    return "".join(
        piece if is_hex else _render_text(piece, visible_whitespace, keep_layout)
        for piece, is_hex in _utf8_pieces(token)
    )


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


def bytes_to_unicode() -> dict[int, str]:
    r"""GPT-2's byte-to-character map (encoder.py), in its order; a fresh copy each call.

    Printable Latin-1 bytes stand for themselves; the rest get characters from U+0100 on.

    >>> table = bytes_to_unicode()
    >>> table[ord("a")], table[ord(" ")], table[ord("\n")]
    ('a', 'Ġ', 'Ċ')
    """
    return dict(_gpt2_byte_map())


def unicode_to_bytes() -> dict[str, int]:
    """The inverse of bytes_to_unicode: `unicode_to_bytes()['Ġ'] == 32`."""
    return {char: byte for byte, char in _gpt2_byte_map()}


@cache
def _gpt2_byte_map() -> tuple[tuple[int, str], ...]:
    stand_for_themselves = [
        *range(ord("!"), ord("~") + 1),
        *range(ord("¡"), ord("¬") + 1),
        *range(ord("®"), ord("ÿ") + 1),
    ]
    table = [(byte, chr(byte)) for byte in stand_for_themselves]
    for byte in range(256):
        if byte not in stand_for_themselves:
            table.append((byte, chr(256 + len(table) - len(stand_for_themselves))))
    return tuple(table)


@cache
def _byte_symbols() -> tuple[str, ...]:
    table = dict(_gpt2_byte_map())
    return tuple(table[byte] for byte in range(256))


@dataclass(frozen=True)
class Palette:
    """Background colours; all but `special` are light enough for dark text (WCAG AA)."""

    categorical: tuple[str, ...]  # by token id, cycling
    ramp: tuple[str, ...]  # ordered: merge rank or length, low to high
    neutral: tuple[str, str]  # bytes in rank mode, and the alternative for a neighbour
    special: tuple[str, str]  # special tokens, drawn with light text


def _colors(names: str) -> tuple[str, ...]:
    return tuple(names.split())


PALETTES: dict[str, Palette] = {
    # ColorBrewer Set3 (without its grey and second yellow); viridis mixed 62% with white.
    "default": Palette(
        categorical=_colors(
            "#8DD3C7 #FFFFB3 #BEBADA #FB8072 #80B1D3 #FDB462 #B3DE69 #FCCDE5 #BC80BD #CCEBC5"
        ),
        ramp=_colors("#B89EBE #B9B1CE #B3C1D4 #ADCED4 #AADBD1 #BAE7C8 #DBF1B4 #FEF6AC"),
        neutral=("#E8E8E8", "#CFCFCF"),
        special=("#404040", "#5E5E5E"),
    ),
    # Paul Tol's colour-blind-safe "light" scheme and eight light steps of his sequential
    # "iridescent" scheme (personal.sron.nl/~pault/).
    "colorblind": Palette(
        categorical=_colors("#77AADD #EE8866 #EEDD88 #FFAABB #99DDFF #44BB99 #BBCC33 #AAAA00"),
        ramp=_colors("#F5F3C1 #DDECBF #C2E3D2 #A8D8DC #8DCBE4 #7BBCE7 #88A5DD #9B8AC4"),
        neutral=("#DDDDDD", "#BBBBBB"),
        special=("#404040", "#5E5E5E"),
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
    """One background colour per token, and two neighbours never share one.

    color_by "id" gives each id its colour; "rank" runs merges along an ordered ramp
    (bytes neutral); "length" buckets tokens by length in bytes. num_merges sets the
    rank ramp's scale (default: this tokenizer's merges), so a growing vocabulary keeps
    its colours. A token that would match its left neighbour takes its alternative.

    >>> token_colors(Tokenizer(), [97, 97, 98])
    ['#FCCDE5', '#BC80BD', '#CCEBC5']
    """
    colors = _palette(palette)
    mode = _mode(color_by)
    scale = max(1, len(tokenizer.merges) if num_merges is None else num_merges)
    choices: dict[int, tuple[str, str]] = {}
    chosen: list[str] = []
    previous = ""
    for token in ids:
        if token not in choices:
            choices[token] = _choices(tokenizer, token, mode, colors, scale)
        first, second = choices[token]
        previous = second if first == previous else first
        chosen.append(previous)
    return chosen


def _choices(
    tokenizer: Tokenizer, token: int, mode: str, colors: Palette, scale: int
) -> tuple[str, str]:
    """A token's colour and the different one it takes beside a same-coloured neighbour."""
    if token in tokenizer.special_by_id:
        return colors.special
    length = len(tokenizer.token_bytes(token))  # raises for an id the tokenizer lacks
    if mode == "id":
        count = len(colors.categorical)
        return colors.categorical[token % count], colors.categorical[(token + 1) % count]
    if mode == "length":
        return _ramp_step(colors.ramp, min(length, len(colors.ramp)) - 1)
    if token < 256:
        return colors.neutral
    # the first merge takes the ramp's first step and merge scale - 1 its last
    last = len(colors.ramp) - 1
    return _ramp_step(colors.ramp, min(last, round((token - 256) * last / max(1, scale - 1))))


def _ramp_step(ramp: tuple[str, ...], step: int) -> tuple[str, str]:
    return ramp[step], ramp[step + 1] if step + 1 < len(ramp) else ramp[step - 1]


def _palette(name: str) -> Palette:
    if name not in PALETTES:
        raise RenderError(f"unknown palette {name!r}; choose one of {', '.join(PALETTES)}")
    return PALETTES[name]


def _mode(color_by: str) -> str:
    if color_by not in COLOR_MODES:
        raise RenderError(f"unknown color_by {color_by!r}; choose one of {', '.join(COLOR_MODES)}")
    return color_by


# One rule set per page is enough: class names depend only on the colour, so several
# renderings on one page never disagree.
_STYLE = (
    ".bpe{white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.9;color:#1A1A1A;"
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}"
    ".bpe span{border-radius:3px;-webkit-box-decoration-break:clone;box-decoration-break:clone}"
    ".bpe .s{color:#FFF;font-weight:600}"
    ".bpe .h{outline:2px solid #000;outline-offset:0}"
    ".bpe sub{font-size:.65em;opacity:.75;margin-left:1px}"
)


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
) -> str:
    """Tokens inline as coloured spans with a hover title; all token text is escaped.

    `highlight` holds positions in `ids` to outline; special tokens are dark and bold.
    Titles are most of the size (about 140 bytes a token); titles=False drops them.

    >>> page = tokens_to_html(Tokenizer(), list(b"<b>"))
    >>> "<b>" in page, '<span class="c-8dd3c7" title="id 60: &#x27;&lt;&#x27;' in page
    (False, True)
    """
    colors = token_colors(tokenizer, ids, color_by=color_by, palette=palette, num_merges=num_merges)
    marked = _positions(highlight, len(ids))
    tails: dict[int, str] = {}
    parts = [_style_block(colors), '<div class="bpe">']
    for index, (token, color) in enumerate(zip(ids, colors)):
        if token not in tails:
            tails[token] = _span_tail(tokenizer, token, show_ids, visible_whitespace, titles)
        special = " s" if token in tokenizer.special_by_id else ""
        outline = " h" if index in marked else ""
        parts.append(f'<span class="{_color_class(color)}{special}{outline}"{tails[token]}')
    parts.append("</div>")
    return "".join(parts)


def token_title(tokenizer: Tokenizer, token: int) -> str:
    """Plain text describing a token: id, bytes in hex, and how it was made.

    >>> print(token_title(Tokenizer([(116, 104)]), 256))
    id 256: 'th'
    bytes 74 68
    merge 0: 't' + 'h'
    """
    data = tokenizer.token_bytes(token)
    lines = [f"id {token}: {_quoted(data)}", f"bytes {data.hex(' ').upper()}"]
    if token in tokenizer.special_by_id:
        lines.append("special token")
    elif token < 256:
        lines.append("byte")
    else:
        left, right = tokenizer.merges[token - 256]
        parents = f"{_quoted(tokenizer.vocab[left])} + {_quoted(tokenizer.vocab[right])}"
        lines.append(f"merge {token - 256}: {parents}")
    return "\n".join(lines)


def _quoted(data: bytes) -> str:
    return f"'{render_token(data, visible_whitespace=True)}'"


def _span_tail(
    tokenizer: Tokenizer, token: int, show_ids: bool, visible_whitespace: bool, titles: bool
) -> str:
    """Everything of a token's span after its class: escaped title, text and optional id."""
    title = ""
    if titles:
        escaped = html.escape(token_title(tokenizer, token), quote=True).replace("\n", "&#10;")
        title = f' title="{escaped}"'
    text = render_token(
        tokenizer.token_bytes(token), visible_whitespace=visible_whitespace, keep_layout=True
    )
    sub = f"<sub>{token}</sub>" if show_ids else ""
    return f"{title}>{html.escape(text, quote=True)}{sub}</span>"


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
