"""Compare's "Every run on one text": the tokenizers and the text, the chosen measure of every
run at every vocab size on one chart, then the runs at the sizes the user picks.

Each run is encoded once (ui/compare/overlay/results.py): its first k merges are a
tokenizer of size 256 + k, and the one encode says what each of them does.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.compare.overlay.chart import RUN, SIZE, VALUE, log_sizes, overlay_chart
from ui.compare.overlay.example import apply_pending, example_row
from ui.compare.overlay.measures import (
    MEASURES,
    Measure,
    measure_help,
    measure_phrase,
    measure_title,
)
from ui.compare.overlay.picks import chosen_names, load_chosen
from ui.compare.overlay.results import (
    RunFigures,
    full_size,
    measure_runs,
    run_counts,
    run_figures,
)
from ui.compare.overlay.table import (
    STAR,
    best_sentence,
    csv_frame,
    default_table_sizes,
    size_choices,
    table_rows,
)
from ui.compare.overlay.texts import EvalText, eval_text_input
from ui.compare.overlay.views import every_measure_table
from ui.session import state as keys
from ui.session.runs import Run, view_vocab_size
from ui.views.formatting import markdown_text
from ui.views.token_view import fmt_int

CHART_POINTS = 160  # log-spaced sizes per chart: smooth lines, a light page
INTRO = (
    "Choose tokenizers and one text: each line is one tokenizer at every vocab size it has, "
    "all from one encode per tokenizer (its first k merges are a tokenizer of size 256 + k)."
)


def overlay_section(run: Run) -> None:
    """The pickers, the chart, and the tables below it, in one container."""
    with st.container(key=keys.COMPARE_OVERLAY):
        _overlay(run)


def _overlay(run: Run) -> None:
    st.header("Every run on one text")
    st.caption(INTRO)
    apply_pending()
    example_row()
    names = chosen_names(run)
    text = eval_text_input()
    measure = MEASURES[
        st.radio(
            "Measure",
            list(MEASURES),
            format_func=lambda key: measure_title(MEASURES[key]),
            horizontal=True,
            key=keys.COMPARE_OVERLAY_METRIC,
            persist_state="session",
            help="\n\n".join(
                f"**{measure_title(m)}**: {measure_help(m)}" for m in MEASURES.values()
            ),
        )
    ]
    if text is None:
        return
    if not names:
        st.info("Choose one or more tokenizers above to draw them on this text.")
        return
    if not text.text.strip():
        st.info("This text is only whitespace: it has no words to measure. Try another.")
        return
    runs = load_chosen(names)
    if not runs:
        return
    if len(runs) == 1:
        st.info(
            "One tokenizer is drawn alone: choose a second one (another of your runs, or "
            "GPT-2's, GPT-4's or GPT-4o's) to compare them, or click the example above."
        )
    draw(runs, text, measure, view_vocab_size(run))


def draw(runs: list[Run], text: EvalText, measure: Measure, view_size: int) -> None:
    """The chart and the sentence, then the tables, from one encode per run."""
    fulls = [full_size(run) for run in runs]
    at = compared_size(fulls, view_size)
    grid = log_sizes(256, max(fulls), CHART_POINTS)
    figures = measure_runs(runs, text, [*grid, *fulls, at])
    if not figures:
        return
    with st.container(key=keys.COMPARE_OVERLAY_RESULTS):
        subtitle = [
            f"On {text.name} ({fmt_int(text.bytes)} bytes). Hover for values.",
            f"{measure.label}: {measure.better} is better. Rule: vocab size {at:,}.",
        ]
        frame = frame_of(figures, measure, {*grid, *fulls, at})
        st.altair_chart(overlay_chart(frame, measure, at, subtitle), width="stretch")
        st.caption(f"**{measure_title(measure)}**: {measure_help(measure)}")
        sentence = best_sentence(values_of(figures, measure), at, measure)
        where = f"At vocab size {at:,}, on {markdown_text(text.name)}: "
        st.markdown(where + (sentence or "choose a second tokenizer to see which is best."))
    table_sizes = chosen_sizes(fulls)
    at_sizes = [run_figures(f.run, text, run_counts(f.run, text), table_sizes) for f in figures]
    sizes_table(values_of(at_sizes, measure), table_sizes, measure)
    every_measure_table(figures, at)


def values_of(figures: list[RunFigures], measure: Measure) -> dict[str, dict[int, float]]:
    """{run: {size: value}} of one measure."""
    return {f.name: {s: measure.value(m) for s, m in f.by_size.items()} for f in figures}


def chosen_sizes(fulls: list[int]) -> list[int]:
    """The table's sizes (the multiselect): 1k, 2k, 5k, 10k, 20k as far as runs reach."""
    options = size_choices(fulls)
    state = st.session_state
    if keys.COMPARE_OVERLAY_SIZES in state:
        kept = [s for s in state[keys.COMPARE_OVERLAY_SIZES] if s in options]
        state[keys.COMPARE_OVERLAY_SIZES] = kept or default_table_sizes(fulls)
    else:
        state[keys.COMPARE_OVERLAY_SIZES] = default_table_sizes(fulls)
    return sorted(
        st.multiselect(
            "Sizes in the table",
            options,
            key=keys.COMPARE_OVERLAY_SIZES,
            persist_state="session",
            format_func=lambda s: f"{s:,}",
            help="Vocab sizes to list each tokenizer at; a tokenizer smaller than a size "
            "has no value there (–).",
        )
    )


def compared_size(fulls: list[int], view_size: int) -> int:
    """The size the sentence and the measures table speak of: the sidebar's view size when
    two runs reach it, else the largest size every run reaches."""
    reaching = sum(full >= view_size for full in fulls)
    return view_size if reaching >= min(2, len(fulls)) else min(fulls)


def frame_of(figures: list[RunFigures], measure: Measure, sizes: set[int]) -> pd.DataFrame:
    """The chart's long table: one row per run and size among `sizes`."""
    rows = [
        {RUN: f.name, SIZE: size, VALUE: measure.value(m)}
        for f in figures
        for size, m in sorted(f.by_size.items())
        if size in sizes
    ]
    return pd.DataFrame(rows, columns=[RUN, SIZE, VALUE])


def sizes_table(values: dict[str, dict[int, float]], sizes: list[int], measure: Measure) -> None:
    """The runs at the chosen sizes, the best starred, and the CSV."""
    if not sizes:
        st.info("Choose one or more sizes above to list the tokenizers at them.")
        return
    st.dataframe(pd.DataFrame(table_rows(values, sizes, measure)), hide_index=True, width="stretch")
    st.caption(
        f"{STAR} marks the best {measure_phrase(measure)} at each size; – : the tokenizer is "
        "smaller than that size."
    )
    st.download_button(
        f"Download {measure_phrase(measure)} at these sizes (CSV)",
        csv_frame(values, sizes, measure).to_csv(index=False).encode("utf-8"),
        file_name=f"runs_{measure.key}.csv",
        mime="text/csv",
        key=keys.COMPARE_OVERLAY_CSV,
    )
