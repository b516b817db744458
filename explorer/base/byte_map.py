r"""GPT-2's byte-to-character map: how byte-level BPE files write a token's bytes as text.

GPT-2's `encoder.json` and `vocab.bpe`, Hugging Face's `tokenizer.json` and the app's
"byte symbols" view all spell each byte as one printable character: printable Latin-1
bytes stand for themselves, the rest get characters from U+0100 on (a space is 'Ġ').

    >>> gpt2_chars(b" the\n")
    'ĠtheĊ'
    >>> unicode_to_bytes()["Ġ"]
    32
"""

from __future__ import annotations

from functools import cache


def bytes_to_unicode() -> dict[int, str]:
    r"""GPT-2's byte-to-character map (encoder.py), in its order; a fresh copy each call.

    >>> table = bytes_to_unicode()
    >>> table[ord("a")], table[ord(" ")], table[ord("\n")]
    ('a', 'Ġ', 'Ċ')
    """
    return dict(_gpt2_byte_map())


def unicode_to_bytes() -> dict[str, int]:
    """The inverse of bytes_to_unicode: `unicode_to_bytes()['Ġ'] == 32`."""
    return {char: byte for byte, char in _gpt2_byte_map()}


def gpt2_chars(data: bytes) -> str:
    """Bytes as GPT-2's characters, one per byte: b' a' -> 'Ġa'."""
    symbols = _symbols_by_byte()
    return "".join(symbols[byte] for byte in data)


@cache
def _gpt2_byte_map() -> tuple[tuple[int, str], ...]:
    stand_for_themselves = [
        *range(ord("!"), ord("~") + 1),
        *range(ord("¡"), ord("¬") + 1),
        *range(ord("®"), ord("ÿ") + 1),
    ]
    table = [(byte, chr(byte)) for byte in stand_for_themselves]
    for byte in range(256):
        if byte not in stand_for_themselves:
            table.append((byte, chr(256 + len(table) - len(stand_for_themselves))))
    return tuple(table)


@cache
def _symbols_by_byte() -> tuple[str, ...]:
    table = dict(_gpt2_byte_map())
    return tuple(table[byte] for byte in range(256))
