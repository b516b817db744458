r"""Show tokens to people: display text and colours (escaped HTML is explorer.html.token_html).

Bytes that are not valid UTF-8 show as hex and control characters as escapes, so no
token is invisible and none is silently turned into U+FFFD:

    >>> render_token("’".encode()[:2]), render_token("’".encode()[2:])
    ('<0xE2><0x80>', '<0x99>')
    >>> print(render_token(b" hi\n\x00", visible_whitespace=True))
    ·hi↵\u0000
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from explorer.base.byte_map import gpt2_chars
from explorer.encoding.tokenizer import Tokenizer

COLOR_MODES = ("id", "rank", "length")
TEXT_COLOR = "#1A1A1A"  # on every palette colour but `special`: at least 4.5:1 (WCAG AA)
SPECIAL_TEXT_COLOR = "#FFFFFF"
CARD_COLOR, CARD_TEXT_COLOR = "#1F2328", "#FFFFFF"  # a token's details card: 15.8:1
# On a dark page (explorer.html.scheme): tokens take their colour's dark variant under
# light text, special tokens turn light under dark text, and the card turns light.
TEXT_COLOR_DARK = "#F2F2F2"  # on every dark variant: at least 4.5:1
SPECIAL_COLOR_DARK, SPECIAL_TEXT_COLOR_DARK = "#D0D0D0", "#111111"  # 12.2:1
CARD_COLOR_DARK, CARD_TEXT_COLOR_DARK = "#E6E8EB", "#111111"  # 15.4:1
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
    return "".join(piece for piece, _ in display_pieces(token, visible_whitespace, keep_layout))


def display_pieces(
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
