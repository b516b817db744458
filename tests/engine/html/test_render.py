"""Rendering: display text, byte symbols, colours, and HTML that escapes everything."""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.encoding.tokenizer import Tokenizer, TokenizerError
from explorer.html.render import (
    CARD_COLOR,
    CARD_TEXT_COLOR,
    COLOR_MODES,
    PALETTES,
    SPECIAL_TEXT_COLOR,
    TEXT_COLOR,
    RenderError,
    render_token,
    token_color,
    token_colors,
)
from explorer.html.token_html import token_title, tokens_to_html, with_fresh_ids
from explorer.training.train import train

EOT = "<|endoftext|>"
ATTACKS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "</span><b>bold</b>",
    """quotes " and ' and &amp; and <!-- comment --> """,
]


@pytest.fixture(scope="module")
def attack_tokenizer() -> Tokenizer:
    """Merges learned on the attacks, so whole tags such as '<script>' become single tokens."""
    return train(ATTACKS * 20, 400, pattern="none", special_tokens=[EOT]).tokenizer


SMALL = train(
    "the cat sat on the mat. naïve café — ‘quoted’ 日本語\n\tthe end", 300, special_tokens=[EOT]
).tokenizer


# -- display text ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "shown"),
    [
        ("’".encode()[:2], "<0xE2><0x80>"),
        ("’".encode()[2:], "<0x99>"),
        ("’".encode(), "’"),
        (b"a\xffb", "a<0xFF>b"),
        (b"\xed\xa0\x80", "<0xED><0xA0><0x80>"),  # an encoded surrogate is not valid UTF-8
        (b"\xe6\x97\xa5\xe6", "日<0xE6>"),
    ],
)
def test_bytes_that_are_not_utf8_show_as_hex(token: bytes, shown: str) -> None:
    assert render_token(token) == shown


@given(st.binary(max_size=40))
def test_never_replacement_characters_or_raw_controls(data: bytes) -> None:
    shown = render_token(data)
    if "\ufffd".encode() not in data:
        assert "\ufffd" not in shown
    assert not any(unicodedata.category(char).startswith("C") for char in shown)


@pytest.mark.parametrize(
    ("token", "shown"),
    [
        (b"\x00", "\\u0000"),
        (b"\x1b[0m", "\\u001b[0m"),
        (b"\x7f", "\\u007f"),
        (b"\n", "\\u000a"),
        ("\u200b".encode(), "\\u200b"),  # zero-width space, category Cf
    ],
)
def test_control_characters_are_escaped(token: bytes, shown: str) -> None:
    assert render_token(token) == shown


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        ({}, " a\\u000a\\u0009\\u000d"),
        ({"visible_whitespace": True}, "·a↵→\\u000d"),
        ({"keep_layout": True}, " a\n\t\\u000d"),
        ({"visible_whitespace": True, "keep_layout": True}, "·a↵\n→\t\\u000d"),
    ],
)
def test_whitespace_options(options: dict[str, bool], shown: str) -> None:
    assert render_token(b" a\n\t\r", **options) == shown


def test_byte_symbols_ignore_the_other_options() -> None:
    assert render_token(b" a\n", byte_symbols=True, visible_whitespace=True) == "ĠaĊ"
    assert render_token("’".encode(), byte_symbols=True) == "âĢĻ"
    assert render_token(b"\xe2\x80", byte_symbols=True, keep_layout=True) == "âĢ"


# -- colours -------------------------------------------------------------------------------

token_ids = st.lists(
    st.sampled_from([*range(256), *range(256, SMALL.vocab_size), *SMALL.special_by_id]),
    max_size=60,
)


@settings(max_examples=150)
@given(
    ids=st.one_of(token_ids, token_ids.map(sorted)),  # sorted lists repeat ids side by side
    color_by=st.sampled_from(COLOR_MODES),
    palette=st.sampled_from(sorted(PALETTES)),
)
def test_a_colour_is_a_function_of_the_token_alone(
    ids: list[int], color_by: str, palette: str
) -> None:
    colors = token_colors(SMALL, ids, color_by=color_by, palette=palette)
    assert len(colors) == len(ids)
    seen: dict[int, str] = {}
    for token, color in zip(ids, colors):
        assert seen.setdefault(token, color) == color  # every occurrence, neighbours too
        assert color == token_color(SMALL, token, color_by=color_by, palette=palette)
    scheme = PALETTES[palette]
    allowed = {*scheme.categorical, *scheme.ramp, scheme.neutral, scheme.special}
    assert set(colors) <= allowed


