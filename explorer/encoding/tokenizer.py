"""A byte-level BPE tokenizer: merges, a pre-tokenizer pattern and special tokens.

Encoding applies the lowest-rank merge first inside each pre-token chunk. The
vocabulary is always rebuilt from the merges, never stored twice.

A tokenizer read from a file may also hold tokens outside the merge path: vocabulary
entries no merge makes (Hugging Face's `ignore_merges`, a rank file's tail that BPE
cannot rebuild). They have ids past the merges; encoding gives one only for a pre-token
that is exactly its bytes (as tiktoken and `ignore_merges` do), and decoding knows them.

Trained tokenizers give byte b the id b. Imported ones (GPT-2, cl100k, o200k) number
the 256 single bytes in another order; `byte_ids[b]` is then byte b's id, and
encoding maps bytes through it before merging.

    >>> tok = Tokenizer([(97, 97), (256, 97), (257, 98)])
    >>> tok.encode("aaabdaaabac")
    [258, 100, 258, 97, 99]
    >>> tok.decode([258, 100])
    'aaabd'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate

from explorer.base.arguments import (
    merge_pairs,
    pattern_argument,
    strings_argument,
    text_argument,
    token_ids,
    whole_number,
)
from explorer.base.collector import collector_paused
from explorer.encoding.chunk_encoder import ChunkEncoder
from explorer.encoding.extra_tokens import (
    SpecialSet,
    allowed_specials,
    check_shared_ids,
    outside_tokens,
    special_ids,
)
from explorer.encoding.extra_tokens import SpecialTokenError as SpecialTokenError  # exported
from explorer.encoding.extra_tokens import TokenizerError as TokenizerError  # exported
from explorer.encoding.pretokenize import (
    as_unicode,
    compile_pattern,
    covering_pieces,
    match_budget,
    preset_name,
    special_splitter,
    split_chunks,
    split_specials,
)
from explorer.encoding.tiktoken_path import TiktokenPath

_IDENTITY = tuple(range(256))  # byte_ids of every trained tokenizer: byte b has id b
# a span tiktoken's path leaves here up to this long is merged without building the tables
# (engine_agreement's spans are a few words; ~1 s of tables for a 100k vocabulary)
FEW_CHARS_HERE = 4096


@dataclass(frozen=True)
class Encoding:
    """Token ids with where each came from: character and byte spans in the input.

    Spans are half-open and cover the input in order. A character belongs to the token
    that holds its first byte; a token made only of a character's later bytes has an
    empty character span.
    """

    ids: list[int]
    spans: list[tuple[int, int]]
    byte_spans: list[tuple[int, int]]


class Tokenizer:
    """Byte-level BPE: ids 0-255 are bytes, merge k makes id 256 + k, specials come after.

    `byte_ids` numbers the bytes: byte b has id `byte_ids[b]` (default: b itself).
    `trained` says the merges come from BPE training (or from tiktoken's formats, which
    encode a piece that is a whole token as that token), so encoding may take such a
    piece whole; otherwise each token is checked once before it is taken whole.

    >>> swapped = [*range(97), 98, 97, *range(99, 256)]  # a and b trade ids
    >>> tok = Tokenizer([(98, 98)], byte_ids=swapped)
    >>> tok.encode("aab"), tok.vocab[256], tok.decode([98, 97])
    ([256, 97], b'aa', 'ab')

    `outside_merges` (id -> bytes) holds entries no merge makes; with `encode_outside`
    (the default) a pre-token that is exactly one of them encodes to it, else only
    decoding gives them (Hugging Face without `ignore_merges`).

    >>> tok = Tokenizer([(97, 98)], pattern=r"\\w+|\\W", outside_merges={257: b"xyz"})
    >>> tok.encode("xyz ab xyzab"), tok.decode([257]), tok.outside_merges
    ([257, 32, 256, 32, 120, 121, 122, 256], 'xyz', {257: b'xyz'})
    """

    def __init__(
        self,
        merges: Sequence[tuple[int, int]] = (),
        *,
        pattern: str = "",
        special_tokens: Mapping[str, int] | Iterable[str] = (),
        byte_ids: Sequence[int] | None = None,
        trained: bool = False,
        outside_merges: Mapping[int, bytes] | None = None,
        encode_outside: bool = True,
    ) -> None:
        self.merges: list[tuple[int, int]] = merge_pairs(merges)
        pattern = pattern_argument(pattern)
        if not isinstance(special_tokens, Mapping):
            special_tokens = strings_argument(special_tokens, "special_tokens")
        self.byte_ids: tuple[int, ...] = _byte_permutation(byte_ids)
        # subtle: bytes.translate needs a 256-byte table, which a permutation of 0-255 is
        self._byte_table = None if self.bytes_in_order else bytes(self.byte_ids)
        self.vocab: dict[int, bytes] = _build_vocab(self.merges, self.byte_ids)
        self.ranks: dict[tuple[int, int], int] = {
            pair: 256 + rank for rank, pair in enumerate(self.merges)
        }
        self.pattern = pattern
        self._compiled = compile_pattern(pattern)
        # A preset's matches cover any text (every character is a letter, a number, a
        # space or something else, each with an alternative), so they need no check;
        # a custom pattern's gaps become pieces of their own.
        self._pieces = covering_pieces if preset_name(pattern) is None else split_chunks
        self.outside_merges: dict[int, bytes] = outside_tokens(outside_merges or {}, self.vocab)
        self.encode_outside = bool(encode_outside)
        self.special_tokens = special_ids(
            special_tokens,
            self.vocab_size,
            after=max(self.outside_merges, default=self.vocab_size - 1) + 1,
        )
        self.special_by_id = {i: s for s, i in self.special_tokens.items()}
        check_shared_ids(self.special_by_id, self.outside_merges)
        self._splitter = special_splitter(self.special_tokens)
        self.trained = trained
        self._merges_only: Tokenizer | None = None  # made when first asked for
        self._outside_by_bytes = {
            data: i for i, data in self.outside_merges.items() if self.encode_outside
        }
        self._chunks = ChunkEncoder(
            self.vocab,
            self.ranks,
            self._byte_table,
            trained=trained,
            whole_only=self._outside_by_bytes,
        )
        self._tiktoken = TiktokenPath(
            self.merges,
            self.vocab,
            pattern=pattern,
            trained=trained,
            outside_merges=self.outside_merges,
            encode_outside=self.encode_outside,
        )

    def __repr__(self) -> str:
        order = "" if self.bytes_in_order else ", byte_ids=<permuted>"
        outside = f", outside_merges=<{len(self.outside_merges)}>" if self.outside_merges else ""
        return (
            f"Tokenizer(vocab_size={self.vocab_size}, pattern={self.pattern!r}, "
            f"special_tokens={self.special_tokens!r}{order}{outside})"
        )

    @property
    def bytes_in_order(self) -> bool:
        """True when byte b has id b, as in every tokenizer this explorer trains."""
        return self.byte_ids == _IDENTITY

    def outside_id(self, chunk: str) -> int | None:
        """The token outside the merges that this pre-token encodes to whole, if any.

        >>> Tokenizer(outside_merges={256: b"xy"}).outside_id("xy")
        256
        """
        if not self._outside_by_bytes:
            return None
        return self._outside_by_bytes.get(chunk.encode("utf-8", "surrogatepass"))

    def initial_ids(self, chunk: str) -> list[int]:
        """The ids one chunk starts from before any merge: one per UTF-8 byte.

        >>> Tokenizer().initial_ids("hé")
        [104, 195, 169]
        """
        data = text_argument(chunk, "chunk").encode("utf-8", "surrogatepass")
        if self._byte_table is not None:
            data = data.translate(self._byte_table)
        return list(data)

    @property
    def vocab_size(self) -> int:
        """256 bytes plus one id per merge (special tokens and outside_merges not counted)."""
        return 256 + len(self.merges)

    def at_vocab_size(self, vocab_size: int) -> Tokenizer:
        """The tokenizer of the first `vocab_size - 256` merges; special ids follow them.

        subtle: a smaller one has no tokens outside the merges: they belong to the whole
        file, and their ids are past every merge.

        >>> Tokenizer([(97, 97), (256, 97)]).at_vocab_size(257).merges
        [(97, 97)]
        """
        vocab_size = whole_number(vocab_size, "vocab_size")
        if vocab_size < 256:
            raise TokenizerError(
                f"vocab_size must be at least 256, so we can encode all bytes (got {vocab_size})"
            )
        if vocab_size >= self.vocab_size:
            return self
        smaller = Tokenizer(
            self.merges[: vocab_size - 256],
            pattern=self.pattern,
            special_tokens=list(self.special_tokens),
            byte_ids=self.byte_ids,
            trained=self.trained,  # the first merges of a trained tokenizer are trained too
        )
        smaller._chunks.take_tables_from(self._chunks, vocab_size)
        return smaller

    def merges_only(self) -> Tokenizer:
        """This tokenizer without its tokens outside the merges (itself when it has none).

        What a curve over the merges counts: every smaller size lacks them too, and each
        token it encodes to is a merge whose tree can be walked.

        >>> Tokenizer([(97, 98)], outside_merges={257: b"xyz"}).merges_only().encode("xyz")
        [120, 121, 122]
        """
        if not self.outside_merges:
            return self
        if self._merges_only is not None:
            return self._merges_only
        plain = self._merges_only = Tokenizer(
            self.merges,
            pattern=self.pattern,
            special_tokens=self.special_tokens,
            byte_ids=self.byte_ids,
            trained=self.trained,
        )
        plain._chunks.take_tables_from(self._chunks, self.vocab_size)
        return plain

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes of one token; a special token gives its UTF-8 text."""
        if type(token_id) is not int:  # subtle: 97.0 and True would find ids 97 and 1
            token_id = whole_number(token_id, "token_id")
        if token_id in self.vocab:
            return self.vocab[token_id]
        if token_id in self.outside_merges:
            return self.outside_merges[token_id]
        if token_id in self.special_by_id:
            return self.special_by_id[token_id].encode("utf-8")
        outside = f", outside the merges {sorted(self.outside_merges)[:8]}"
        raise TokenizerError(
            f"token id {token_id} is not in this tokenizer "
            f"(ids 0-{self.vocab_size - 1}{outside if self.outside_merges else ''} "
            f"and special tokens {sorted(self.special_by_id)})"
        )

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """The bytes of the tokens, joined: `Tokenizer().decode_bytes([104, 105]) == b"hi"`."""
        return b"".join(map(self.token_bytes, token_ids(ids)))

    def decode(self, ids: Iterable[int]) -> str:
        """Decode to text; bytes that are not valid UTF-8 become U+FFFD."""
        return self.decode_bytes(ids).decode("utf-8", errors="replace")

    def encode(
        self,
        text: str,
        *,
        allowed_special: SpecialSet = "none",
        disallowed_special: SpecialSet = "all",
    ) -> list[int]:
        """Encode text to ids, with tiktoken's rules for special tokens.

        A special token in the text that is neither allowed nor explicitly permitted as
        plain text (`disallowed_special=()`) raises SpecialTokenError. Text that is not
        valid Unicode is encoded as tiktoken does: a surrogate pair written as two code
        points as its character, a lone surrogate as U+FFFD (never bytes that are not
        UTF-8), so only there decode(encode(s)) differs from s.
        """
        return self._encode_ids(text, allowed_special, disallowed_special)

    def check_specials(
        self,
        text: str,
        allowed_special: SpecialSet = "none",
        disallowed_special: SpecialSet = "all",
    ) -> None:
        """Raise the SpecialTokenError `encode` would raise for these arguments, else None.

        >>> Tokenizer(special_tokens=["<|x|>"]).check_specials("a<|x|>", allowed_special="all")
        """
        self._allowed(allowed_special, disallowed_special, text)

    def prepare_encoding(self) -> None:
        """Build encoding's lookup tables now (else the first encode that needs them does):
        tiktoken's where it gives this tokenizer's ids (~0.05 s for GPT-2, see
        explorer.encoding.tiktoken_path), else this engine's (~0.03 s for GPT-2)."""
        if not self._tiktoken.ready(0, force=True):
            self._chunks.prepare()

    def tiktoken_refusal(self) -> str | None:
        """Why tiktoken cannot encode for this tokenizer, or None when it does (for large
        texts, with the ids this engine gives: explorer.encoding.tiktoken_path).

        >>> from explorer.encoding.pretokenize import GPT2_PATTERN
        >>> Tokenizer(pattern=GPT2_PATTERN).tiktoken_refusal(), Tokenizer().tiktoken_refusal()
        (None, 'the pattern is not a preset tiktoken reads as regex does')
        """
        return self._tiktoken.why_not()

    def encode_ordinary(self, text: str) -> list[int]:
        """Encode with special tokens treated as plain text."""
        return self.encode(text, disallowed_special=())

    def encode_with_spans(
        self,
        text: str,
        *,
        allowed_special: SpecialSet = "none",
        disallowed_special: SpecialSet = "all",
    ) -> Encoding:
        """Encode and say where each token came from, so a view never re-tokenises.

        Character spans are in `text` as given, also where a surrogate pair written as
        two code points was encoded as its character (see `encode`).
        """
        ids = self._encode_ids(text, allowed_special, disallowed_special)  # checks text
        byte_spans: list[tuple[int, int]] = []
        position = 0
        for token in ids:
            end = position + len(self.token_bytes(token))
            byte_spans.append((position, end))
            position = end
        unicode = as_unicode(text)
        spans = _char_spans(unicode, byte_spans)
        if len(unicode) != len(text):
            starts = _code_point_starts(text)
            spans = [(starts[a], starts[b]) for a, b in spans]
        return Encoding(ids, spans, byte_spans)

    def _encode_ids(
        self, text: str, allowed_special: SpecialSet, disallowed_special: SpecialSet
    ) -> list[int]:
        text = as_unicode(text_argument(text, "text"))
        allowed = self._allowed(allowed_special, disallowed_special, text)
        fast = self._through_tiktoken(text, allowed)
        if fast is not None:
            return fast
        ids: list[int] | None = None
        with collector_paused():
            for piece_ids in self._encode_pieces(text, allowed):
                if ids is None:
                    ids = piece_ids  # a fresh list: no need to copy the first segment's ids
                else:
                    ids += piece_ids
        return ids or []

    def pre_tokens(
        self,
        text: str,
        *,
        allowed_special: SpecialSet = "none",
        disallowed_special: SpecialSet = "all",
    ) -> list[tuple[str, bool]]:
        """The pieces encode merges inside, in order, each with whether it is a special token.

        The same split, special-token rules and errors as `encode`, for views that show
        how each piece is encoded (explorer.encoding.encode_trace).

        >>> tok = Tokenizer(pattern=r" ?\\w+", special_tokens=["<|x|>"])
        >>> tok.pre_tokens("hi you<|x|>!", allowed_special="all")
        [('hi', False), (' you', False), ('<|x|>', True), ('!', False)]
        """
        text = as_unicode(text_argument(text, "text"))
        allowed = self._allowed(allowed_special, disallowed_special, text)
        return [
            (piece, segment is not None)
            for segment, pieces in self._segments(text, allowed)
            for piece in (pieces if segment is None else [segment])
        ]

    def _through_tiktoken(self, text: str, allowed: set[str]) -> list[int] | None:
        """tiktoken's ids, the special tokens split off here; None: encode here instead."""
        path = self._tiktoken
        if not path.ready(len(text)):
            return None
        if not allowed:
            return path.encode_ordinary(text, self._encode_here)
        ids: list[int] = []
        for segment, is_special in split_specials(text, special_splitter(allowed)):
            if is_special:
                ids.append(self.special_tokens[segment])
            else:
                ids += path.encode_ordinary(segment, self._encode_here)
        return ids

    def _encode_here(self, text: str) -> list[int]:
        """Text without special tokens, in a preset's pieces, merged by this engine (a short
        span without building this engine's tables, which tiktoken's path never needs)."""
        pieces = self._pieces(text, self._compiled)
        if len(text) <= FEW_CHARS_HERE and not self._chunks.prepared:
            return self._chunks.encode_few(pieces)
        return self._chunks.encode_chunks(pieces)

    def _encode_pieces(self, text: str, allowed: set[str]) -> Iterable[list[int]]:
        for special, pieces in self._segments(text, allowed):
            if special is not None:
                yield [self.special_tokens[special]]
            else:
                yield self._chunks.encode_chunks(pieces)

    def _segments(self, text: str, allowed: set[str]) -> Iterable[tuple[str | None, list[str]]]:
        """(special token, []) for an allowed special, else (None, the pre-token pieces).

        subtle: one budget for the whole text: a segment between special tokens each with
        its own would let a text cut by many special tokens match for as long as it likes
        """
        splitter = special_splitter(allowed) if allowed else None
        budget = match_budget(self.pattern, len(text))
        for segment, is_special in split_specials(text, splitter):
            if is_special:
                yield segment, []
            else:
                yield None, self._pieces(segment, self._compiled, budget=budget)

    def _allowed(self, allowed: SpecialSet, disallowed: SpecialSet, text: str) -> set[str]:
        return allowed_specials(self.special_tokens, allowed, disallowed, text)


