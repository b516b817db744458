"""The class's answers as a bar chart: how many students picked each option, the right
one marked once it is revealed (before that, every bar is the same colour).

    >>> spec = answers_chart(("ab", "cd"), (3, 5), winner=1).to_dict()
    >>> [row["answer"] for row in spec["datasets"][spec["data"]["name"]]]
    ['other answer', 'the merge']
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from ui.views.cells import cut_cell

RIGHT, OTHER, HIDDEN = "the merge", "other answer", "not revealed yet"


def answers_chart(
    labels: tuple[str, ...], counts: tuple[int, ...], winner: int | None
) -> alt.Chart:
    """One bar per option, in the options' order, with a tooltip of the count."""
    rows = pd.DataFrame(
        {
            "option": [f"{k + 1}. {cut_cell(label, 40)}" for k, label in enumerate(labels)],
            "students": list(counts),
            "answer": [
                HIDDEN if winner is None else RIGHT if k == winner else OTHER
                for k in range(len(labels))
            ],
        }
    )
    domain = [HIDDEN] if winner is None else [RIGHT, OTHER]
    colours = ["#4c78a8"] if winner is None else ["#2e7d32", "#9e9e9e"]
    chart: alt.Chart = (  # altair types mark_*() as returning Any
        alt.Chart(rows, title="The class's answers")
        .mark_bar()
        .encode(
            x=alt.X("option:N", sort=None, title="Option", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("students:Q", title="Students", axis=alt.Axis(tickMinStep=1)),
            color=alt.Color(
                "answer:N",
                title="Answer",
                scale=alt.Scale(domain=domain, range=colours),
                legend=None if winner is None else alt.Legend(orient="top"),  # one colour: none
            ),
            tooltip=[
                alt.Tooltip("option:N", title="Option"),
                alt.Tooltip("students:Q", title="Students"),
                alt.Tooltip("answer:N", title="Answer"),
            ],
        )
        .properties(height=240)
    )
    return chart