@settings(max_examples=60, deadline=None)
@given(ids=token_ids, color_by=st.sampled_from(COLOR_MODES))
def test_every_occurrence_of_an_id_has_one_colour_class(ids: list[int], color_by: str) -> None:
    page = parse(SMALL, ids, color_by=color_by)
    classes: dict[int, str] = {}
    for token, span in zip(ids, page.spans):
        color_class = span["cls"].split()[0]
        assert color_class.startswith("c-")
        assert classes.setdefault(token, color_class) == color_class


def test_same_neighbours_keep_their_colour() -> None:
    colors = token_colors(SMALL, [97, 97, 98, 97, 107])
    assert colors[0] == colors[1] == colors[3]
    assert colors[4] == colors[0]  # 97 and 107 share a colour of ten: a boundary tells them apart


def relative_luminance(color: str) -> float:
    """WCAG 2's relative luminance of an sRGB colour such as '#1A1A1A'."""
    channels = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio, from 1 to 21."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_contrast_formula() -> None:
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21)
    assert contrast("#767676", "#FFFFFF") == pytest.approx(4.54, abs=0.01)  # the AA threshold grey


@pytest.mark.parametrize("name", sorted(PALETTES))
def test_every_colour_gives_its_text_aa_contrast(name: str) -> None:
    scheme = PALETTES[name]
    for color in (*scheme.categorical, *scheme.ramp, scheme.neutral):
        assert contrast(color, TEXT_COLOR) >= 4.5, color
    assert contrast(scheme.special, SPECIAL_TEXT_COLOR) >= 4.5


def test_rank_colours_bytes_neutral_and_tell_early_from_late_merges() -> None:
    last = SMALL.vocab_size - 1
    colors = token_colors(SMALL, [97, 256, 98, last], color_by="rank")
    assert colors[0] == PALETTES["default"].neutral
    assert colors[1] == PALETTES["default"].ramp[0]
    assert colors[3] == PALETTES["default"].ramp[-1]


def test_num_merges_fixes_the_rank_scale() -> None:
    partial = SMALL.at_vocab_size(260)
    scaled = token_colors(partial, [259], color_by="rank", num_merges=len(SMALL.merges))
    assert scaled == [PALETTES["default"].ramp[0]]
    assert token_colors(partial, [259], color_by="rank") == [PALETTES["default"].ramp[-1]]


def test_length_colours_follow_token_length() -> None:
    long_token = max(range(256, SMALL.vocab_size), key=lambda i: len(SMALL.token_bytes(i)))
    colors = token_colors(SMALL, [97, long_token], color_by="length", palette="colorblind")
    assert colors == [PALETTES["colorblind"].ramp[0], PALETTES["colorblind"].ramp[-1]]


@pytest.mark.parametrize(
    ("options", "names"),
    [({"color_by": "merge"}, "id, rank, length"), ({"palette": "neon"}, "default, colorblind")],
)
def test_unknown_options_name_the_choices(options: dict[str, str], names: str) -> None:
    with pytest.raises(RenderError, match=names) as error:
        token_colors(SMALL, [97], **options)
    assert isinstance(error.value, ValueError)


def test_unknown_ids_are_refused() -> None:
    with pytest.raises(TokenizerError):
        token_colors(SMALL, [SMALL.vocab_size + 50])


# -- HTML ----------------------------------------------------------------------------------


