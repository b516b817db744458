"""GPT-2's byte-to-character map: openai/gpt-2's own table, Hugging Face's, and the inverse."""

from __future__ import annotations

from tokenizers.pre_tokenizers import ByteLevel

from explorer.base.byte_map import bytes_to_unicode, gpt2_chars, unicode_to_bytes


def gpt2_reference() -> dict[int, str]:
    """openai/gpt-2 src/encoder.py, verbatim apart from names."""
    bs = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    cs = bs[:]
    n = 0
    for b in range(2**8):
        if b not in bs:
            bs.append(b)
            cs.append(2**8 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


def test_byte_map_is_gpt2s_in_gpt2s_order() -> None:
    table = bytes_to_unicode()
    assert list(table.items()) == list(gpt2_reference().items())
    assert (table[32], table[10], table[ord("a")]) == ("Ġ", "Ċ", "a")


def test_byte_map_is_256_distinct_printable_characters() -> None:
    chars = list(bytes_to_unicode().values())
    assert len(set(chars)) == 256
    assert all(char.isprintable() and not char.isspace() for char in chars)
    assert set(chars) == set(ByteLevel.alphabet())


def test_byte_map_inverse_round_trips() -> None:
    inverse = unicode_to_bytes()
    assert {inverse[char]: char for char in inverse} == bytes_to_unicode()
    assert bytes(inverse[char] for char in gpt2_chars(bytes(range(256)))) == (bytes(range(256)))


def test_byte_map_agrees_with_hugging_face() -> None:
    text = "Hello\n world’ naïve 日本\t\x00"
    [(symbols, _)] = ByteLevel(add_prefix_space=False, use_regex=False).pre_tokenize_str(text)
    assert gpt2_chars(text.encode()) == symbols


def test_byte_map_is_a_fresh_copy() -> None:
    bytes_to_unicode()[32] = "x"
    unicode_to_bytes()["Ġ"] = 0
    assert bytes_to_unicode()[32] == "Ġ"
    assert unicode_to_bytes()["Ġ"] == 32
