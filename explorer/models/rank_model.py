"""A tiktoken rank file or Mistral's tekken JSON as a `LoadedModel`, encoded by tiktoken itself.

A rank file lists token bytes and ranks. tiktoken encodes a pre-token that is a whole
token as that token; otherwise it merges, again and again, the adjacent pair whose joined
bytes are the token of lowest rank (leftmost on a tie). So a merge's **rank** is the rank
of the token it makes. The file lists no merges: `merges` and `makers` count as a merge
**every split of a token into two tokens**, whatever their ranks, since tiktoken merges any
two adjacent parts whose joined bytes are a token. So several merges may make one token,
and a part may rank above the token it makes (Llama 3 merges rank 117,439 into rank
114,573 in Russian text). For Llama 3 these are exactly the 280,147 merges, in the same
order, that its tokenizer.json (Hugging Face's conversion of this file) lists. `trace`
replays tiktoken's own algorithm (see `explorer.models.rank_merging`): each merge it
applies is among `makers(result)`.

Ids: a rank file's id is the rank; special tokens take the ids their code gives them
(Llama 3's from 128,000) and are read from text as tiktoken's `allowed_special="all"`
reads them. A tekken file's id is rank + the number of special ids (1000), as
mistral-common numbers it, and its specials are never read from text (mistral-common
encodes text with no special tokens).

    >>> import base64
    >>> lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    >>> data = "\\n".join([*lines, "YWI= 256", "YWJj 257"]).encode()
    >>> model = read_rank_file(data, name="t.tiktoken", pattern="gpt2")
    >>> model.encode("abc ab"), model.decode([257, 32, 256]), model.makers(257)
    ([257, 32, 256], 'abc ab', [ModelMerge(rank=257, left=256, right=99, result=257)])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import Any

import tiktoken

from explorer.encoding.pretokenize import PatternError, compile_pattern, resolve_pattern
from explorer.files.errors import FormatError
from explorer.files.limits import (
    check_file_size,
    check_group_depth,
    check_ranked_bytes,
    check_special_names,
    check_vocab_size,
    read_id,
    shown,
)
from explorer.models.known_files import file_sha256, known_rank_file
from explorer.models.model import BaseSymbols, ModelMerge, ModelTrace
from explorer.models.rank_lines import read_rank_lines
from explorer.models.rank_tables import RankMerges, TokenNames, rank_trace
from explorer.models.tekken_file import read_tekken_parts

WHOLE_TEXT = r"[\s\S]+"  # the preset "none": the text is one pre-token


class UnknownTokenId(ValueError):
    """An id that is no token of this model."""


class RankModel:
    """A tiktoken-encoded model (see the module docstring); build it with read_rank_file or
    read_tekken, which check the file first."""

    base: BaseSymbols = "bytes"
    normalizer = ""

    def __init__(
        self,
        *,
        name: str,
        file_kind: str,
        tokens: list[bytes],
        pattern: str,
        special_tokens: Mapping[str, int],
        id_offset: int = 0,
        bos: str | None = None,
    ) -> None:
        self.name, self.file_kind, self.id_offset = name, file_kind, id_offset
        self.rank_tokens = tokens  # rank -> bytes
        self.ranks = {token: rank for rank, token in enumerate(tokens)}
        self.special_tokens: Mapping[str, int] = dict(special_tokens)
        self.special_by_id = {token_id: name for name, token_id in self.special_tokens.items()}
        self.specials_in_text = id_offset == 0
        self.pattern = pattern
        self.bos = bos
        self.tokens: Mapping[int, str] = TokenNames(self)
        self._merges = RankMerges(self)
        self.merges: Sequence[ModelMerge] = self._merges
        self._encoding: tiktoken.Encoding | None = self._new_encoding()

    # --- what the protocol asks --------------------------------------------------------------

    @property
    def vocab_size(self) -> int:
        """Number of distinct ids, special tokens included."""
        return len(self.rank_tokens) + len(self.special_tokens)

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes an id stands for; a special token gives its name's UTF-8."""
        rank = token_id - self.id_offset
        if 0 <= rank < len(self.rank_tokens):
            return self.rank_tokens[rank]
        if token_id in self.special_by_id:
            return self.special_by_id[token_id].encode("utf-8")
        raise self._unknown(token_id)

    def normalize(self, text: str) -> str:
        """A rank file has no normalizer: the text itself."""
        return text

    def encode(self, text: str, *, add_special_tokens: bool = False) -> list[int]:
        """tiktoken's ids; with add_special_tokens, the model's BOS first (when it has one)."""
        if self.specials_in_text:
            ids = self.encoding.encode(text, allowed_special="all")
        else:
            offset = self.id_offset
            ids = [rank + offset for rank in self.encoding.encode_ordinary(text)]
        if add_special_tokens and self.bos is not None:
            ids.insert(0, self.special_tokens[self.bos])
        return ids

    def decode(self, ids: Sequence[int]) -> str:
        """tiktoken's decode (bytes that are no UTF-8 become U+FFFD); a tekken file's as
        mistral-common's `decode(ids, special_token_policy=KEEP)`: special names kept, the
        rest decoded in runs between them."""
        size, offset = len(self.rank_tokens), self.id_offset
        for token_id in ids:
            if not 0 <= token_id - offset < size and token_id not in self.special_by_id:
                raise self._unknown(token_id)
        if self.specials_in_text:
            return self.encoding.decode(list(ids))
        parts: list[str] = []
        for special, run in groupby(ids, lambda token_id: token_id in self.special_by_id):
            if special:
                parts.extend(self.special_by_id[token_id] for token_id in run)
            else:
                parts.append(self.encoding.decode([token_id - self.id_offset for token_id in run]))
        return "".join(parts)

    def trace(self, text: str) -> ModelTrace:
        """Every merge tiktoken applies, pre-token by pre-token; `.ids == encode(text)`."""
        return rank_trace(self, text)

    def makers(self, token_id: int) -> list[ModelMerge]:
        """The merges whose result is this id: every split of it into two tokens."""
        return self._merges.makers(token_id)

    def pair_rank(self, left: int, right: int) -> int | None:
        """The rank tiktoken merges these two adjacent ids at: their joined bytes' rank."""
        size, offset = len(self.rank_tokens), self.id_offset
        if not (0 <= left - offset < size and 0 <= right - offset < size):
            return None
        return self.ranks.get(self.rank_tokens[left - offset] + self.rank_tokens[right - offset])

    # --- tiktoken, rebuilt after unpickling -------------------------------------------------

    @property
    def encoding(self) -> tiktoken.Encoding:
        if self._encoding is None:
            self._encoding = self._new_encoding()
        return self._encoding

    def _new_encoding(self) -> tiktoken.Encoding:
        specials = dict(self.special_tokens) if self.specials_in_text else {}
        try:
            return tiktoken.Encoding(
                self.name, pat_str=self.pattern, mergeable_ranks=self.ranks, special_tokens=specials
            )
        except Exception as exc:  # tiktoken's own words (a regex its engine refuses, ...)
            raise FormatError(f"{self.name}: tiktoken cannot use this file: {exc}") from None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without tiktoken's encoder (rebuilt on first use, ~0.5 s for 128k ranks)."""
        return {**self.__dict__, "_encoding": None}

    def _unknown(self, token_id: int) -> UnknownTokenId:
        first, last = self.id_offset, self.id_offset + len(self.rank_tokens) - 1
        specials = sorted(self.special_by_id)
        among = f", and {len(specials):,} special tokens" if specials else ""
        if specials:
            among += f" (ids {specials[0]:,} to {specials[-1]:,})"
        shown_id = f"{token_id:,}" if isinstance(token_id, int) else shown(token_id)
        return UnknownTokenId(
            f"{self.name} has no token with id {shown_id}: its tokens are ids {first:,} to "
            f"{last:,}{among}"
        )