class Page(HTMLParser):
    """Every tag, comment and declaration, and each token span's attributes and contents.

    A token is a span directly in the first div: its `class`, its `focus` attributes, its
    `text` (outside sub), its `sub`, and its `card`: the hidden description its
    aria-describedby names (<br> read as "\n"), in the second div, which must say what
    the stylesheet's ::after rule for its class shows. A <wbr> between two tokens lets a
    line break there.
    """

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: set[str] = set()
        self.spans: list[dict[str, str]] = []
        self.cards: dict[str, str] = {}  # description id -> its text
        self.card_ids: list[str] = []
        self.divs = 0
        self.css = ""
        self.open: list[str] = []  # tag, or "card" for a description's span
        self.feed(page)
        self.close()
        for span in self.spans:
            span["card"] = self.cards[span["focus"].split()[1]] if span["focus"] else ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        self.tags.append(tag)
        self.attributes |= set(found) if tag != "div" else set()
        if tag == "div":
            self.divs += 1
            assert not self.open and (self.divs == 1 or found == {"hidden": ""}), found
        elif tag == "br":
            assert self.open[-1:] == ["card"]
            self.cards[self.card_ids[-1]] += "\n"
            return  # a void element: no end tag
        elif tag == "wbr":
            assert self.open == ["div"] and self.divs == 1  # a break between two tokens
            return
        elif tag == "span" and self.open == ["div"] and self.divs == 1:
            focus = f"{found.get('tabindex', '')} {found.get('aria-describedby', '')}".strip()
            self.spans.append(dict(cls=found["class"], focus=focus, text="", sub=""))
        elif tag == "span" and self.open == ["div"]:  # a description, in the hidden div
            assert found["role"] == "tooltip"
            self.card_ids.append(found["id"])
            self.cards[found["id"]] = ""
            tag = "card"
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open.pop() in (tag, "card" if tag == "span" else tag)

    def handle_data(self, data: str) -> None:
        if "card" in self.open:
            self.cards[self.card_ids[-1]] += data
        elif self.open[-1:] == ["sub"]:
            self.spans[-1]["sub"] += data
        elif self.open[:2] == ["div", "span"]:
            self.spans[-1]["text"] += data
        elif self.open[-1:] == ["style"]:
            self.css += data
        else:
            assert not data

    def handle_comment(self, data: str) -> None:
        self.tags.append("<!--")

    def handle_decl(self, decl: str) -> None:
        self.tags.append("<!")

    def handle_pi(self, data: str) -> None:
        self.tags.append("<?")

    def unknown_decl(self, data: str) -> None:
        self.tags.append("<!")

    def card_rules(self) -> dict[str, str]:
        """Each ::after rule's class and the text it shows (CSS escapes and isolates read)."""
        string = r'"((?:[^"\\]|\\[0-9a-f]+ )*)"'  # only our escapes: \HEX and a space
        card = r"\.bpe\d+ \.(k\d+):hover::after,\.bpe\d+ \.k\d+:focus::after\{content:"
        rules = re.findall(card + string + r"\}", self.css)
        return {name: css_text(content) for name, content in rules}


def css_text(content: str) -> str:
    """A CSS string's text as a card shows it: escapes read, Unicode isolates dropped."""
    text = re.sub(r"\\([0-9a-f]+) ", lambda m: chr(int(m[1], 16)), content)
    assert "<" not in content  # nor could it end the style element
    return re.sub("[\u2066-\u2069]", "", text)


def parse(tokenizer: Tokenizer, ids: list[int], **options: object) -> Page:
    page = Page(tokens_to_html(tokenizer, ids, **options))  # type: ignore[arg-type]
    assert set(page.tags) <= {"style", "div", "span", "sub", "bdi", "br", "wbr"}
    assert page.tags.count("style") == 1 and page.divs in (1, 2)
    assert page.attributes <= {"class", "tabindex", "aria-describedby", "role", "id", "dir"}
    assert not page.open
    assert len(page.spans) == len(ids)
    assert len(set(page.card_ids)) == len(page.card_ids)  # ids are unique
    with_cards = [span for span in page.spans if span["focus"]]
    assert {span["focus"].split()[1] for span in with_cards} == set(page.card_ids)
    assert all(span["focus"].startswith("0 ") for span in with_cards)
    shown = page.card_rules()  # each distinct token's ::after card says its description
    for span in with_cards:
        [name] = [c for c in span["cls"].split() if c.startswith("k")]
        assert shown[name] == span["card"], (shown[name], span)
    return page


@pytest.mark.parametrize("text", ATTACKS)
def test_html_escapes_every_token(attack_tokenizer: Tokenizer, text: str) -> None:
    ids = attack_tokenizer.encode(text)
    assert any(len(attack_tokenizer.token_bytes(i)) > 4 for i in ids)  # real merged tokens
    html_text = tokens_to_html(attack_tokenizer, ids, show_ids=True)
    for raw in ("<script", "<img", "<b>", "</b>", "<!--", "onerror=alert(1)>", "' and"):
        assert raw not in html_text
    page = parse(attack_tokenizer, ids, show_ids=True)
    assert "".join(span["text"] for span in page.spans) == text
    assert [span["card"] for span in page.spans] == [token_title(attack_tokenizer, i) for i in ids]
    assert [span["sub"] for span in page.spans] == [str(i) for i in ids]


