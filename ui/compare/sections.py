"""Compare's sections as tabs: only the open tab's sections run, and the URL names the tab.

Drawing all of Compare on open cost its first visitor seconds for sections nobody had
looked at yet (OpenAI's three vocabularies, 26 languages under four tokenizers, ...), and
a room of students opening Compare at once waited on all of it. The page lists its
sections in a table of `Section` rows; rows with the same tab title share a tab, in the
order they come. The tabs are Streamlit's own, bound to the URL: opening another tab
reruns the page with that tab's sections alone, and the link says which tab is open
(`/compare?compare_section=Languages`; the first tab leaves the parameter out), so a
shared link or a reload opens the same section.

    >>> rows = [Section("A", "The a", print), Section("B", "The b", print),
    ...         Section("A", "The other a", print)]
    >>> tab_titles(rows)
    ['A', 'B']
    >>> [row.what for row in in_tab(rows, "A")]
    ['The a', 'The other a']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import streamlit as st

from ui.session import state as keys
from ui.session.runs import Run
from ui.views.section import guarded

Draw = Callable[[Run, int], None]  # a section's function: the run, and the sidebar's view size


class Section(NamedTuple):
    """One row of the page's table: its tab, what a failure calls it, and its function.

    A section that does not show the sidebar's run (`needs_run=False`, drawn by
    `without_run`) is drawn when the sidebar holds a real model's tokenizer too.
    """

    tab: str  # the tab's label, also the value of ?compare_section= in a link to it
    what: str  # "The compression curve": names it in the message if it fails
    draw: Draw | Callable[[Run | None, int], None]
    needs_run: bool = True


def run_only(draw: Callable[[Run], None]) -> Draw:
    """A section that needs only the run (it reads the view size itself), as a Draw."""

    def drawn(run: Run, size: int) -> None:
        draw(run)

    return drawn


def without_run(draw: Callable[[], None]) -> Callable[[Run | None, int], None]:
    """A section that needs neither the run nor the view size."""

    def drawn(run: Run | None, size: int) -> None:
        draw()

    return drawn


def tab_titles(sections: Sequence[Section]) -> list[str]:
    """The tabs' titles, once each, in the order their first sections come."""
    return list(dict.fromkeys(section.tab for section in sections))


def in_tab(sections: Sequence[Section], title: str) -> list[Section]:
    return [section for section in sections if section.tab == title]


def show_sections(sections: Sequence[Section], run: Run | None, size: int) -> None:
    """The tabs, with the open tab's sections drawn (each guarded) and the others not run;
    without a run (the sidebar holds a real model's tokenizer), only the sections that
    need none."""
    if run is None:
        sections = [section for section in sections if not section.needs_run]
    titles = tab_titles(sections)
    # subtle: bind="query-params" makes the tabs stateful (`.open` is True or False, not
    # None) and reruns the page on a switch; the URL holds the label itself, so a renamed
    # tab's old links open the first tab (Streamlit drops a value it does not know)
    tabs = st.tabs(titles, key=keys.COMPARE_SECTION, bind="query-params")
    for title, tab in zip(titles, tabs):
        if not tab.open:
            continue
        with tab:
            for section in in_tab(sections, title):
                with guarded(section.what):
                    section.draw(run, size)  # type: ignore[arg-type]  # run: see needs_run
