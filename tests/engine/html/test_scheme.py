"""The dark scheme's colours: readable on every palette, in order, and pinned in the config."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tomllib

from explorer.encoding.tokenizer import Tokenizer
from explorer.html.render import (
    CARD_COLOR_DARK,
    CARD_TEXT_COLOR_DARK,
    PALETTES,
    SPECIAL_COLOR_DARK,
    SPECIAL_TEXT_COLOR_DARK,
    TEXT_COLOR_DARK,
)
from explorer.html.scheme import (
    DARK_PAGE,
    DARK_TEXT,
    LIGHT_TEXT,
    _oklab,
    _rgb,
    contrast_ratio,
    dark_variant,
)
from explorer.html.split_html import split_html
from explorer.html.token_html import tokens_to_html

CONFIG = Path(__file__).resolve().parents[3] / ".streamlit" / "config.toml"
HEX = re.compile(r"#[0-9A-F]{6}")


def lightness(color: str) -> float:
    return _oklab(_rgb(color))[0]


@pytest.mark.parametrize("name", sorted(PALETTES))
def test_every_dark_variant_gives_light_text_aa_contrast(name: str) -> None:
    palette = PALETTES[name]
    for color in (*palette.categorical, *palette.ramp, palette.neutral):
        dark = dark_variant(color)
        assert HEX.fullmatch(dark), dark
        assert contrast_ratio(dark, TEXT_COLOR_DARK) >= 4.5, (color, dark)
    assert contrast_ratio(SPECIAL_COLOR_DARK, SPECIAL_TEXT_COLOR_DARK) >= 4.5
    assert contrast_ratio(CARD_COLOR_DARK, CARD_TEXT_COLOR_DARK) >= 4.5


@pytest.mark.parametrize("name", sorted(PALETTES))
def test_dark_variants_keep_the_palette_apart_and_the_ramp_in_order(name: str) -> None:
    palette = PALETTES[name]
    darks = [dark_variant(c) for c in palette.categorical]
    assert len(set(darks)) == len(darks)
    ramp = [lightness(dark_variant(c)) for c in palette.ramp]
    light_order = sorted(range(len(ramp)), key=lambda i: lightness(palette.ramp[i]))
    assert sorted(range(len(ramp)), key=ramp.__getitem__) == light_order


def test_a_dark_variant_keeps_its_hue() -> None:
    for color in PALETTES["default"].categorical:
        _, a, b = _oklab(_rgb(color))
        _, dark_a, dark_b = _oklab(_rgb(dark_variant(color)))
        assert a * dark_a + b * dark_b >= 0, color  # the same side of the hue circle


def test_html_colours_come_light_then_light_dark() -> None:
    tokenizer = Tokenizer([(104, 105)])
    passage = tokens_to_html(tokenizer, [256, 32, 97])
    view = split_html(tokenizer, [256, 97], [(0, 2), (2, 3)], [0, None])
    for page in (passage, view):
        for light, dark in re.findall(r"light-dark\((#\w+),(#\w+)\)", page):
            assert light != dark
        assert "light-dark(" in page
    # every token rule names its light colour first, as a browser without light-dark() reads
    for color, light in re.findall(r"\.c-(\w+)\{background:(#\w+);background:light-dark", passage):
        assert light.lower() == f"#{color}"


def test_the_config_pins_the_colours_the_html_is_drawn_against() -> None:
    theme = tomllib.loads(CONFIG.read_text(encoding="utf-8"))["theme"]
    assert "base" not in theme  # the viewer's setting or Streamlit's menu picks the scheme
    assert theme["light"]["textColor"].upper() == LIGHT_TEXT
    assert theme["dark"]["backgroundColor"].upper() == DARK_PAGE
    assert theme["dark"]["textColor"].upper() == DARK_TEXT
    # Streamlit's captions: the text colour at 60 % on the page, WCAG AA
    faded = "#" + "".join(
        f"{round(0.6 * int(DARK_TEXT[i : i + 2], 16) + 0.4 * int(DARK_PAGE[i : i + 2], 16)):02X}"
        for i in (1, 3, 5)
    )
    assert contrast_ratio(faded, DARK_PAGE) >= 4.5
