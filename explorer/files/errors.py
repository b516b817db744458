"""The error every tokenizer-file reader raises: a ValueError whose message names the file.

Its own module so that the shared readers (`explorer.files.json_text`,
`explorer.files.limits`) and the format parsers can all raise it without importing
each other. `explorer.files.formats.FormatError` is this class.
"""

from __future__ import annotations


class FormatError(ValueError):
    """A file that is not in the format it claims, or a tokenizer a format cannot hold."""
