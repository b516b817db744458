"""What the app relies on that may be out of reach for a while (the classes' Redis): one
kind of exception, whose message is one sentence a page shows in place of the part
that needs it (ui/views/section.py `guarded` shows it once per run, no traceback), while
the rest of the page works alone.

    >>> str(Unavailable("The class is out of reach just now."))
    'The class is out of reach just now.'
"""

from __future__ import annotations


class Unavailable(Exception):
    """A shared service does not answer just now; the message says so in one sentence."""
