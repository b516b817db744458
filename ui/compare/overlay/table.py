"""Below the overlay: the runs at the sizes the user picks (best per size starred), a CSV,
and a sentence saying which run is best at the viewed size and by how much.

Values come as {run: {size: value}}; a run has no value at a size past its vocabulary.

    >>> values = {"A": {1000: 3.0, 2000: 3.5}, "B": {1000: 3.3}}  # B has no size 2,000
    >>> for row in table_rows(values, [1000, 2000], BYTES_PER_TOKEN):
    ...     print(row)
    {'Run': 'A', '1,000': '3.00', '2,000': '3.50'}
    {'Run': 'B', '1,000': '3.30 ★', '2,000': '–'}
    >>> best_sentence(values, 1000, BYTES_PER_TOKEN)
    '**B** is best by bytes per token: 3.30 against 3.00 for **A**, the next best (+10.0%).'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ui.compare.charts import NICE_SIZES
from ui.compare.overlay.measures import BYTES_PER_TOKEN, Measure, measure_phrase  # noqa: F401
from ui.views.formatting import markdown_text

Values = Mapping[str, Mapping[int, float]]
TABLE_SIZES = (1000, 2000, 5000, 10_000, 20_000)
STAR = "★"
MISSING = "–"


def size_choices(fulls: Sequence[int]) -> list[int]:
    """Sizes to pick from: round sizes up to the largest run's, and each run's full size.

    >>> size_choices([2000, 600])
    [256, 260, 300, 400, 512, 600, 750, 1000, 1500, 2000]
    """
    top = max(fulls, default=256)
    return sorted({*(s for s in NICE_SIZES if s <= top), *fulls})


def default_table_sizes(fulls: Sequence[int]) -> list[int]:
    """1k, 2k, 5k, 10k and 20k as far as some run reaches; else each run's full size.

    >>> default_table_sizes([2000, 100_277]), default_table_sizes([300])
    ([1000, 2000, 5000, 10000, 20000], [300])
    """
    top = max(fulls, default=256)
    return [s for s in TABLE_SIZES if s <= top] or sorted(set(fulls))


def table_rows(values: Values, sizes: Sequence[int], measure: Measure) -> list[dict[str, str]]:
    """One row per run, one column per size; the best value at each size starred."""
    best = {size: _best_run(values, size, measure) for size in sizes}
    rows = []
    for run, by_size in values.items():
        row = {"Run": run}
        for size in sizes:
            value = by_size.get(size)
            cell = MISSING if value is None else measure.shown(value)
            row[f"{size:,}"] = f"{cell} {STAR}" if best[size] == run else cell
        rows.append(row)
    return rows


def csv_frame(values: Values, sizes: Sequence[int], measure: Measure) -> pd.DataFrame:
    """The table as numbers, one row per run and size, for the CSV."""
    rows = [
        {
            "run": run,
            "vocab_size": size,
            measure.key: by_size.get(size),
            "best": _best_run(values, size, measure) == run,
        }
        for run, by_size in values.items()
        for size in sizes
    ]
    return pd.DataFrame(rows, columns=["run", "vocab_size", measure.key, "best"])


def _best_run(values: Values, size: int, measure: Measure) -> str | None:
    """The run best at `size`; None unless two or more runs have a value there."""
    runs = [run for run in values if values[run].get(size) is not None]
    found = measure.best([values[run][size] for run in runs]) if len(runs) > 1 else None
    return None if found is None else runs[found]


def best_sentence(values: Values, size: int, measure: Measure) -> str:
    """Which run is best at `size` and by how much against the next ("" with fewer than
    two runs there). Run names are made safe for Markdown."""
    there = {run: v[size] for run, v in values.items() if v.get(size) is not None}
    if len(there) < 2:
        return ""
    ranked = sorted(there.items(), key=lambda item: item[1], reverse=measure.better == "higher")
    (first, top), (second, next_value) = ranked[:2]
    change = f" ({top / next_value - 1:+.1%})" if next_value else ""
    return (
        f"**{markdown_text(first)}** is best by {measure_phrase(measure)}: {measure.shown(top)} "
        f"against {measure.shown(next_value)} for **{markdown_text(second)}**, the next "
        f"best{change}."
    )
