"""A text cut as the `tokenizers` library cuts it: added tokens, then normalised pre-tokens.

The library first finds added tokens in the text (longest match first, with their lstrip,
rstrip and single_word rules), then normalises each stretch between them and pre-tokenises
it; the BPE model only ever sees one pre-token at a time. The explorer does not redo any
of that by hand:

- where the added tokens are comes from the library itself, from twins of the tokenizer
  that hold only its added tokens and a model that turns any other text into one marker
  id (`WordLevel` with only its unk token), so each is found as the real one finds it;
- each stretch between them is normalised and pre-tokenised by the library's own
  normalizer and pre-tokenizer objects (`normalize_str`, `PreTokenizedString`).

    >>> from tokenizers import Tokenizer
    >>> doc = {"model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": []},
    ...        "normalizer": {"type": "Lowercase"},
    ...        "pre_tokenizer": {"type": "WhitespaceSplit"},
    ...        "added_tokens": [{"id": 2, "content": "<s>", "special": True, "normalized": False,
    ...                          "single_word": False, "lstrip": False, "rstrip": False}]}
    >>> import json
    >>> splitter = Splitter(Tokenizer.from_str(json.dumps(doc)))
    >>> [(piece.added_id, piece.text) for piece in splitter.pieces("A b<s>B")]
    [(None, 'a'), (None, 'b'), (2, '<s>'), (None, 'b')]
    >>> splitter.normalized("A b<s>B")
    'a b<s>b'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tokenizers import AddedToken, PreTokenizedString, Tokenizer

MARK = "\u0000pre-token\u0000"  # the twin's one vocabulary token; no added token is this


@dataclass(frozen=True)
class Piece:
    """An added token (`added_id` set; `text` as it stands in the original text), or one
    pre-token (`text` as the BPE model sees it: normalised, byte-mapped when byte-level)."""

    text: str
    added_id: int | None = None


class Splitter:
    """Cuts texts as `tokenizer` does.

    As the library's `extract_and_normalize`: added tokens with normalized=False are found
    in the raw text; each stretch between them is normalised whole; added tokens with
    normalized=True are then found in that normalised stretch (their own text normalised
    too); what is left is pre-tokenised.
    """

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        normalizer = tokenizer.normalizer
        added = sorted(tokenizer.get_added_tokens_decoder().items())
        raw = [(token_id, token) for token_id, token in added if not token.normalized]
        later = [(token_id, token) for token_id, token in added if token.normalized]
        if normalizer is not None:
            later = [(i, _renamed(t, normalizer.normalize_str(t.content))) for i, t in later]
        self._raw = _Finder(raw)
        self._normalized = _Finder(later)

    def pieces(self, text: str) -> list[Piece]:
        """Every added token and pre-token of `text`, in order."""
        pieces: list[Piece] = []
        for stretch, added_id in self._stretches(text):
            if added_id is not None:
                pieces.append(Piece(stretch, added_id))
            else:
                pieces.extend(Piece(word) for word in self.pre_tokens(stretch))
        return pieces

    def normalized(self, text: str) -> str:
        """The text after the normalizer, stretch by stretch; added tokens stay as they are."""
        return "".join(stretch for stretch, _ in self._stretches(text))

    def pre_tokens(self, stretch: str) -> list[str]:
        """One normalised stretch without added tokens, pre-tokenised by the library."""
        if not stretch:
            return []
        cut = PreTokenizedString(stretch)
        if self.tokenizer.pre_tokenizer is not None:
            self.tokenizer.pre_tokenizer.pre_tokenize(cut)
        return [word for word, _, _ in cut.get_splits() if word]

    def _stretches(self, text: str) -> list[tuple[str, int | None]]:
        """(added token's text, its id) and (normalised stretch, None), in order."""
        normalizer = self.tokenizer.normalizer
        stretches: list[tuple[str, int | None]] = []
        for raw, added_id in self._raw.cut(text):
            if added_id is not None:
                stretches.append((raw, added_id))
                continue
            normalized = normalizer.normalize_str(raw) if normalizer is not None else raw
            stretches.extend(self._normalized.cut(normalized))
        return stretches


class _Finder:
    """Finds some added tokens as the library does: a twin tokenizer with only these added
    tokens, no normalizer and no pre-tokenizer, and a model that turns any other text
    into one marker id."""

    def __init__(self, added: list[tuple[int, Any]]) -> None:
        self.ids = [token_id for token_id, _ in added]
        twin = {
            "version": "1.0",
            "added_tokens": [_added_json(token, k + 1) for k, (_, token) in enumerate(added)],
            "normalizer": None,
            "pre_tokenizer": None,
            "model": {"type": "WordLevel", "vocab": {MARK: 0}, "unk_token": MARK},
        }
        self.twin = Tokenizer.from_str(json.dumps(twin)) if added else None

    def cut(self, text: str) -> list[tuple[str, int | None]]:
        """The text as (stretch, None) between the added tokens and (its text, id) for each."""
        if self.twin is None or not text:
            return [(text, None)] if text else []
        encoding = self.twin.encode(text, add_special_tokens=False)
        stretches: list[tuple[str, int | None]] = []
        done = 0
        for twin_id, (start, end) in zip(encoding.ids, encoding.offsets):
            if twin_id == 0:
                continue
            if start > done:
                stretches.append((text[done:start], None))
            stretches.append((text[start:end], self.ids[twin_id - 1]))
            done = end
        if done < len(text):
            stretches.append((text[done:], None))
        return stretches


def _renamed(token: Any, content: str) -> Any:
    """The added token with its text normalised, as the library matches it."""
    return AddedToken(
        content,
        single_word=token.single_word,
        lstrip=token.lstrip,
        rstrip=token.rstrip,
        normalized=False,
        special=token.special,
    )


def _added_json(token: Any, twin_id: int) -> dict[str, Any]:
    """An added token as tokenizer.json lists it, with the twin's id."""
    return {
        "id": twin_id,
        "content": token.content,
        "single_word": token.single_word,
        "lstrip": token.lstrip,
        "rstrip": token.rstrip,
        "normalized": False,  # the twin has no normalizer: its text is matched as it stands
        "special": token.special,
    }
