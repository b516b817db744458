"""What a file written here may hold: the limits it is read back under, checked before it is built.

Every export is read back by this same program, so each writer refuses, with the reader's
own sentence, what its reader would refuse: more than MAX_VOCAB_SIZE tokens or
MAX_VOCAB_BYTES of token bytes (any format), more than MAX_RANKED_BYTES (a `.tiktoken`),
and a tokenizer file larger than MAX_FILE_BYTES (`explorer.files.limits`). The size is a
lower bound worked out from the token lengths before anything is built, so a file of
gigabytes is refused without being made; the text is measured again once built.

    >>> from explorer.encoding.tokenizer import Tokenizer
    >>> long = Tokenizer([(97, 97)] + [(256 + k, 97) for k in range(8_200)])  # a, aa, aaa, ...
    >>> check_readable(long, "a .model")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: a .model: its 8,201 merges make tokens of 33,640,758 ...
    >>> least_json_bytes(Tokenizer([(97, 97)]))  # 258 tokens' bytes, then the merge's two
    1550
"""

from __future__ import annotations

from explorer.encoding.tokenizer import Tokenizer
from explorer.files.errors import FormatError
from explorer.files.limits import MAX_FILE_BYTES, check_vocab_bytes, check_vocab_size, vocab_bytes

SMALL_FILE = "the .model, which lists the merges in a few bytes each, reads back whole"


def check_readable(tokenizer: Tokenizer, what: str) -> None:
    """Refuse a tokenizer whose file (`what`, as "a .model") the readers here would refuse:
    too many tokens, or tokens of too many bytes together."""
    check_vocab_size(tokenizer.vocab_size, what)
    check_vocab_bytes(tokenizer.merges, what)


def least_json_bytes(tokenizer: Tokenizer) -> int:
    """Bytes a tokenizer.json (or GPT-2's pair of files) takes at least: every token
    spelled once in the vocabulary (with its quotes, colon and id: 5 bytes more), and each
    merge's two parts, which together are as long as the token it makes (with their
    quotes and a space or comma: 5 bytes more)."""
    total, merges = vocab_bytes(tokenizer.merges), len(tokenizer.merges)
    return total + 5 * (256 + merges) + (total - 256) + 5 * merges


def check_file_size(size: int, what: str, *, built: bool = False) -> None:
    """Refuse a tokenizer file (`what`) of more than MAX_FILE_BYTES, the most one is read
    with; `size` is its length once `built`, else a lower bound worked out before.

    >>> check_file_size(100 << 20, "a tokenizer.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: a tokenizer.json of this tokenizer would take at least ...
    """
    if size > MAX_FILE_BYTES:
        least = "" if built else "at least "
        raise FormatError(
            f"{what} of this tokenizer would take {least}{size / 1e6:,.1f} MB, and the "
            f"explorer reads tokenizer files of at most {MAX_FILE_BYTES >> 20} MiB, so it "
            f"would not read back; {SMALL_FILE}"
        )