# --- the two entry points ------------------------------------------------------------------


def read_rank_file(
    data: bytes,
    *,
    name: str,
    pattern: str = "",
    special_tokens: Mapping[str, int] | None = None,
) -> RankModel:
    """A tiktoken rank file (`.tiktoken`, Llama 3's `tokenizer.model`), whatever its name.

    `pattern` is a preset name (gpt2, gpt4, o200k, words, none) or a regex; a file in
    `explorer.models.known_files` brings its own pattern and special tokens when they are
    not given. Raises FormatError saying what is wrong and where.
    """
    check_file_size(len(data), name)
    tokens = read_rank_lines(data, name)
    known = known_rank_file(file_sha256(data)) if not pattern or special_tokens is None else None
    if not pattern and known is None:
        raise FormatError(
            f"{name}: a rank file does not carry its pre-tokenizer pattern and this one is "
            "not a file the explorer knows; give it (--pattern: a preset such as gpt4 or "
            "o200k, or a regex) and its special tokens (--special NAME=ID)"
        )
    if special_tokens is None:
        special_tokens = known.special_tokens if known is not None else {}
    chosen = pattern or (known.pattern if known is not None else "")
    bos = known.bos if known is not None and known.bos in special_tokens else None
    return _model(name, "tiktoken ranks", tokens, chosen, special_tokens, 0, bos)


