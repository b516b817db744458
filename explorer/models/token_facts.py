"""What one token of a loaded model is, in words: its id, its kind, and every pair that makes it.

A loaded model keeps three numbers apart (see `explorer.models.model`): the token's **id**,
the **rank** of each merge that makes it, and, in a trace, the **step**. Pages say them
through these functions, so a card, a table row and a lineage never mix them.

A token is one of: special (or added), a base symbol (a single byte; for a
SentencePiece-style model a single character), a byte-fallback token (`<0xE3>`: one byte
of a character the vocabulary lacks), a merged token (one or more merges make it), or a
token no merge makes (tiktoken takes a whole pre-token that is one; HF's `ignore_merges`).

    >>> import json
    >>> from explorer.models.hf_model import read_tokenizer_json
    >>> doc = {"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "<0xE3>": 3},
    ...        "merges": ["a b"]}}
    >>> model = read_tokenizer_json(json.dumps(doc))
    >>> [token_kind(model, i) for i in range(4)]
    ['base', 'base', 'merged', 'byte fallback']
    >>> token_card(model, 2)
    "id 2 · 'ab' · made by merge rank 0: 'a' + 'b'"
"""

from __future__ import annotations

from typing import Literal

from explorer.models.model import LoadedModel, ModelMerge

TokenKind = Literal["special", "base", "byte fallback", "merged", "no merge"]
KIND_WORDS: dict[str, str] = {
    "special": "special or added token",
    "base": "base symbol",
    "byte fallback": "byte fallback",
    "merged": "made by merges",
    "no merge": "no merge makes it",
}
MAX_CARD_PAIRS = 24  # pairs a hover card lists (a rank file's long token has more splits)
_BYTE_TOKEN_LENGTH = len("<0x41>")


def is_byte_fallback(token: str) -> bool:
    """Whether a token is written as one byte, `<0xE3>` (a SentencePiece-style model's
    fallback for a character its vocabulary lacks).

    >>> is_byte_fallback("<0xE3>"), is_byte_fallback("<0xZZ>"), is_byte_fallback("<s>")
    (True, False, False)
    """
    if len(token) != _BYTE_TOKEN_LENGTH or not token.startswith("<0x") or token[-1] != ">":
        return False
    return all(char in "0123456789abcdefABCDEF" for char in token[3:5])


def token_kind(model: LoadedModel, token_id: int) -> TokenKind:
    """Which of the kinds in the module docstring this id is."""
    token = model.tokens.get(token_id, "")
    if token in model.special_tokens and model.special_tokens[token] == token_id:
        return "special"
    if model.base == "characters" and is_byte_fallback(token):
        return "byte fallback"
    if model.makers(token_id):
        return "merged"
    data = model.token_bytes(token_id)
    if len(data) == 1 or (model.base == "characters" and len(token) == 1):
        return "base"
    return "no merge"


def shown_token(model: LoadedModel, token_id: int) -> str:
    """The token as a page draws it: a SentencePiece-style model's as its file writes it
    (`▁the`, `<0xE3>`: what they are), a byte-level model's as its bytes' text, with a
    byte that is no character alone written `<0xAB>`.

    >>> import json
    >>> from explorer.models.hf_model import read_tokenizer_json
    >>> doc = {"model": {"type": "BPE", "vocab": {"Ġ": 0, "Ã": 1}, "merges": []},
    ...        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False,
    ...                          "trim_offsets": True, "use_regex": True}}
    >>> model = read_tokenizer_json(json.dumps(doc))
    >>> shown_token(model, 0), shown_token(model, 1)
    (' ', '<0xC3>')
    """
    token = model.tokens.get(token_id, "")
    if model.base == "characters" or token in model.special_tokens:
        return token
    data = model.token_bytes(token_id)
    text = data.decode("utf-8", "replace")
    if "\ufffd" not in text:
        return text
    return "".join(f"<0x{byte:02X}>" for byte in data) if len(data) <= 4 else repr(data)


def pair_words(model: LoadedModel, merge: ModelMerge) -> str:
    """One merge as a card says it: its rank, then its two parts as their tokens.

    The ids of the parts are the model's; the rank is the merge's place in its order.
    """
    left, right = model.tokens.get(merge.left, "?"), model.tokens.get(merge.right, "?")
    return f"rank {merge.rank:,}: {left!r} + {right!r}"


def makers_words(model: LoadedModel, makers: list[ModelMerge], limit: int = MAX_CARD_PAIRS) -> str:
    """Every pair that makes a token, rank by rank (past `limit`, how many more)."""
    if len(makers) == 1:
        return f"made by merge {pair_words(model, makers[0])}"
    shown = "; ".join(pair_words(model, merge) for merge in makers[:limit])
    more = f"; and {len(makers) - limit:,} more" if len(makers) > limit else ""
    return f"made by {len(makers):,} merges: {shown}{more}"


def token_card(model: LoadedModel, token_id: int) -> str:
    """What hovering a token says: its id, the token, then apart what makes it."""
    token = model.tokens.get(token_id, "")
    card = f"id {token_id:,} · {token!r}"
    kind = token_kind(model, token_id)
    if kind == "special":
        return f"{card} · special token"
    if kind == "byte fallback":
        return (
            f"{card} · byte fallback: the byte 0x{token[3:5].upper()} of a character the "
            "vocabulary has no token for"
        )
    if kind == "merged":
        return f"{card} · {makers_words(model, model.makers(token_id))}"
    if kind == "base":
        what = "a single character" if model.base == "characters" else "a single byte"
        return f"{card} · base symbol ({what}): no merge makes it"
    return f"{card} · no merge makes it: a token the model takes whole"
