"""Numbers, durations and messages written for people, shared by the pages.

>>> format_seconds(0.0042), sentence("invalid regex"), format_ids(list(range(5)), limit=3)
('4 ms', 'Invalid regex', '[0, 1, 2, … (2 more)]')
"""

from __future__ import annotations

# the one helper for a user's text in Markdown lives in ui/session, the lowest layer of the
# app, so the session's own messages (toasts, errors) can use it; pages import it from here
# (`X as X`: an explicit re-export, which mypy and ruff both read as meant)
from ui.session.markdown import WORD_JOINER as WORD_JOINER
from ui.session.markdown import markdown_text as markdown_text


def format_seconds(seconds: float) -> str:
    """A duration for people: `format_seconds(0.0042) == "4 ms"`, `format_seconds(2.5)` is 2.5 s."""
    if seconds < 0.001:
        return "< 1 ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.1f} s" if seconds < 60 else f"{seconds / 60:.1f} min"


def plural(count: int, noun: str) -> str:
    """A count and its noun: `plural(1, "merge") == "1 merge"`; 2,000 merges, 0 merges."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def sentence(message: str) -> str:
    """An engine message as a sentence: `sentence("invalid regex")` is "Invalid regex".

    A message that starts with a file name keeps it as it is:
    `sentence("notes.txt is empty")` is "notes.txt is empty".
    """
    first_word = message.split(" ", 1)[0]
    return message[:1].upper() + message[1:] if first_word.isalpha() else message


def format_ids(ids: list[int], limit: int = 300) -> str:
    """Token ids as a Python list, cut after `limit` with how many are left out."""
    if len(ids) <= limit:
        return str(ids)
    return f"{str(ids[:limit])[:-1]}, … ({len(ids) - limit:,} more)]"


def excerpt(text: str, limit: int) -> str:
    """The start of a text, cut at a line or word break near `limit` characters.

    >>> excerpt("one two three", 9)
    'one two'
    """
    if len(text) <= limit:
        return text
    head = text[:limit]
    for stop in ("\n", " "):
        cut = head.rfind(stop)
        if cut > limit // 2:
            return head[:cut].rstrip()
    return head


class RawHtml:
    """HTML that `st.html` sends as it is: `st.html(RawHtml(page))`.

    Given a str, st.html dedents and strips it first, which on an Animate step took 9 %
    of the server's time (py-spy, 120 steps); an object with `_repr_html_` is taken as
    it is. Our HTML starts with a tag, so dedenting never changed it.

    >>> RawHtml("<b>x</b>")._repr_html_()
    '<b>x</b>'
    """

    def __init__(self, html: str) -> None:
        self.html = html

    def _repr_html_(self) -> str:
        return self.html
