"""Encode through tiktoken where it gives exactly this engine's ids: 3-5 times sooner.

tiktoken merges in Rust what `explorer.encoding.chunk_encoder` merges in Python. It gives
a tokenizer's ids exactly when:

- the pattern is a preset (gpt2, gpt4, o200k, words), which tiktoken's regex engine
  reads as `regex` does, except around the characters the two engines' Unicode tables
  class differently (explorer.encoding.engine_agreement): those spans are encoded here;
- each token's id is its rank and each token's bytes are its own (tiktoken knows a token
  by its bytes; single bytes may have any ids, as GPT-2's do);
- BPE by the rank of two pieces' joined bytes rebuilds every merge, and a piece that is
  a whole token is that token: true of every trained tokenizer (and of the rank files
  `explorer.files.imports` reads), checked once for others;
- tokens outside the merges are encoded whole (`encode_outside`), and only for trained
  tokenizers (a rank file's tail, which BPE never builds).

Special tokens are split off here, with this engine's rules (`Tokenizer.encode`);
tiktoken sees only the text between them. The pattern "none" and custom patterns stay
here: one long chunk (which tiktoken merges slowly), a time budget for a user's regex,
and the gaps a pattern does not match, which tiktoken would drop.

Building tiktoken's tables costs about a microsecond a token (~0.05 s for GPT-2's, ~0.2 s
for o200k's), so a tokenizer builds them once it has been asked for as many characters
as it has tokens times BUILD_AFTER_CHARS_PER_TOKEN; shorter work stays here.

    >>> merges = [(97, 97), (256, 97)]
    >>> path = TiktokenPath(merges, _vocab(merges), pattern=PRESETS["gpt2"], trained=True)
    >>> path.ready(len("short")), path.why_not()  # too little text to pay for building yet
    (False, None)
    >>> path.ready(5_000), path.encode_ordinary("aaab " * 2, list)
    (True, [257, 98, 32, 257, 98, 32])
    >>> here = lambda text: [text]  # stands for this engine's ids of a span
    >>> path.encode_ordinary("aaab a\\u0295 b aaab", here)  # U+0295: Ll there, Lo here
    [257, 98, ' a\u0295 b', 32, 257, 98]
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, overload

from explorer.encoding.engine_agreement import disagreeing_spans
from explorer.encoding.merging import merge_ids
from explorer.encoding.pretokenize import PRESETS

BUILD_AFTER_CHARS_PER_TOKEN = 4  # ~0.25 µs a character here against ~1 µs a token to build
_TIKTOKEN_PRESETS = frozenset(p for name, p in PRESETS.items() if name != "none")


class TiktokenPath:
    """One tokenizer's way through tiktoken: decided once, built when it pays.

    `ready` says whether tiktoken encodes for it (exact, and its tables built or worth
    building); `encode_ordinary` then gives the ids of text between special tokens.
    """

    def __init__(
        self,
        merges: Sequence[tuple[int, int]],
        vocab: Mapping[int, bytes],
        *,
        pattern: str,
        trained: bool,
        outside_merges: Mapping[int, bytes] | None = None,
        encode_outside: bool = True,
    ) -> None:
        self.merges = merges
        self.vocab = vocab
        self.pattern = pattern
        self.trained = trained
        self.outside = dict(outside_merges or {})
        self.encode_outside = encode_outside
        self._refusal: str | None = self._pattern_refusal()  # the cheap reasons, now
        self._decided = self._refusal is not None
        self._encoding: Any = None  # tiktoken.Encoding, once built
        self._asked = 0  # characters asked for before building
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without tiktoken's tables or the lock (a child rebuilds them if it needs)."""
        state = self.__dict__.copy()
        del state["_lock"]
        state["_encoding"] = None
        state["_decided"] = self._refusal is not None and self._decided
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def why_not(self) -> str | None:
        """Why tiktoken cannot give this tokenizer's ids (deciding now), or None when it can.

        >>> TiktokenPath([], _vocab([]), pattern="", trained=True).why_not()
        'the pattern is not a preset tiktoken reads as regex does'
        """
        self._decide()
        return self._refusal

    def ready(self, chars: int, *, force: bool = False) -> bool:
        """Whether tiktoken encodes for this tokenizer, now that `chars` more characters are
        asked for; builds its tables once they pay, or at once with `force` (a caller about to
        encode much text in parts, as the command line's two processes do)."""
        if self._encoding is not None:
            return True
        if self._decided and self._refusal is not None:
            return False
        self._asked += chars
        if not force and self._asked < BUILD_AFTER_CHARS_PER_TOKEN * len(self.vocab):
            return False
        return self._build()

    def encode_ordinary(self, text: str, here: Callable[[str], list[int]]) -> list[int]:
        """The ids of text without special tokens, once `ready`: tiktoken's, but `here`'s for
        the spans with a character the two regex engines class differently (rare)."""
        spans = disagreeing_spans(text)
        if not spans:
            ids: list[int] = self._encoding.encode_ordinary(text)
            return ids
        ids, done = [], 0
        for start, end in spans:
            ids += self._encoding.encode_ordinary(text[done:start])
            ids += here(text[start:end])
            done = end
        ids += self._encoding.encode_ordinary(text[done:])
        return ids

    def _build(self) -> bool:
        with self._lock:
            self._decide()
            if self._refusal is None and self._encoding is None:
                self._encoding = _tiktoken_encoding(self.vocab, self.outside, self.pattern)
        return self._encoding is not None

    def _decide(self) -> None:
        if not self._decided:
            self._refusal = self._tables_refusal()
            self._decided = True

    def _pattern_refusal(self) -> str | None:
        if self.pattern not in _TIKTOKEN_PRESETS:
            return "the pattern is not a preset tiktoken reads as regex does"
        if self.outside and not (self.encode_outside and self.trained):
            return "its tokens outside the merges are not all encoded whole, as tiktoken would"
        return None

    def _tables_refusal(self) -> str | None:
        try:
            import tiktoken  # noqa: F401  (a dependency; still, never fail without it)
        except ImportError:
            return "tiktoken is not installed"
        tokens = [self.vocab[i] for i in range(len(self.vocab))]
        every = tokens + list(self.outside.values())
        if len(set(every)) != len(every):
            return "two tokens have the same bytes, and tiktoken knows a token by its bytes"
        if not self.trained:
            rank = first_unrebuilt_merge(tokens, self.merges)
            if rank is not None:
                return f"BPE from the ranks alone rebuilds merge {rank + 1} otherwise"
        return None


