"""Encode a big text on two cores for the command line, with exactly the ids of one.

`python -m explorer encode gpt2 FILE` on mix19's first 5 MB spends about as long writing
the 1.38 M ids as text as tiktoken spends encoding them (explorer.encoding.tiktoken_path),
and both halve on two cores. The text is cut once near its middle; a forked process
encodes and writes the second half while this one does the first, and sends its text back
through a pipe. tiktoken's tables are built before the fork, so the child has them.

The cut is a safe cut (explorer.encoding.safe_cuts.SAFE_CUT: no preset pattern's match
crosses one) that follows a character that is not whitespace, so neither half looks past
it: only gpt2's `\\s+(?!\\S)` peeks at the next character, after whitespace. Never inside
a special token. Other patterns, texts under MIN_PARALLEL_CHARS, or a process that runs
threads (fork would be unsafe) encode on one core.

    >>> from explorer import Tokenizer
    >>> tok = Tokenizer(pattern="gpt2")
    >>> ids_text(tok, "hi there", "none", workers=2, min_chars=4)
    '104 105 32 116 104 101 114 101'
"""

from __future__ import annotations

import multiprocessing
import os
from multiprocessing.connection import Connection

from explorer.base.child_death import end_with_parent
from explorer.base.forking import can_fork
from explorer.encoding.extra_tokens import SpecialSet
from explorer.encoding.safe_cuts import SAFE_CUT, can_split, inside_special
from explorer.encoding.tokenizer import Tokenizer

MIN_PARALLEL_CHARS = 1 << 20  # below ~1 MB a second process costs more than it saves
CUT_WINDOW_CHARS = 1 << 16  # how far past the middle a safe cut is looked for


def ids_text(
    tokenizer: Tokenizer,
    text: str,
    allowed_special: SpecialSet,
    *,
    workers: int = 2,
    min_chars: int = MIN_PARALLEL_CHARS,
) -> str:
    """The ids of `text` as the command line prints them: numbers separated by spaces.

    Raises what `Tokenizer.encode` raises (a special token it may not encode), from this
    process, before any other starts.
    """
    cut = None
    if workers > 1 and len(text) >= min_chars and can_fork() and can_split(tokenizer.pattern):
        tokenizer.check_specials(text, allowed_special)
        cut = find_cut(text, len(text) // 2, list(tokenizer.special_tokens))
    if cut is None:
        return _joined(tokenizer, text, allowed_special)
    tokenizer.prepare_encoding()  # once, before the fork: the child inherits the tables
    receive, send = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(
        target=_encode_into,
        args=(os.getpid(), send, tokenizer, text[cut:], allowed_special),
        daemon=True,
    )
    child.start()
    send.close()
    first = _joined(tokenizer, text[:cut], allowed_special)
    try:
        second = receive.recv_bytes().decode("ascii")
    except EOFError:  # the child died (killed, out of memory): its half here, then
        second = _joined(tokenizer, text[cut:], allowed_special)
    child.join()
    return f"{first} {second}" if first and second else first or second


def find_cut(text: str, near: int, special_tokens: list[str]) -> int | None:
    """The first safe cut at or after `near` that follows a character that is not
    whitespace and is not inside a special token; None if the window has none.

    >>> find_cut("one two three", 5, [])
    7
    """
    start = max(1, near)
    window = text[start - 1 : start + CUT_WINDOW_CHARS]
    for found in SAFE_CUT.finditer(window, 1):
        cut = start - 1 + found.start()
        if not text[cut - 1].isspace() and not inside_special(text, cut, special_tokens):
            return cut
    return None


def _joined(tokenizer: Tokenizer, text: str, allowed_special: SpecialSet) -> str:
    return " ".join(map(str, tokenizer.encode(text, allowed_special=allowed_special)))


def _encode_into(
    parent: int, send: Connection, tokenizer: Tokenizer, text: str, allowed_special: SpecialSet
) -> None:
    end_with_parent(parent)  # killed with the command, not left encoding at 99 % CPU
    send.send_bytes(_joined(tokenizer, text, allowed_special).encode("ascii"))
    send.close()
