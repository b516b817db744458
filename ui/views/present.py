"""How the app looks on a projector and on a phone: one stylesheet, injected by the shell.

The sidebar's "Presenter view" toggle (or `?present=1` in a link) makes the passage,
the merge chips and the narration large enough to read from the back of a classroom,
and trims what sits above them so a step fits on one 1280 x 720 screen. On a narrow
screen the same stylesheet tightens the page's margins, whatever the toggle says.

    >>> present_from_url({}, {"present": "1"})
    True
    >>> present_from_url({"sidebar_present": False}, {"present": "1"})  # the toggle wins
    False
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

import streamlit as st

from ui.session import state as keys
from ui.session.state import State
from ui.views.formatting import excerpt
from ui.views.theme_css import THEME_CSS

# before and after side by side, at 28 px, under the merge and narration on one screen
PRESENTER_PASSAGE_CHARS = 120
PRESENTER_PASSAGE_LINES = 3
TRUE_WORDS = ("1", "true", "on", "yes")

# Streamlit's own page margins: 6rem above the title is a fifth of a projector's height.
_MAIN = '[data-testid="stMain"] '  # outranks the rules that come with the HTML
_PRESENTER = (
    '[data-testid="stMainBlockContainer"]{padding-top:2.5rem;padding-bottom:2rem}'
    f"{_MAIN}h1{{font-size:2rem;padding:0}}"
    f"{_MAIN}.bpe{{font-size:28px;line-height:1.65}}"
    f"{_MAIN}.am-chip{{font-size:2.4rem}}{_MAIN}.am-op{{font-size:2rem}}"
    f"{_MAIN}.am-id{{font-size:1.25rem}}"
    f"{_MAIN}.am-narration{{font-size:1.5rem!important;line-height:1.4!important}}"
    f"{_MAIN}.am-label,{_MAIN}.st-key-animate_stage [data-testid='stMarkdownContainer'] p"
    "{font-size:1.2rem}"
)
# Sections are h2 under the page's h1 (an h3 there skips a level: axe's heading-order),
# drawn at the h3 size they had
_SECTIONS = '[data-testid="stMain"] h2{font-size:1.75rem}'
# Phones: Streamlit keeps 6rem above the title there too; columns stack one a row.
_NARROW = (
    "@media (max-width:640px){"
    '[data-testid="stMainBlockContainer"]{padding-top:3.5rem}'
    '[data-testid="stMain"] h1{font-size:2rem}'
    "}"
)


def present_from_url(state: State, query: Mapping[str, str]) -> bool:
    """Set the presenter toggle from `?present=` once per session; whether it is on."""
    if keys.SIDEBAR_PRESENT not in state:
        state[keys.SIDEBAR_PRESENT] = str(query.get("present", "")).lower() in TRUE_WORDS
    return bool(state[keys.SIDEBAR_PRESENT])


def presenter_passage(
    passage: str, chars: int = PRESENTER_PASSAGE_CHARS, lines: int = PRESENTER_PASSAGE_LINES
) -> str:
    """The start of a passage that fits the presenter view: a few lines, cut at a word.
    A wide (CJK) character takes the room of two.

    >>> presenter_passage("First Citizen:\\nBefore we proceed.\\n\\nAll:\\nSpeak.\\n")
    'First Citizen:\\nBefore we proceed.\\n'
    >>> presenter_passage("one two three", chars=9), len(presenter_passage("猫" * 200))
    ('one two', 60)
    """
    head = "\n".join(passage.split("\n")[:lines])
    wide = sum(unicodedata.east_asian_width(char) in "WF" for char in head[:chars])
    return excerpt(head, chars - wide // 2)


def presenting() -> bool:
    """Whether the presenter view is on in this session."""
    return bool(st.session_state.get(keys.SIDEBAR_PRESENT))


def inject_style() -> None:
    """The stylesheet for this run: the dark theme's fixes (ui.views.theme_css) and narrow
    screens always, the presenter view when on.

    Style-only HTML goes to Streamlit's event container, so it takes no room on the page.
    """
    st.html(f"<style>{_SECTIONS}{THEME_CSS}{_NARROW}{_PRESENTER if presenting() else ''}</style>")


def presenter_toggle() -> None:
    """The sidebar's switch, on at first when the link says `?present=1`."""
    present_from_url(st.session_state, st.query_params)
    st.toggle(
        "Presenter view",
        key=keys.SIDEBAR_PRESENT,
        help="Large type for a projector: the passage, the merge and the narration of a "
        "step on one screen; other controls fold away. A link can open with it: ?present=1",
    )