def read_tekken(text: str, *, name: str = "tekken.json") -> RankModel:
    """Mistral's tekken JSON, numbered as mistral-common numbers it (rank + special ids)."""
    check_file_size(len(text), name)
    parts = read_tekken_parts(text, name)
    bos = "<s>" if "<s>" in parts.specials else None
    specials, offset = parts.specials, parts.num_special
    return _model(name, "tekken", parts.tokens, parts.pattern, specials, offset, bos)


def _model(
    name: str,
    kind: str,
    tokens: list[bytes],
    pattern: str,
    specials: Mapping[str, int],
    offset: int,
    bos: str | None,
) -> RankModel:
    """The checks every rank model passes, then the model."""
    check_vocab_size(len(tokens) + len(specials), name)
    check_ranked_bytes(tokens, name)
    singles = {token for token in tokens if len(token) == 1}
    missing = next((b for b in range(256) if bytes([b]) not in singles), None)
    if missing is not None:
        raise FormatError(
            f"{name}: the single byte {missing:#04x} is not a token; tiktoken needs all 256 "
            "single bytes among the ranks"
        )
    _check_specials(specials, offset, len(tokens), name)
    regex_text = resolve_pattern(pattern) or WHOLE_TEXT
    check_group_depth(regex_text, f"{name}: the pattern")
    try:
        compile_pattern(regex_text)
    except PatternError as exc:
        raise FormatError(f"{name}: {exc}") from None
    return RankModel(
        name=name,
        file_kind=kind,
        tokens=tokens,
        pattern=regex_text,
        special_tokens=specials,
        id_offset=offset,
        bos=bos,
    )


def _check_specials(specials: Mapping[str, int], offset: int, ranks: int, name: str) -> None:
    """Special ids within range, none twice and none a rank's id (rank + offset)."""
    check_special_names(specials, name)
    owner: dict[int, str] = {}
    for special, token_id in specials.items():
        read_id(token_id, f"{name}: the special token {shown(special)}")
        if offset <= token_id < offset + ranks:
            raise FormatError(
                f"{name}: the special token {shown(special)} has id {token_id:,}, the id of "
                f"rank {token_id - offset:,}; special ids must lie outside {offset:,} to "
                f"{offset + ranks - 1:,}"
            )
        if token_id in owner:
            raise FormatError(
                f"{name}: the special tokens {shown(owner[token_id])} and {shown(special)} "
                f"share id {token_id:,}"
            )
        owner[token_id] = special
