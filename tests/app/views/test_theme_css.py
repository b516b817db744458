"""The dark theme's stylesheet targets the colours the app really draws."""

from __future__ import annotations

import re

from explorer import train
from explorer.analysis.vocabulary.lineage import lineage_dot
from explorer.html.scheme import DARK_PAGE, contrast_ratio
from ui.compare import charts, languages
from ui.views.theme_css import CHART_GREY, CHART_GREY_DARK, GRAPH_FILLS, SLIDER_VALUE, THEME_CSS


def test_every_graph_fill_it_redraws_is_one_a_lineage_uses() -> None:
    tokenizer = train("aaabdaaabac", 259, pattern="none").tokenizer
    dot = lineage_dot(tokenizer, 258, label=lambda data: data.decode())
    used = set(re.findall(r'fillcolor="(#\w+)"', dot))
    assert used <= set(GRAPH_FILLS) and len(used) == len(GRAPH_FILLS)
    for fill in GRAPH_FILLS:
        assert f'[fill="{fill}"]' in THEME_CSS


def test_the_chart_grey_it_redraws_is_the_charts_own() -> None:
    assert charts.CHART_GREY == languages.CHART_GREY == CHART_GREY
    assert f'[fill="{CHART_GREY}"]' in THEME_CSS and f'[stroke="{CHART_GREY}"]' in THEME_CSS
    assert contrast_ratio(CHART_GREY_DARK, DARK_PAGE) >= 4.5  # a label's text, WCAG AA


def test_the_slider_value_reads_on_the_dark_sidebar() -> None:
    light, dark = SLIDER_VALUE
    assert contrast_ratio(dark, "#21201D") >= 4.5  # Streamlit's dark sidebar
    assert f"light-dark({light},{dark})" in THEME_CSS
