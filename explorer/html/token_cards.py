"""Token cards: what hovering, focusing or tapping a token shows, and what a screen reader
reads for it (explorer.html.token_html draws the tokens).

A card is token_title's text twice: the text of a CSS string, shown by the token span's
::after, and escaped HTML, in one hidden element per distinct token that the span's
aria-describedby names. Several renderings of one tokenizer's tokens on one screen (the
passage before and after an Animate step) can share one block of cards
(`shared_cards_html`), so each distinct token's card is written, sanitised by the browser
and parsed once, not once per rendering.

    >>> print(token_title(Tokenizer([(116, 104)]), 256))
    id 256: 'th'
    bytes 74 68
    merge 1: 't' + 'h'
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from explorer.encoding.tokenizer import Tokenizer
from explorer.html.render import RenderError, display_pieces, render_token


def text_html(data: bytes, visible_whitespace: bool, keep_layout: bool) -> str:
    """render_token's text, escaped, with hex labels isolated so they read left to right.

    >>> text_html("ـم".encode()[:3], False, False)
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
class Card:
    """token_title twice: escaped HTML lines (the description a screen reader reads) and
    the text of a CSS string (what the ::after card shows); right-to-left text isolated
    in both."""

    html: str
    css: str


def card(tokenizer: Tokenizer, token: int) -> Card:
    """A token's card, from a cache shared by every tokenizer.

    >>> shown = card(Tokenizer([(0xD8, 0xA8)]), 256)
    >>> shown.html.split("\\n")[0]
    "id 256: <bdi>'ب'</bdi>"
    >>> shown.css.split(" + ")[0]  # isolates: U+2068 first-strong, U+2066 left to right
    "id 256: \\u2068'ب'\\u2069\\\\a bytes D8 A8\\\\a merge 1: '\\u2066\\\\3c 0xD8\\\\3e \\u2069'"
    """
    key = _card_key(tokenizer, token)
    found = _CARDS.get(key)
    if found is None:
        if len(_CARDS) >= _CARD_CACHE_SIZE:
            _CARDS.clear()
        lines = _detail_lines(tokenizer, token)
        # subtle: lines end in a newline character, not <br>: the description is never
        # drawn (hidden), and three elements fewer per card is a third of what the browser
        # sanitised per Animate step (DOMPurify walks every node of st.html)
        found = _CARDS[key] = Card(
            "\n".join("".join(_card_part(part) for part in line) for line in lines),
            "\\a ".join("".join(_card_css_part(part) for part in line) for line in lines),
        )
    return found


# subtle: a card is a function of what it shows, so one cache serves every tokenizer;
# Animate draws the same tokens' cards at every step (a third of a step's server time)
_CARD_CACHE_SIZE = 1 << 16
_CARDS: dict[tuple[object, ...], Card] = {}


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


def card_rules(rendering: str, cards: list[tuple[int, Card]]) -> str:
    """One ::after rule per distinct token, for a hovered or focused token only:
    `.bpe3 .k97:hover::after,.bpe3 .k97:focus::after{content:"id 97: 'a'..."}`.

    >>> card_rules("bpe3", [(97, Card("", "a"))])
    '.bpe3 .k97:hover::after,.bpe3 .k97:focus::after{content:"a"}'
    """
    return "".join(
        f".{rendering} .k{token}:hover::after,.{rendering} .k{token}:focus::after"
        f'{{content:"{each.css}"}}'
        for token, each in cards
    )


def descriptions(rendering: str, cards: list[tuple[int, Card]]) -> str:
    """The cards as hidden elements, one per distinct token, for aria-describedby (the
    `rendering`-`token` id its spans name)."""
    if not cards:
        return ""
    spans = "".join(
        f'<span id="{rendering}-{token}" role="tooltip">{each.html}</span>' for token, each in cards
    )
    return f"<div hidden>{spans}</div>"


def _card_part(part: str | bytes) -> str:
    if isinstance(part, str):
        return html.escape(part)
    quoted = f"'{text_html(part, True, False)}'"  # quotes need escaping only in attributes
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


def shared_cards_html(tokenizer: Tokenizer, tokens: Iterable[int], name: str) -> str:
    """One block of cards for every rendering drawn with `tokens_to_html(..., cards=name)`
    on this screen: a rule per token for the ::after card of `.{name} .k{token}` (hovered
    or focused), and a hidden description `{name}-{token}` per token. `tokenizer` must
    know every token (for an Animate step, the tokenizer after it: the one before knows
    one token fewer, and both say the same of the others). `name` is a CSS class and id
    prefix, used by one block per screen.

    >>> block = shared_cards_html(Tokenizer([(116, 104)]), [256, 116], "am-cards")
    >>> block.split("::after")[0], block.count('role="tooltip"')
    ('<style>.am-cards .k256:hover', 2)
    >>> block.split("</style>")[1][:59]
    '<div hidden><span id="am-cards-256" role="tooltip">id 256: '
    """
    cards = [(token, card(tokenizer, token)) for token in dict.fromkeys(tokens)]
    name = block_name(name)
    return f"<style>{card_rules(name, cards)}</style>{descriptions(name, cards)}"


def block_name(name: str) -> str:
    """`name` if it can name a shared card block (a CSS class, an id prefix), else an error.

    >>> block_name("am-cards")
    'am-cards'
    """
    if not _NAME.fullmatch(name):
        raise RenderError(f"a card block's name is a CSS class such as 'am-cards', not {name!r}")
    return name


_NAME = re.compile(r"[a-z][a-z0-9-]*")
