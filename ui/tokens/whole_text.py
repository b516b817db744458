"""Tokens on a long text: the start drawn here, the whole counted by a child Python.

A 20.8 MB text sent as the Tokens page's text (Streamlit accepts up to 25 MB) cost 7.4 s
of the server's CPU per view, and three such visitors slowed everyone's steps (issue 35).
A text of at most ENCODE_HERE_MAX_CHARS is encoded here, as before. A longer one is
drawn from its first DRAWN_CHARS (cut where a word ends, so those tokens are the whole
text's first tokens under a preset pattern), and its counts come from `count_whole`, run
by a child (ui/tokens/whole_counts.py): the serving interpreter never encodes it.

This module imports no Streamlit, so the child that runs `count_whole` starts quickly.

    >>> part = drawn_part("word " * 200_000)  # a million characters
    >>> len(part.text), part.whole_chars, part.cut
    (99999, 1000000, True)
    >>> drawn_part("short text").cut
    False
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from explorer.analysis.compression.metric_stream import last_word_end
from explorer.encoding.safe_cuts import can_split
from explorer.encoding.tokenizer import Tokenizer

# as Compare's overlay (ui/compare/overlay/results.py): 1 MB encodes in 0.44-0.56 s here
ENCODE_HERE_MAX_CHARS = 512 * 1024
# what a page shows: 10,000 coloured tokens (MAX_RENDERED_TOKENS) take 35-50K characters
# of prose or code; this many characters encode here in ~0.04 s
DRAWN_CHARS = 100_000
BLOCK_CHARS = 1 << 20  # the child encodes a block at a time, for its progress bar
PHASE = "counting"  # progress(PHASE, characters done, characters in all)


@dataclass(frozen=True)
class DrawnPart:
    """What the page encodes here and draws: the text, or its first characters."""

    text: str
    whole_chars: int

    @property
    def cut(self) -> bool:
        return len(self.text) < self.whole_chars


@dataclass(frozen=True)
class WholeCount:
    """A whole text's token count, and the special tokens it holds (sorted)."""

    tokens: int
    specials: tuple[str, ...]


def drawn_part(text: str) -> DrawnPart:
    """The whole text when it is short enough to encode here; else its first
    DRAWN_CHARS, cut at the last word's end (at DRAWN_CHARS when there is none)."""
    if len(text) <= ENCODE_HERE_MAX_CHARS:
        return DrawnPart(text, len(text))
    head = text[:DRAWN_CHARS]
    return DrawnPart(head[: last_word_end(head) or DRAWN_CHARS], len(text))


def long_text_note(part: DrawnPart, drawn_tokens: int) -> str:
    """What the page draws of a text too long to encode here, and what the counts cover.

    >>> note = long_text_note(DrawnPart("word " * 3, 20_800_000), 3)
    >>> note.startswith("Showing the first 3 tokens, from the first 15 of 20,800,000 characters")
    True
    """
    return (
        f"Showing the first {drawn_tokens:,} tokens, from the first {len(part.text):,} of "
        f"{part.whole_chars:,} characters: a page shows no more. The counts cover the whole "
        "text, which stays whole in its box."
    )


def text_digest(text: str) -> str:
    """A short name for a text, to key what is kept about it without holding it.

    >>> text_digest("hi") == text_digest("hi") != text_digest("hi!")
    True
    """
    data = text.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def count_whole(
    tokenizer: Tokenizer,
    text: str,
    *,
    block_chars: int = BLOCK_CHARS,
    progress: Callable[[str, int, int], None] | None = None,
) -> WholeCount:
    """`len(tokenizer.encode(text, allowed_special="all"))` and the specials met, a block
    at a time: cut only at a word's end, for a pattern that can be cut (a pattern that
    cannot is encoded whole at the end, as encoding does).

    >>> tok = Tokenizer([(104, 105)], pattern="gpt4", special_tokens=["<|x|>"])
    >>> text = "hi hi<|x|> hi\\nhi " * 3
    >>> count_whole(tok, text, block_chars=4)
    WholeCount(tokens=27, specials=('<|x|>',))
    >>> len(tok.encode(text, allowed_special="all"))
    27
    """
    # subtle: a cut is at a space after a non-space, so it falls inside a special token
    # only when that token holds a space (then the text is encoded whole, as `none` is)
    spaced = any(ch.isspace() for name in tokenizer.special_tokens for ch in name)
    splittable = can_split(tokenizer.pattern) and not spaced
    tokens, found, carry, done = 0, set[int](), "", 0
    for start in range(0, len(text), block_chars):
        block = text[start : start + block_chars]
        searched_from = len(carry)  # subtle: the carry has no cut; search only new text
        carry += block
        cut = last_word_end(carry, searched_from) if splittable else 0
        if cut:
            tokens += _count_into(tokenizer, carry[:cut], found)
            carry = carry[cut:]
        done += len(block)
        if progress is not None:
            progress(PHASE, done, len(text))
    tokens += _count_into(tokenizer, carry, found)
    specials = tokenizer.special_by_id
    return WholeCount(tokens, tuple(sorted(specials[i] for i in found)))


def _count_into(tokenizer: Tokenizer, text: str, found: set[int]) -> int:
    ids = tokenizer.encode(text, allowed_special="all")
    specials = tokenizer.special_by_id
    if specials:
        found.update(i for i in ids if i in specials)
    return len(ids)