def test_quotes_are_escaped_in_text_and_cards(attack_tokenizer: Tokenizer) -> None:
    html_text = tokens_to_html(attack_tokenizer, attack_tokenizer.encode(ATTACKS[3]))
    assert "&quot;" in html_text
    assert "&#x27;" in html_text
    assert "&amp;amp;" in html_text


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=40), st.booleans(), st.sampled_from(COLOR_MODES))
def test_any_text_gives_only_our_tags(text: str, visible: bool, color_by: str) -> None:
    ids = SMALL.encode_ordinary(text)
    page = parse(SMALL, ids, visible_whitespace=visible, color_by=color_by)
    expected = [
        render_token(SMALL.token_bytes(i), visible_whitespace=visible, keep_layout=True)
        for i in ids
    ]
    assert [span["text"] for span in page.spans] == expected


def test_highlight_outlines_exactly_the_given_positions() -> None:
    ids = SMALL.encode("the cat sat on the mat")
    page = parse(SMALL, ids, highlight={1, 3})
    outlined = [i for i, span in enumerate(page.spans) if "h" in span["cls"].split()]
    assert outlined == [1, 3]
    assert ".bpe .h{outline:" in tokens_to_html(SMALL, ids)


def test_highlight_outside_the_tokens_is_refused() -> None:
    with pytest.raises(RenderError, match="outside the 2 tokens"):
        tokens_to_html(SMALL, [97, 98], highlight=[2])


def test_special_tokens_render_with_their_own_style() -> None:
    text = f"the end{EOT}the cat"
    ids = SMALL.encode(text, allowed_special="all")
    page = parse(SMALL, ids)
    [special] = [span for span in page.spans if "s" in span["cls"].split()]
    assert special["text"] == EOT
    assert special["card"].endswith("special token")
    assert "".join(span["text"] for span in page.spans) == text


def test_titles_give_id_hex_bytes_and_parents() -> None:
    tokenizer = Tokenizer([(116, 104), (256, 101)], special_tokens=[EOT])
    assert token_title(tokenizer, 256).endswith("merge 1: 't' + 'h'")  # merge k makes 255 + k
    assert token_title(tokenizer, 257) == "id 257: 'the'\nbytes 74 68 65\nmerge 2: 'th' + 'e'"
    assert token_title(tokenizer, 32) == "id 32: '·'\nbytes 20\nbyte"
    assert token_title(tokenizer, 0xE2) == "id 226: '<0xE2>'\nbytes E2\nbyte"
    assert token_title(tokenizer, 258).startswith("id 258: '<|endoftext|>'\nbytes 3C 7C")


def test_layout_survives_and_html_stays_compact(sample_text: str) -> None:
    ids = SMALL.encode_ordinary(sample_text[:5000])
    html_text = tokens_to_html(SMALL, ids, color_by="rank")
    assert "\n" in "".join(span["text"] for span in parse(SMALL, ids).spans)
    assert "style=" not in html_text
    assert html_text.count("<style>") == 1
    assert 'class="bpe ' in html_text and "white-space:pre-wrap" in html_text
    # a card is written once per distinct token, not once per occurrence
    assert html_text.count('role="tooltip"') == len(set(ids)) < len(ids) // 3


def test_cards_can_be_left_out() -> None:
    ids = SMALL.encode("the cat")
    page = parse(SMALL, ids, titles=False)
    assert [(span["card"], span["focus"]) for span in page.spans] == [("", "")] * len(ids)
    assert "tabindex" not in tokens_to_html(SMALL, ids, titles=False)


# -- cards and right-to-left text ------------------------------------------------------------

ARABIC, HEBREW = "مرحبا بالعالم", "שלום עולם"


def test_card_ids_never_repeat_across_renderings() -> None:
    ids = SMALL.encode("the cat")
    first, second = Page(tokens_to_html(SMALL, ids)), Page(tokens_to_html(SMALL, ids))
    assert not set(first.card_ids) & set(second.card_ids)


def test_cards_are_hidden_until_a_token_is_hovered_or_focused() -> None:
    css = tokens_to_html(SMALL, [97]).split("</style>")[0]
    card_rule = css.split(".bpe>span:hover::after,.bpe>span:focus::after{")[1].split("}")[0]
    assert card_rule.startswith("display:block;") and "user-select:none" in card_rule
    # no rule gives a token that is neither hovered nor focused an ::after: no card at all
    selectors = re.findall(r"([^{}]*::after[^{}]*)\{", css)
    assert selectors and all(
        each.endswith((":hover::after", ":focus::after"))
        for rule in selectors
        for each in rule.split(",")
    )
    assert "font-size:14px" in card_rule
    assert f"background:{CARD_COLOR};color:{CARD_TEXT_COLOR}" in card_rule
    assert contrast(CARD_COLOR, CARD_TEXT_COLOR) >= 4.5


