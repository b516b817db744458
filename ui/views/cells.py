"""Token text as a table cell, a chart's tooltip or a menu's label shows it: cut when long.

A token can be the length of the whole training text (no pattern on a repetitive text:
Shakespeare at 10,000 tokens has one of 24 KB), and a table of thousands of them sent
whole went past Streamlit's 200 MB message limit (issue 21: a 402.6 MB merge log).
Every place that sends many tokens to the browser cuts each to CELL_CHARS characters,
with an ellipsis, and says so; searches, the chosen token's own panel and the downloads
keep them whole.

    >>> cut_cell("a" * 100)[-3:], len(cut_cell("a" * 100)), cut_cell("short")
    ('aa…', 60, 'short')
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

CELL_CHARS = 60
CUT_NOTE = f"Tokens longer than {CELL_CHARS} characters are cut short (…) here"


def cut_cell(text: str, limit: int = CELL_CHARS) -> str:
    """`text`, or its first `limit` - 1 characters and an ellipsis."""
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def cut_columns(
    frame: pd.DataFrame, columns: Iterable[str], limit: int = CELL_CHARS
) -> pd.DataFrame:
    """A copy of `frame` whose text `columns` (those it has) are cut to `limit` characters.

    >>> cut = cut_columns(pd.DataFrame({"token": ["x" * 99], "id": [1]}), ["token", "gone"])
    >>> len(cut.loc[0, "token"]), cut.loc[0, "id"]
    (60, np.int64(1))
    """
    cut = frame.copy()
    for column in columns:
        if column in cut:
            cut[column] = [
                cut_cell(value, limit) if isinstance(value, str) else value for value in cut[column]
            ]
    return cut


def any_cut(frame: pd.DataFrame, columns: Iterable[str], limit: int = CELL_CHARS) -> bool:
    """Whether any text cell of `columns` is longer than `limit` (so a note is due).

    >>> any_cut(pd.DataFrame({"token": ["x" * 99]}), ["token"])
    True
    """
    return any(
        column in frame and frame[column].astype(str).str.len().gt(limit).any()
        for column in columns
    )
