r"""A long text cut into blocks that encode to exactly the ids of the whole, so a caller
can encode it a block at a time and say how far it has got.

A block ends where a word ends and a space (not a line break) follows: a safe cut
(explorer.encoding.safe_cuts), where no preset pattern's match ends or begins, after a
character that is not whitespace, so none looks past it (gpt2's `\s+(?!\S)` only peeks
after whitespace). No word is split either, so counts per word (fertility) add up over
the blocks. A pattern that cannot be cut (`none`, a regex of the user's) keeps the text
whole: its blocks are one.

    >>> text_blocks("one two three four", "gpt4", block_chars=5)
    ['one two', ' three', ' four']
    >>> text_blocks("one two three four", "none", block_chars=5)
    ['one two three four']
    >>> "".join(text_blocks("a\nb c " * 9, "gpt2", block_chars=7)) == "a\nb c " * 9
    True
"""

from __future__ import annotations

import regex

from explorer.encoding.safe_cuts import can_split

BLOCK_CHARS = 1 << 20  # ~1 MB: about 0.4 s of encoding, a progress step people can see
WORD_END = regex.compile(r"(?<=\S)(?=[^\S\r\n])")  # one of SAFE_CUT's cuts: word, then space


def text_blocks(text: str, pattern: str, *, block_chars: int = BLOCK_CHARS) -> list[str]:
    """`text` in blocks of at least `block_chars` characters (the last may be shorter),
    cut only at WORD_END; the blocks joined are the text. One block for a short text or
    a pattern that cannot be cut."""
    if len(text) <= block_chars or not can_split(pattern):
        return [text]
    blocks: list[str] = []
    start = 0
    while len(text) - start > block_chars:
        found = WORD_END.search(text, start + block_chars)
        if found is None:  # no word end in the rest: it stays one block
            break
        blocks.append(text[start : found.start()])
        start = found.start()
    blocks.append(text[start:])
    return blocks
