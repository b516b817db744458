"""The tokens of one check-up kind as rows: what a table, a CSV or the command line lists.

>>> from explorer.analysis.vocabulary.checkup import check_up
>>> tok = Tokenizer([(32, 97), (256, 39), (228, 189)])
>>> report = check_up(tok)
>>> kind_rows(tok, report, "partial_character")[-1]
TokenRow(id=258, text=None, hex='e4 bd', length=2, note='')
>>> kind_rows(tok, report, "special")
[]
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.analysis.vocabulary.checkup import CheckUp, Unreachable
from explorer.encoding.tokenizer import Tokenizer

KIND_TITLES = {
    "unreachable": "Unreachable",
    "partial_character": "Partial characters",
    "outside_merges": "Outside the merges",
    "intermediate_only": "Intermediate-only",
    "special": "Special",
    "whitespace_only": "Whitespace only",
    "digits_only": "Digits only",
}
KIND_HELP = {
    "unreachable": "Valid UTF-8, yet encoding its own text does not give it alone: the "
    "pre-tokenizer splits it, or merges of lower rank take its bytes another way. No text "
    "yields it (Land and Bartolo, 'Fishing for Magikarp', 2024).",
    "partial_character": "Bytes that are not valid UTF-8 on their own: a piece of a "
    "character, shown in hex, counted by how many bytes they carry (the 128 single bytes "
    "0x80-0xFF among them).",
    "outside_merges": "Vocabulary entries no merge makes, so they have no lineage: only a "
    "file read here can have them (a tokenizer.json's entries past the merges, as with "
    "ignore_merges; a .tiktoken file's last ranks that BPE cannot build from two lower "
    "ones). Text yields one only as a whole pre-token (ignore_merges, tiktoken), else never.",
    "intermediate_only": "Merged during training but never used in the final encoding of the "
    "training corpus. Known only for a run trained here, at its full size.",
    "special": "Special tokens: added whole, never made by merges.",
    "whitespace_only": "Every character is whitespace (Unicode White_Space, the patterns' "
    r"\s); length in characters.",
    "digits_only": "Every character is a decimal digit (0-9 or another script's); length "
    "in characters.",
}


@dataclass(frozen=True)
class TokenRow:
    """One token: its text (None when its bytes are not UTF-8), bytes in hex, length, note.

    length counts bytes for a partial character, else characters; note says, for an
    unreachable token, what encoding its text gives instead.
    """

    id: int
    text: str | None
    hex: str
    length: int
    note: str


def kind_rows(tokenizer: Tokenizer, report: CheckUp, kind: str) -> list[TokenRow]:
    """The tokens of one kind, by id; a ValueError names the kinds, or says it is unknown."""
    ids = report.ids(kind)
    if ids is None:
        raise ValueError(
            "intermediate-only tokens are known only for a tokenizer trained here, with its "
            "history (a .model with its PREFIX.history.json beside it), at its full size"
        )
    notes = {u.id: unreachable_note(tokenizer, u) for u in report.unreachable_tokens}
    if kind == "outside_merges":
        notes = {i: outside_note(tokenizer, i, notes.get(i, "")) for i in ids}
    rows = []
    for token_id in ids:
        data = tokenizer.token_bytes(token_id)
        try:
            text: str | None = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        rows.append(
            TokenRow(
                token_id, text, data.hex(" "), report.lengths[token_id], notes.get(token_id, "")
            )
        )
    return rows


def outside_note(tokenizer: Tokenizer, token_id: int, unreachable: str = "") -> str:
    """Why a token outside the merges appears, or does not, in encoded text.

    >>> print(outside_note(Tokenizer(outside_merges={256: b"xy"}), 256))
    no merge makes it: a pre-token that is exactly its text encodes to it
    """
    if unreachable:
        return (
            unreachable
            if unreachable.startswith("no merge")
            else f"no merge makes it; {unreachable}"
        )
    return "no merge makes it: a pre-token that is exactly its text encodes to it"


def unreachable_note(tokenizer: Tokenizer, token: Unreachable) -> str:
    """Why no text yields the token, in words.

    >>> tok = Tokenizer([(32, 97), (97, 39), (32, 257)])  # " a", "a'", " a'"
    >>> print(unreachable_note(tok, Unreachable(258, (256, 39), (" a'",))))
    merges of lower rank take it apart: its text encodes as 256 + 39 (' a' + "'")
    """
    shown = " + ".join(repr(tokenizer.decode([i])) for i in token.encoded[:8])
    ids = " + ".join(map(str, token.encoded[:8]))
    more = " + …" if len(token.encoded) > 8 else ""
    if token.reason == "split":
        pieces = " + ".join(map(repr, token.pieces[:8])) + (" + …" if len(token.pieces) > 8 else "")
        return f"the pre-tokenizer splits its text: {pieces}"
    encodes = f"its text encodes as {ids}{more} ({shown}{more})"
    if token.id in tokenizer.outside_merges:  # never taken whole: no ignore_merges
        return f"no merge makes it, and this tokenizer never takes it whole: {encodes}"
    return f"merges of lower rank take it apart: {encodes}"