def test_neighbours_are_told_apart_by_a_boundary_not_a_colour() -> None:
    css = tokens_to_html(SMALL, [97, 97]).split("</style>")[0]
    token_rule = css.split(".bpe>span{")[1].split("}")[0]
    assert "margin-right:1px" in token_rule and "box-shadow:inset" in token_rule


@pytest.mark.parametrize("text", [ARABIC, HEBREW])
def test_byte_labels_and_ids_are_isolated_left_to_right(text: str) -> None:
    bytes_only = Tokenizer()  # every byte a token: each letter is two hex labels
    ids = bytes_only.encode(text)
    page = tokens_to_html(bytes_only, ids, show_ids=True)
    letter = text.encode()[:1]
    assert f'<bdi dir="ltr">&lt;0x{letter.hex().upper()}&gt;</bdi>' in page
    plain = tokens_to_html(bytes_only, ids, titles=False)
    assert plain.count('<bdi dir="ltr">') == sum(1 for b in text.encode() if b >= 0x80)
    css = page.split("</style>")[0]
    assert "direction:ltr;unicode-bidi:isolate" in css.split(".bpe sub{")[1].split("}")[0]
    # subtle: a token must not be isolated, or a word of several tokens reads backwards
    assert "unicode-bidi" not in css.split(".bpe>span{")[1].split("}")[0]


@pytest.mark.parametrize("text", [ARABIC, HEBREW])
def test_whole_rtl_tokens_are_plain_text_and_their_card_parents_isolated(text: str) -> None:
    tokenizer = train(text * 3, 270, pattern="gpt4").tokenizer
    ids = tokenizer.encode(text)
    page = parse(tokenizer, ids)
    assert "".join(span["text"] for span in page.spans) == text
    for merged in {i for i in ids if i >= 256}:
        card = tokens_to_html(tokenizer, [merged]).split('role="tooltip"')[1]
        rtl = [merged, *tokenizer.merges[merged - 256]]
        rtl = [i for i in rtl if any(0x590 <= ord(c) <= 0x6FF for c in tokenizer.decode([i]))]
        assert card.count("<bdi>'") == len(rtl) > 0  # the token and its RTL parents


def test_lines_may_break_next_to_whitespace_never_between_a_words_tokens() -> None:
    tokenizer = Tokenizer([(112, 97), (105, 114)])  # 'pa', 'ir'
    page = tokens_to_html(tokenizer, tokenizer.encode("a pair.\nok"), titles=False)
    text = re.sub(r"</?span[^>]*>", "", page.split('<div class="bpe">')[1])
    assert text == "a<wbr> <wbr>pair.<wbr>\n<wbr>ok</div>"


@pytest.mark.parametrize(
    "text",
    [*ATTACKS, 'bpe0-97 "bpe1-98" .bpe2 .k97::after{content:"x"}', ".bpe2 .k97:hover::after,"],
)
def test_fresh_ids_rename_the_markup_and_leave_the_text(
    attack_tokenizer: Tokenizer, text: str
) -> None:
    ids = attack_tokenizer.encode(text)
    page = tokens_to_html(attack_tokenizer, ids, show_ids=True)
    fresh = with_fresh_ids(page)
    before, after = Page(page), Page(fresh)
    assert [(s["text"], s["sub"], s["card"]) for s in after.spans] == [
        (s["text"], s["sub"], s["card"]) for s in before.spans
    ]
    assert not set(before.card_ids) & set(after.card_ids)
    shown = after.card_rules()  # every card still drawn, by the fresh page's own rules
    assert shown == before.card_rules()
    for span in after.spans:
        [name] = [c for c in span["cls"].split() if c.startswith("k")]
        assert shown[name] == span["card"]
    old_name, new_name = (re.findall(r'<div class="bpe (bpe\d+)">', p)[0] for p in (page, fresh))
    assert after.card_ids[0].startswith(f"{new_name}-")
    assert f".{new_name} .k" in fresh and f".{old_name} .k" not in fresh
    plain = tokens_to_html(attack_tokenizer, ids, titles=False)
    assert with_fresh_ids(plain) == plain  # no cards, no ids to rename