def _tiktoken_encoding(
    vocab: Mapping[int, bytes], outside: Mapping[int, bytes], pattern: str
) -> Any:
    """tiktoken's Encoding of these tokens (id = rank) and pattern, without special tokens."""
    import tiktoken

    ranks = {data: token for token, data in vocab.items()}
    ranks.update({data: token for token, data in outside.items()})
    return tiktoken.Encoding("explorer", pat_str=pattern, mergeable_ranks=ranks, special_tokens={})


def first_unrebuilt_merge(tokens: Sequence[bytes], merges: Sequence[tuple[int, int]]) -> int | None:
    """The first merge (from 0) that BPE by rank, on its token's bytes, makes of other
    parts; None when every merge is rebuilt (what a rank file keeps of a tokenizer).

    >>> tokens = [bytes([b]) for b in range(256)] + [b"aa", b"aab"]
    >>> first_unrebuilt_merge(tokens, [(97, 97), (256, 98)])
    >>> first_unrebuilt_merge(tokens, [(97, 97), (97, 257)])
    1
    """
    lower = LowerRanks(tokens)
    for rank, pair in enumerate(merges, start=256):
        lower.limit = rank
        if merge_ids(lower.byte_ids(tokens[rank]), lower) != list(pair):
            return rank - 256
    return None


class LowerRanks:
    """A rank file's merges below rank `limit`, as `merge_ids` reads them: two tokens side
    by side merge when their joined bytes are a token of lower rank, and make that token.

    Looked up on demand: a rank file lists tokens, not pairs, and most pairs never meet.

    >>> lower = LowerRanks([bytes([b]) for b in range(256)] + [b"aa", b"aaa"])
    >>> lower.limit = 257
    >>> lower.byte_ids(b"aaa"), lower.get((97, 97)), lower.get((256, 97))
    ([97, 97, 97], 256, None)
    """

    def __init__(self, tokens: Sequence[bytes]) -> None:
        self.tokens = tokens
        self.ids = {token: token_id for token_id, token in enumerate(tokens)}
        self.limit = len(tokens)

    def byte_ids(self, token: bytes) -> list[int]:
        """The ids of the token's single bytes (a rank file may number them in any order)."""
        ids = self.ids
        return [ids[token[i : i + 1]] for i in range(len(token))]

    @overload
    def get(self, pair: tuple[int, int]) -> int | None: ...
    @overload
    def get(self, pair: tuple[int, int], default: int) -> int: ...
    def get(self, pair: tuple[int, int], default: int | None = None) -> int | None:
        made = self.ids.get(self.tokens[pair[0]] + self.tokens[pair[1]])
        return made if made is not None and made < self.limit else default


def _vocab(merges: Sequence[tuple[int, int]]) -> dict[int, bytes]:
    """For the examples: byte b is id b, merge k makes 256 + k."""
    vocab = {b: bytes([b]) for b in range(256)}
    for token, (left, right) in enumerate(merges, start=256):
        vocab[token] = vocab[left] + vocab[right]
    return vocab
