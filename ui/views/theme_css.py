"""What Streamlit's dark theme leaves unreadable, redrawn: a stylesheet the shell injects.

Everything here is CSS `light-dark(L, D)` (explorer.html.scheme): Streamlit sets the app's
`color-scheme` for the theme in use, so a rule picks its colour without a rerun when the
viewer's system setting or Streamlit's menu changes the theme; in light nothing changes.

    >>> THEME_CSS.count("light-dark(")
    9
"""

from __future__ import annotations

from explorer.html.render import TEXT_COLOR_DARK
from explorer.html.scheme import DARK_TEXT, light_dark

# Streamlit writes a slider's value in the primary colour. The dark theme's red, #CF4250, is
# 3.5:1 on the dark sidebar (WCAG AA asks 4.5:1), and no red both reads there and carries
# the primary buttons' white text; so in dark the value alone takes a lighter red (5.9:1).
# .streamlit/config.toml pins both primaries. `div` outranks Streamlit's own class rule.
SLIDER_VALUE = ("#C53948", "#F2767F")  # light (Streamlit's), dark
# Vega draws a chart's subtitle in its own default black (Streamlit's chart theme colours
# the title, not the subtitle), and the charts' dim grey marks (the "viewing" rule and its
# label, English's rule) as given. SVG presentation attributes yield to CSS.
CHART_GREY = "#555"  # ui/compare/charts.py and languages.py: 7.5:1 on white
CHART_GREY_DARK = "#B8B3A8"  # 8.6:1 on the dark page
_CHART = '[data-testid="stVegaLiteChart"] '
# A lineage graph (explorer.analysis.vocabulary.lineage's DOT, drawn by Streamlit as SVG): its light
# node fills turn to their dark variants under light text, their borders a lighter grey.
GRAPH_FILLS = ("#e8f0fe", "#f1f3f4", "#fde293")  # merged tokens, bytes, the token itself
_GRAPH = '[data-testid="stGraphVizChart"] .node '

THEME_CSS = (
    f'div[data-testid="stSliderThumbValue"]{{color:{light_dark(*SLIDER_VALUE)}}}'
    f"{_CHART}.role-title-subtitle text{{fill:{light_dark('#000', DARK_TEXT)}}}"
    f'{_CHART}.role-mark [fill="{CHART_GREY}"]{{fill:{light_dark(CHART_GREY, CHART_GREY_DARK)}}}'
    f'{_CHART}.role-mark [stroke="{CHART_GREY}"]'
    f"{{stroke:{light_dark(CHART_GREY, CHART_GREY_DARK)}}}"
    + "".join(f'{_GRAPH}[fill="{fill}"]{{fill:{light_dark(fill)}}}' for fill in GRAPH_FILLS)
    + f"{_GRAPH}text{{fill:{light_dark('#000', TEXT_COLOR_DARK)}}}"
    + f'{_GRAPH}[stroke="#5f6368"]{{stroke:{light_dark("#5f6368", "#9aa0a6")}}}'
)
