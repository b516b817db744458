"""Animate's pair table as one HTML table: what a step sends, instead of a dataframe.

`st.dataframe` turns its rows into pandas, then Arrow, then draws a canvas grid: about
3 ms of a step's server time (a seventh of it, py-spy over `bench/load/step_cpu.py --paste`),
repeated by every student of a room at every step. A table of ten rows needs none of it:
this is one escaped HTML string, with its header cells scoped for screen readers and a
scroll region that the keyboard reaches when the top-N box asks for many rows; its
heading and notes are in the same element (each element is one more message a step
sends to the browser).

    >>> rows = [{"Rank": 1, "Pair": "('a', '<')", "Count": 1234, "First at token": 3,
    ...          "Next": "next → id 256"}]
    >>> html = pair_table_html(rows, ("Pairs after step 1", "all 1 pair"), ["A note."])
    >>> "('a', '&lt;')" in html, "<td class=\\"pt-num\\">1,234</td>" in html
    (True, True)
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from explorer.html.scheme import DARK_PAGE, LIGHT_PAGE, declare

# (row key, header shown, whether a number; right-aligned and written with separators)
COLUMNS = (
    ("Rank", "Rank", True),
    ("Pair", "Pair", False),
    ("Count", "Count", True),
    ("First at token", "First at", True),
    ("Next", "Next", False),
)
_HINTS = {"First at token": ' title="The token position where the pair first occurs"'}
MAX_HEIGHT_PX = 400  # taller tables scroll inside their box, as the dataframe did

STYLE = (
    f".pt-box{{max-height:{MAX_HEIGHT_PX}px;overflow:auto;margin:0 0 .5rem}}"
    ".pt{border-collapse:collapse;width:100%;font-size:.875rem;line-height:1.35}"
    ".pt th,.pt td{padding:.3rem .4rem;border-bottom:1px solid rgba(128,128,128,.3);"
    "text-align:left;vertical-align:top;white-space:nowrap}"
    # the header hides the rows it scrolls over: the page's own colour, light or dark
    ".pt th{font-weight:600;position:sticky;top:0;"
    f"{declare('background', LIGHT_PAGE, DARK_PAGE)}}}"
    ".pt td:last-child{white-space:normal}"  # "next → id 261" may wrap, nothing else
    ".pt .pt-num{text-align:right;font-variant-numeric:tabular-nums}"
    ".pt .pt-pair{font-family:'Source Code Pro',monospace;white-space:pre}"
    ".pt tr.pt-winner td{font-weight:600;background:rgba(255,189,69,.18)}"
    ".pt-head{margin:0 0 .5rem}"
    # Streamlit's caption: the theme's text colour at 60 % (5.2:1 on white, WCAG AA;
    # the dark theme's #EDEBE8 at 60 % on its page: 6.0:1)
    ".pt-note{font-size:.875rem;margin:0 0 .5rem;"
    f"{declare('color', 'rgba(17,17,17,.6)', 'rgba(237,235,232,.6)')}}}"
)


def pair_table_html(
    rows: Sequence[Mapping[str, Any]], heading: tuple[str, str], notes: Sequence[str]
) -> str:
    """A heading (its bold part, then the rest), the rows (`ui.animate.pair_table.view.table_rows`)
    as a table whose winner's row stands out, then notes in caption type.

    The heading also names the table's scroll box for screen readers.
    """
    head = "".join(
        f'<th scope="col"{_num_class(number)}{_HINTS.get(key, "")}>{html.escape(title)}</th>'
        for key, title, number in COLUMNS
    )
    body = "".join(_row_html(row) for row in rows)
    bold, rest = heading
    label = html.escape(f"{bold} · {rest}")
    told = "".join(f'<p class="pt-note">{html.escape(note)}</p>' for note in notes if note)
    return (
        f"<style>{STYLE}</style>"
        f'<p class="pt-head"><strong>{html.escape(bold)}</strong> · {html.escape(rest)}</p>'
        f'<div class="pt-box" role="region" tabindex="0" aria-label="{label}">'
        f'<table class="pt"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'
        f"{told}"
    )


def _row_html(row: Mapping[str, Any]) -> str:
    winner = ' class="pt-winner"' if row["Rank"] == 1 else ""  # the winner is ranked first
    cells = "".join(_cell_html(row[key], number, key == "Pair") for key, _, number in COLUMNS)
    return f"<tr{winner}>{cells}</tr>"


def _cell_html(value: Any, number: bool, pair: bool) -> str:
    text = f"{value:,}" if number else str(value)
    kind = ' class="pt-pair"' if pair else _num_class(number)
    return f"<td{kind}>{html.escape(text, quote=False)}</td>"


def _num_class(number: bool) -> str:
    return ' class="pt-num"' if number else ""
