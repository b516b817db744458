"""A loaded model's vocabulary as a searchable index: filter, sort and page it where it lives.

Gemma 3 has 262,145 ids: a page that sent them all to the browser would send megabytes at
every rerun. The index is built once per model (about a second for 262k ids) and answers
one page of rows at a time, with the number that matched; only that page leaves the server.

Each id keeps: its text as a page draws it (`shown_token`), its kind (`token_facts`), its
length in bytes, how many merges make it and the lowest rank among them (-1 when none).

    >>> import json
    >>> from explorer.models.hf_model import read_tokenizer_json
    >>> doc = {"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "abb": 3},
    ...        "merges": ["a b", "ab b"]}}
    >>> index = VocabIndex.of(read_tokenizer_json(json.dumps(doc)))
    >>> page = index.query("ab", sort="length, longest first")
    >>> page.total, [(row.id, row.shown, row.kind, row.first_rank) for row in page.rows]
    (2, [(3, 'abb', 'merged', 1), (2, 'ab', 'merged', 0)])
    >>> index.counts()
    {'special': 0, 'base': 2, 'byte fallback': 0, 'merged': 2, 'no merge': 0}
    >>> index.query("", kind="base").total, index.query("3").rows[0].shown  # an id matches too
    (2, 'abb')
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from dataclasses import dataclass
from typing import get_args

from explorer.models.model import LoadedModel
from explorer.models.token_facts import TokenKind, is_byte_fallback, shown_token

KINDS: tuple[TokenKind, ...] = get_args(TokenKind)
SORTS = ("id", "merge rank", "length, longest first", "length, shortest first")
ANY_KIND = "any"
PAGE_ROWS = 50
FOUND_KEPT = 16  # searches an index keeps sorted (Gemma 3's whole list: ~2 MB each)


@dataclass(frozen=True)
class VocabRow:
    """One token as the table shows it."""

    id: int
    shown: str
    kind: TokenKind
    length: int  # bytes
    makers: int  # merges that make it
    first_rank: int  # the lowest rank among them; -1 when none


@dataclass(frozen=True)
class VocabPage:
    """One page of the rows that matched, and how many matched in all."""

    rows: tuple[VocabRow, ...]
    total: int
    page: int
    pages: int


class VocabIndex:
    """Every id of a model, with what the table filters and sorts on (see the module)."""

    def __init__(
        self,
        ids: array[int],
        shown: list[str],
        kinds: bytearray,
        lengths: array[int],
        makers: array[int],
        first_ranks: array[int],
    ) -> None:
        self.ids, self.shown, self.kinds = ids, shown, kinds
        self.lengths, self.makers, self.first_ranks = lengths, makers, first_ranks
        # (text, kind, sort) -> the matching positions, sorted: paging through one search,
        # and a page's second look, cost nothing (sessions share the index: a lock)
        self._found: OrderedDict[tuple[str, str, str], list[int]] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def of(cls, model: LoadedModel) -> VocabIndex:
        """The index of a model's every id (one pass over its merges, one over its ids)."""
        first: dict[int, int] = {}
        count: dict[int, int] = {}
        for merge in model.merges:
            first.setdefault(merge.result, merge.rank)
            count[merge.result] = count.get(merge.result, 0) + 1
        specials = set(model.special_tokens.values())
        ids = array("i", sorted(model.tokens))
        shown, kinds = [], bytearray()
        lengths, makers, first_ranks = array("i"), array("i"), array("i")
        for token_id in ids:
            token = model.tokens[token_id]
            data = model.token_bytes(token_id)
            shown.append(shown_token(model, token_id))
            kinds.append(KINDS.index(_kind(model, token_id, token, data, specials, first)))
            lengths.append(len(data))
            makers.append(count.get(token_id, 0))
            first_ranks.append(first.get(token_id, -1))
        return cls(ids, shown, kinds, lengths, makers, first_ranks)

    def __len__(self) -> int:
        return len(self.ids)

    def row(self, index: int) -> VocabRow:
        return VocabRow(
            self.ids[index],
            self.shown[index],
            KINDS[self.kinds[index]],
            self.lengths[index],
            self.makers[index],
            self.first_ranks[index],
        )

    def counts(self) -> dict[str, int]:
        """How many ids of each kind."""
        return {kind: self.kinds.count(code) for code, kind in enumerate(KINDS)}

    def query(
        self, text: str = "", *, kind: str = ANY_KIND, sort: str = "id", page: int = 1
    ) -> VocabPage:
        """The rows whose text contains `text` (or whose id it is), of `kind`, sorted, one
        page of PAGE_ROWS (pages count from 1; a page past the end gives the last)."""
        matched = self._sorted(text, kind, sort)
        pages = max(1, -(-len(matched) // PAGE_ROWS))
        page = min(max(1, page), pages)
        chosen = matched[(page - 1) * PAGE_ROWS : page * PAGE_ROWS]
        return VocabPage(tuple(self.row(i) for i in chosen), len(matched), page, pages)

    def _sorted(self, text: str, kind: str, sort: str) -> list[int]:
        """The positions that match, in the order asked, kept for the last FOUND_KEPT asks."""
        key = (text, kind, sort)
        with self._lock:
            if key in self._found:
                self._found.move_to_end(key)
                return self._found[key]
        matched = self._matching(text, kind)
        if sort == "merge rank":  # tokens no merge makes last, by id
            matched.sort(key=lambda i: (self.first_ranks[i] < 0, self.first_ranks[i]))
        elif sort == "length, longest first":
            matched.sort(key=lambda i: -self.lengths[i])
        elif sort == "length, shortest first":
            matched.sort(key=lambda i: self.lengths[i])
        with self._lock:
            self._found[key] = matched
            while len(self._found) > FOUND_KEPT:
                self._found.popitem(last=False)
        return matched

    def _matching(self, text: str, kind: str) -> list[int]:
        """Positions (in id order) of the rows that match."""
        positions = range(len(self.ids))
        kept: list[int]
        if kind != ANY_KIND:
            code = KINDS.index(kind)
            kept = [i for i in positions if self.kinds[i] == code]
        else:
            kept = list(positions)
        if not text:
            return kept
        as_id = int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None
        shown = self.shown
        return [i for i in kept if text in shown[i] or self.ids[i] == as_id]


def _kind(
    model: LoadedModel,
    token_id: int,
    token: str,
    data: bytes,
    specials: set[int],
    made: dict[int, int],
) -> TokenKind:
    """token_facts.token_kind, from what the index has already found."""
    if token_id in specials:
        return "special"
    if model.base == "characters" and is_byte_fallback(token):
        return "byte fallback"
    if token_id in made:
        return "merged"
    if len(data) == 1 or (model.base == "characters" and len(token) == 1):
        return "base"
    return "no merge"