def _byte_permutation(byte_ids: Sequence[int] | None) -> tuple[int, ...]:
    """Check that byte_ids gives the 256 bytes the ids 0-255, each once."""
    if byte_ids is None:
        return _IDENTITY
    table = tuple(int(i) for i in byte_ids)
    if sorted(table) != list(_IDENTITY):
        missing = sorted(set(_IDENTITY) - set(table))[:5]
        raise TokenizerError(
            f"byte_ids must give the 256 bytes the ids 0-255, each once (got {len(table)} ids"
            + (f"; missing {missing}" if missing else "; some repeated or out of range")
            + ")"
        )
    return table


def _build_vocab(merges: Sequence[tuple[int, int]], byte_ids: Sequence[int]) -> dict[int, bytes]:
    bytes_by_id = sorted(range(256), key=byte_ids.__getitem__)
    vocab = {token_id: bytes([b]) for token_id, b in enumerate(bytes_by_id)}
    for rank, (left, right) in enumerate(merges):
        new_id = 256 + rank
        if left not in vocab or right not in vocab:
            raise TokenizerError(  # merges counted from 1 for people: merge k makes 255 + k
                f"merge {rank + 1} ({left}, {right}) uses an id that no earlier merge created; "
                f"merge {rank + 1} may only use ids below {new_id}"
            )
        vocab[new_id] = vocab[left] + vocab[right]
    return vocab


