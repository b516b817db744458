"""A text cut as the `tokenizers` library cuts it: added tokens, then normalised pre-tokens.

The library first finds added tokens in the text (longest match first, with their lstrip,
rstrip and single_word rules), then normalises each stretch between them and pre-tokenises
it; the BPE model only ever sees one pre-token at a time. The explorer does not redo any
of that by hand:

- where the added tokens are comes from the library itself, from a twin of the tokenizer
  with the same added tokens, normalizer and pre-tokenizer but a model that turns every
  pre-token into one marker id (`WordLevel` with only its unk token), so each added token
  is found exactly as the real one finds it;
- each stretch between them is normalised and pre-tokenised by the library's own
  normalizer and pre-tokenizer objects (`PreTokenizedString`).

    >>> from tokenizers import Tokenizer
    >>> doc = {"model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": []},
    ...        "normalizer": {"type": "Lowercase"},
    ...        "pre_tokenizer": {"type": "WhitespaceSplit"},
    ...        "added_tokens": [{"id": 2, "content": "<s>", "special": True, "normalized": False,
    ...                          "single_word": False, "lstrip": False, "rstrip": False}]}
    >>> import json
    >>> splitter = Splitter(Tokenizer.from_str(json.dumps(doc)), doc)
    >>> [(piece.added_id, piece.text) for piece in splitter.pieces("A b<s>B")]
    [(None, 'a'), (None, 'b'), (2, '<s>'), (None, 'b')]
    >>> splitter.normalized("A b<s>B")
    'a b<s>b'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tokenizers import PreTokenizedString, Tokenizer

MARK = "\u0000pre-token\u0000"  # the twin's one vocabulary token; no added token is this


@dataclass(frozen=True)
class Piece:
    """An added token (`added_id` set; `text` as it stands in the original text), or one
    pre-token (`text` as the BPE model sees it: normalised, byte-mapped when byte-level)."""

    text: str
    added_id: int | None = None


class Splitter:
    """Cuts texts as `tokenizer` does; `document` is its tokenizer.json as parsed JSON."""

    def __init__(self, tokenizer: Tokenizer, document: dict[str, Any]) -> None:
        self.tokenizer = tokenizer
        self.added = sorted(tokenizer.get_added_tokens_decoder().items())
        twin = {
            "version": "1.0",
            "added_tokens": [_added_json(token, k + 1) for k, (_, token) in enumerate(self.added)],
            "normalizer": document.get("normalizer"),
            "pre_tokenizer": document.get("pre_tokenizer"),
            "model": {"type": "WordLevel", "vocab": {MARK: 0}, "unk_token": MARK},
        }
        self.twin = Tokenizer.from_str(json.dumps(twin))

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
        normalizer = self.tokenizer.normalizer
        return "".join(
            stretch
            if added_id is not None or normalizer is None
            else normalizer.normalize_str(stretch)
            for stretch, added_id in self._stretches(text)
        )

    def pre_tokens(self, stretch: str) -> list[str]:
        """One stretch without added tokens, normalised and pre-tokenised by the library."""
        if not stretch:
            return []
        cut = PreTokenizedString(stretch)
        normalizer, pre_tokenizer = self.tokenizer.normalizer, self.tokenizer.pre_tokenizer
        if normalizer is not None:
            cut.normalize(normalizer.normalize)
        if pre_tokenizer is not None:
            pre_tokenizer.pre_tokenize(cut)
        return [word for word, _, _ in cut.get_splits() if word]

    def _stretches(self, text: str) -> list[tuple[str, int | None]]:
        """The text as (stretch, None) between added tokens and (text, id) for each one."""
        encoding = self.twin.encode(text, add_special_tokens=False)
        stretches: list[tuple[str, int | None]] = []
        done = 0
        for twin_id, (start, end) in zip(encoding.ids, encoding.offsets):
            if twin_id == 0:
                continue
            if start > done:
                stretches.append((text[done:start], None))
            stretches.append((text[start:end], self.added[twin_id - 1][0]))
            done = end
        if done < len(text):
            stretches.append((text[done:], None))
        return stretches


def _added_json(token: Any, twin_id: int) -> dict[str, Any]:
    """An added token as tokenizer.json lists it, with the twin's id."""
    return {
        "id": twin_id,
        "content": token.content,
        "single_word": token.single_word,
        "lstrip": token.lstrip,
        "rstrip": token.rstrip,
        "normalized": token.normalized,
        "special": token.special,
    }
