"""Light and dark: every colour the HTML draws, as CSS that follows the active colour scheme.

The app's page sets CSS `color-scheme` to light or dark (Streamlit does, on its app
container, for the theme the viewer's system or Streamlit's own menu chose; the lesson
file does from `prefers-color-scheme`). CSS's `light-dark(L, D)` then picks L or D where
it is used, so one HTML string serves both schemes and a change of theme needs no rerun.
Each declaration comes twice, plain light first: a browser without light-dark() (before
Chrome 123, Firefox 120, Safari 17.5) drops the second and keeps the light look.
Two near misses: `@media (prefers-color-scheme: dark)` follows the system setting but not
Streamlit's menu, and `st.context.theme` tells the server the theme only at a rerun,
which a change from the menu does not start.

A token colour's dark variant is computed, not listed: the same hue at half its OKLab
lightness, so pastels become deep colours that light text reads on, in the same order
(a ramp stays a ramp) and as far apart in hue as before.

    >>> declare("color", "#111111", "#EDEBE8")
    'color:#111111;color:light-dark(#111111,#EDEBE8)'
    >>> dark_variant("#FFFFB3"), round(contrast_ratio(dark_variant("#FFFFB3"), "#F2F2F2"), 1)
    ('#666417', 5.5)
"""

from __future__ import annotations

import functools

# The pages' own colours in each scheme (.streamlit/config.toml pins them:
# [theme.light] textColor, [theme.dark] backgroundColor and textColor)
LIGHT_PAGE, LIGHT_TEXT = "#FFFFFF", "#111111"
DARK_PAGE, DARK_TEXT = "#171614", "#EDEBE8"
_LIGHTNESS_SCALE = 0.5  # a token colour's OKLab lightness in dark, as a share of its light one


def declare(prop: str, light: str, dark: str | None = None) -> str:
    """A CSS declaration of `prop` that is `light` in the light scheme and `dark` in the
    dark one (`dark_variant(light)` if not given), with a plain light fallback first.

    >>> declare("background", "#E8E8E8")
    'background:#E8E8E8;background:light-dark(#E8E8E8,#595959)'
    """
    return f"{prop}:{light};{prop}:{light_dark(light, dark)}"


def light_dark(light: str, dark: str | None = None) -> str:
    """CSS's light-dark() of two colours (`dark_variant(light)` if dark is not given).

    >>> light_dark("#000", "#FFF")
    'light-dark(#000,#FFF)'
    """
    return f"light-dark({light},{dark or dark_variant(light)})"


@functools.lru_cache(maxsize=1024)
def dark_variant(color: str) -> str:
    """A light background colour's counterpart on a dark page: its hue and chroma at half
    its OKLab lightness (chroma trimmed if that leaves sRGB), for light text to read on.

    >>> dark_variant("#8DD3C7"), dark_variant("#E8E8E8")
    ('#01564D', '#595959')
    """
    lightness, a, b = _oklab(_rgb(color))
    lightness *= _LIGHTNESS_SCALE
    for step in range(21):  # trim chroma in twentieths until the colour is in sRGB
        keep = 1 - step / 20
        rgb = _srgb_from_oklab(lightness, a * keep, b * keep)
        if all(-1e-4 <= c <= 1 + 1e-4 for c in rgb):
            break
    return "#" + "".join(f"{round(min(max(c, 0.0), 1.0) * 255):02X}" for c in rgb)


def contrast_ratio(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two sRGB colours, from 1 to 21.

    >>> round(contrast_ratio("#767676", "#FFFFFF"), 2)
    4.54
    """
    high, low = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _rgb(color: str) -> tuple[float, float, float]:
    """'#RRGGBB' or '#RGB' as three channels from 0 to 1."""
    digits = color.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    red, green, blue = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return red, green, blue


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _gamma(channel: float) -> float:
    if channel <= 0.0031308:
        return 12.92 * channel
    # float ** float is typed Any (a negative base gives a complex); this base is never negative
    root: float = max(channel, 0.0) ** (1 / 2.4)
    return 1.055 * root - 0.055


def _luminance(color: str) -> float:
    red, green, blue = (_linear(c) for c in _rgb(color))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _oklab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """sRGB to OKLab (Björn Ottosson's matrices)."""
    r, g, b = (_linear(c) for c in rgb)
    long = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    medium = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    short = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return (
        0.2104542553 * long + 0.7936177850 * medium - 0.0040720468 * short,
        1.9779984951 * long - 2.4285922050 * medium + 0.4505937099 * short,
        0.0259040371 * long + 0.7827717662 * medium - 0.8086757660 * short,
    )


def _srgb_from_oklab(lightness: float, a: float, b: float) -> tuple[float, float, float]:
    long = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3
    medium = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3
    short = (lightness - 0.0894841775 * a - 1.2914855480 * b) ** 3
    r = 4.0767416621 * long - 3.3077085913 * medium + 0.2309598677 * short
    g = -1.2684380046 * long + 2.6097574011 * medium - 0.3413193965 * short
    blue = -0.0041960863 * long - 0.7034186147 * medium + 1.7076147010 * short
    return _gamma(r), _gamma(g), _gamma(blue)