def _code_point_starts(text: str) -> list[int]:
    """Where each character of `as_unicode(text)` begins in `text`, and its end.

    >>> _code_point_starts("a\\ud83d\\ude00b")
    [0, 1, 3, 4]
    """
    starts, index = [], 0
    while index < len(text):
        starts.append(index)
        pair = (
            "\ud800" <= text[index] <= "\udbff"
            and "\udc00" <= text[index + 1 : index + 2] <= "\udfff"
        )
        index += 2 if pair else 1
    starts.append(len(text))
    return starts


def _char_spans(text: str, byte_spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Map byte spans to character spans; a character goes to the token with its first byte.

    >>> _char_spans("héllo", [(0, 1), (1, 3), (3, 6)])
    [(0, 1), (1, 2), (2, 5)]
    """
    if text.isascii():  # a byte is a character
        return list(byte_spans)
    # chars_before[b]: the characters whose first byte is before byte b, counted in C by
    # accumulating 1 for each first byte (a UTF-8 byte that is not 0b10xxxxxx)
    first_bytes = text.encode("utf-8", "surrogatepass").translate(_FIRST_BYTE)
    chars_before = list(accumulate(first_bytes, initial=0))
    return [(chars_before[start], chars_before[end]) for start, end in byte_spans]


_FIRST_BYTE = bytes(0 if 0x80 <= byte < 0xC0 else 1 for byte in range(256))
