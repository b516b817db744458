"""One block of token cards shared by several renderings (Animate's passages before and after
a step): every token's card is in it once, says token_title, and stays escaped."""

from __future__ import annotations

import html
import re

import pytest

from explorer.html.render import RenderError
from explorer.html.token_cards import shared_cards_html
from explorer.html.token_html import token_title, tokens_to_html
from explorer.training.train import train

ATTACK = "<script>alert(1)</script> \"quoted\" & 'single' </style><!-- x -->"
RESULT = train(ATTACK * 20, 300, pattern="none")
NAME = "am-cards"


def described(page: str) -> dict[str, str]:
    """Each hidden description's id and text (its lines end in newlines)."""
    found = re.findall(
        r'<span id="([^"]+)" role="tooltip">(.*?)</span>(?=<span id=|</div>)', page, re.S
    )
    return {name: html.unescape(re.sub(r"</?bdi>", "", text)) for name, text in found}


def shown(page: str) -> dict[str, str]:
    """Each ::after rule's class and the text its card shows (our CSS escapes read)."""
    rules = re.findall(
        r"\.am-cards \.(k\d+):hover::after,\.am-cards \.k\d+:focus::after"
        r"\{content:\"((?:[^\"\\]|\\[0-9a-f]+ )*)\"\}",
        page,
    )
    read = lambda text: re.sub(r"\\([0-9a-f]+) ", lambda m: chr(int(m[1], 16)), text)  # noqa: E731
    return {name: re.sub("[\u2066-\u2069]", "", read(text)) for name, text in rules}


def test_two_renderings_share_one_card_per_token() -> None:
    tokenizer = RESULT.tokenizer
    before, after = tokenizer.at_vocab_size(290), tokenizer.at_vocab_size(291)
    ids_before, ids_after = before.encode(ATTACK * 2), after.encode(ATTACK * 2)
    panes = [
        tokens_to_html(before, ids_before, visible_whitespace=True, cards=NAME),
        tokens_to_html(after, ids_after, visible_whitespace=True, cards=NAME),
    ]
    block = shared_cards_html(after, [*ids_before, *ids_after], NAME)
    page = "".join(panes) + block
    for raw in ("<script", "</style><!--", '"quoted"', "& '"):
        assert raw not in page  # user text is escaped in spans, rules and descriptions
    assert all("<div hidden>" not in pane and "::after{content" not in pane for pane in panes)
    cards, rules = described(block), shown(block)
    tokens = set(ids_before) | set(ids_after)
    assert len(cards) == block.count('role="tooltip"') == len(tokens)  # once each
    named = re.findall(r'class="[^"]* (k\d+)" tabindex="0" aria-describedby="([^"]+)"', page)
    assert len(named) == len(ids_before) + len(ids_after)  # every token is described
    for rule, name in named:
        token = int(rule[1:])
        assert name == f"{NAME}-{token}"
        assert cards[name] == rules[rule] == token_title(after, token)
    assert f'<div class="bpe {NAME}">' in panes[0]


def test_a_card_block_name_must_be_a_plain_class() -> None:
    for name in ('x" onmouseover="alert(1)', "bpe0 .k1", "", "A"):
        with pytest.raises(RenderError, match="CSS class"):
            shared_cards_html(RESULT.tokenizer, [97], name)
        with pytest.raises(RenderError, match="CSS class"):
            tokens_to_html(RESULT.tokenizer, [97], cards=name)
