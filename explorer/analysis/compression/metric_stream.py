"""The metric counts of a text that arrives in blocks, exactly as if it came whole.

A long file is counted a part at a time, and the parts' `MetricCounts` added up. That
is exact only where a cut changes neither the pre-tokens nor the words, so the text is
cut only at a word's end before a space: a safe cut (`explorer.encoding.safe_cuts`, where
no preset pattern's match begins or ends) with a non-space character before it and a
space character after it. Patterns that cannot be cut (`none`, a custom regex) wait for
the whole text, as encoding does.

    >>> from explorer.encoding.tokenizer import Tokenizer
    >>> tok = Tokenizer([(104, 105)], pattern="gpt4")
    >>> blocks = ["hi h", "i hi\\n", "hi"]
    >>> count_blocks(tok, blocks) == count_text(tok, "".join(blocks))
    True
    >>> last_word_end("one two  thr"), last_word_end("one"), last_word_end("a\\x1c b")
    (7, 0, 1)
    >>> last_word_end("one two", 3), last_word_end("one two", 4)
    (3, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import regex

from explorer.analysis.compression.metric_counts import MetricCounts, count_text
from explorer.encoding.safe_cuts import SAFE_CUT_PATTERN, can_split
from explorer.encoding.tokenizer import Tokenizer

# the last safe cut first (searching backwards); each is checked for a word's end
_CUTS_FROM_THE_END = regex.compile(SAFE_CUT_PATTERN, flags=regex.REVERSE)


def count_blocks(
    tokenizer: Tokenizer,
    blocks: Iterable[str],
    on_block: Callable[[str], None] | None = None,
) -> MetricCounts:
    """Counts of the blocks' text joined, holding one block and the uncut rest at a time.

    `on_block` hears each block after it is counted (for progress).
    """
    splittable = can_split(tokenizer.pattern)
    total = MetricCounts()
    carry = ""
    for block in blocks:
        searched_from = len(carry)  # subtle: the carry has no word end; search only new text
        carry += block
        cut = last_word_end(carry, searched_from) if splittable else 0
        if cut:
            total += count_text(tokenizer, carry[:cut])
            carry = carry[cut:]
        if on_block is not None:
            on_block(block)
    return total + count_text(tokenizer, carry)


def last_word_end(text: str, start: int = 0) -> int:
    """The last place at or after `start` (and after 0) where a word ends before a space
    and no preset pattern's match crosses; 0 if there is none.

    Spaces are what `str.split()` splits at, so words are the same on either side.
    """
    # subtle: a backwards search misses a match exactly at `pos` (its lookbehind
    # cannot look before pos), so it starts a character earlier
    for found in _CUTS_FROM_THE_END.finditer(text, max(start - 1, 0), len(text)):
        cut = found.start()
        if cut < max(start, 1):
            break
        if cut < len(text) and text[cut].isspace() and not text[cut - 1].isspace():
            return cut
    return 0
