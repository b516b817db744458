"""Every Streamlit call that renders Markdown gets a user's text only through markdown_text
(issue 21, section 3): the walk of tests/app/markdown_calls.py over the app's source, and
the walk itself tried on calls that do and do not escape."""

from __future__ import annotations

import textwrap
from pathlib import Path

from tests.app.markdown_calls import SOURCES, unsafe_texts, unused_allowances


def test_every_markdown_call_shows_user_text_escaped() -> None:
    found = unsafe_texts()
    assert not found, "user text may reach Markdown unescaped (wrap it in markdown_text):\n" + (
        "\n".join(map(str, found))
    )


def test_the_walk_covers_the_app() -> None:
    names = {path.name for path in SOURCES}
    assert {"streamlit_app.py", "shell.py", "tokens.py", "results.py"} <= names
    assert len(SOURCES) > 60


def test_every_allowance_is_still_reached() -> None:
    assert unused_allowances() == []


UNSAFE = """
import streamlit as st
from ui.views.formatting import markdown_text, plural

def label_of(spec):
    return f"{spec.name} ({spec.vocab_size:,})"

def shout(text, size):
    st.info(f"{text}: {size:,}")

def page(run, row, exc, names, counts):
    st.caption(f"Encoding with **{run.spec.name}**")              # 1 an attribute
    st.error(f"This file cannot be loaded: {exc}")                  # 2 an exception
    row.metric("Tokens", counts[0], help=label_of(run.spec))        # 3 via a function
    text = "Run: "
    text += run.spec.source
    st.toast(text)                                                  # 4 a local, added to
    shout(run.spec.pattern, 3)                                      # 5 via a parameter
    st.radio("Run", names, format_func=lambda name: name.upper())  # 6 radio options
    st.tabs([f"Missing from {name}" for name in names])             # 7 tab labels
    with st.expander(f"{plural(2, run.spec.name)}"):                # 8 plural's noun
        pass
    first, second = names
    st.markdown(second)                                             # 9 unpacked
"""

SAFE = """
import streamlit as st
from ui.views.formatting import markdown_text, plural

LABELS = {"id": "Token id", "rank": "Merge number"}

def label_of(spec):
    return f"{markdown_text(spec.name)} ({spec.vocab_size:,})"

def shout(text, size):
    st.info(f"{text}: {size:,}")

def page(run, row, exc, names, counts, size):
    st.caption(f"Encoding with **{markdown_text(run.spec.name)}** at {size:,}")
    st.error(f"This file cannot be loaded: {markdown_text(str(exc))}")
    row.metric("Tokens", f"{counts[0]:,}", help=label_of(run.spec))
    text = "Run: "
    text += markdown_text(run.spec.source)
    st.toast(text)
    shout("A fixed sentence", 3)
    st.radio("Colour by", list(LABELS), format_func=LABELS.get)
    st.selectbox("Run", names)  # a selectbox's options are plain text
    st.tabs([f"Missing from {markdown_text(name)}" for name in names])
    for key, label in LABELS.items():
        st.button(label, key=key)
    st.html(f"<b>{run.spec.name}</b>")  # HTML, escaped elsewhere: not Markdown
    log.warning(run.spec.name)  # a logger, not Streamlit
"""


def walk(tmp_path: Path, source: str) -> list[str]:
    page = tmp_path / "page.py"
    page.write_text(textwrap.dedent(source), encoding="utf-8")
    return [f"{found.line}:{found.text}" for found in unsafe_texts([page], root=tmp_path)]


def test_the_walk_finds_user_text_however_it_reaches_markdown(tmp_path: Path) -> None:
    # each is reported where it reaches the Streamlit call, as what it is made of; a
    # parameter nobody passes a value to (page's) is unknown, so reported as page(name)
    assert sorted(walk(tmp_path, UNSAFE)) == sorted(
        [
            "12:run.spec.name",  # 1
            "13:page(exc)",  # 2
            "14:spec.name",  # 3: in label_of's return
            "14:counts[0]",  # 3: a value not formatted as a number may be text
            "17:run.spec.source",  # 4
            "9:run.spec.pattern",  # 5: in shout's st.info, from the caller's argument
            "19:name.upper()",  # 6
            "20:page(names)",  # 7
            "21:run.spec.name",  # 8
            "24:names[1]",  # 9
        ]
    )


def test_the_walk_passes_escaped_text_numbers_and_our_words(tmp_path: Path) -> None:
    assert walk(tmp_path, SAFE) == []
