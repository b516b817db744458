"""What one encode of a text says about every smaller vocabulary: the counts behind the metrics.

The tokenizer of the first k merges applies exactly the full tokenizer's merge
applications of rank < k (see `explorer.analysis.compression.stats.tokens_at_every_size`), so its
tokens are the full encode's merge trees cut below id 256 + k. Everything a metric needs
at any size is therefore in the full encode's trees:

- which ids the text ends with (`final`), so every size's unigram counts follow by
  splitting the largest id back into its two parts, one size at a time;
- for each id, how often it was made by joining two bytes of one word (`inner_joins`):
  splitting those adds one token to a word;
- for each word that ends as one token, the largest id whose split cuts that word
  (`whole_until`): below that vocab size the word is in two or more tokens.

Words are whitespace-separated, as `str.split()` splits them (`WORD_PATTERN`). A
token that spans several words counts once for each word it touches.

    >>> tok = Tokenizer([(104, 105), (32, 256)])  # "hi", " hi"
    >>> counts = count_text(tok, "hi hi")
    >>> counts.words, counts.final, dict(counts.inner_joins), dict(counts.whole_until)
    (2, Counter({256: 1, 257: 1}), {256: 2}, {256: 2})
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from explorer.encoding.pretokenize import as_unicode
from explorer.encoding.tokenizer import Tokenizer

# Python's `\S` is "not str.isspace()", so these words are exactly `text.split()`'s.
WORD_PATTERN = r"\S+"
# subtle: the characters beyond ASCII that str.isspace() accepts (Python 3.11's Unicode
# 14; a test holds this list to it); a byte mask built from their UTF-8 forms marks the
# same words as WORD_PATTERN without decoding per word. Written out: finding them among
# all 1.1 million code points took 44 ms of every command-line start.
WIDE_SPACES = (
    "\x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
)
_WIDE_SPACE_BYTES = re.compile(b"|".join(re.escape(c.encode()) for c in WIDE_SPACES))
_ASCII_WORD_BYTES = bytes(0 if chr(b).isspace() else 1 for b in range(128)) + bytes([1] * 128)


@dataclass
class MetricCounts:
    """Counts from the full encode of one or more texts; `+` adds the texts together.

    `final` counts the ids of the full encode; `inner_joins[t]` is how many of id t's
    occurrences in the merge trees join two bytes of one word; `whole_until[t]` is how
    many words end as a single token whose first split inside the word is id t (0: a
    one-byte word, never split); `split_words` ended in two or more tokens; `touches`
    sums, over the final tokens, how many words each touches.
    """

    text_bytes: int = 0
    words: int = 0
    touches: int = 0
    split_words: int = 0
    final: Counter[int] = field(default_factory=Counter)
    inner_joins: Counter[int] = field(default_factory=Counter)
    whole_until: Counter[int] = field(default_factory=Counter)

    def __add__(self, other: MetricCounts) -> MetricCounts:
        return MetricCounts(
            self.text_bytes + other.text_bytes,
            self.words + other.words,
            self.touches + other.touches,
            self.split_words + other.split_words,
            self.final + other.final,
            self.inner_joins + other.inner_joins,
            self.whole_until + other.whole_until,
        )


@dataclass(frozen=True)
class _TokenInContext:
    """What one token, with the word bytes around it, adds to the counts (cached by key)."""

    touches: int
    word_starts: int
    split_words: int
    inner_joins: tuple[int, ...]
    whole_until: tuple[int, ...]


def word_byte_mask(data: bytes) -> bytes:
    """1 for each byte of a non-space character, 0 for each byte of a space character.

    >>> list(word_byte_mask("a é\\u3000b".encode()))
    [1, 0, 1, 1, 0, 0, 0, 1]
    """
    mask = bytearray(data.translate(_ASCII_WORD_BYTES))
    if not data.isascii():
        for match in _WIDE_SPACE_BYTES.finditer(data):
            mask[match.start() : match.end()] = bytes(match.end() - match.start())
    return bytes(mask)


def count_text(tokenizer: Tokenizer, text: str) -> MetricCounts:
    """The counts of one text from one ordinary encode (special-token text is plain text).

    Over the merges only: tokens outside them (from a file) have no tree to walk down.
    """
    tokenizer = tokenizer.merges_only()
    ids = tokenizer.encode_ordinary(text)
    data = as_unicode(text).encode("utf-8")
    padded = b"\0" + word_byte_mask(data) + b"\0"  # padded[i + 1] is byte i's flag
    by_context: Counter[tuple[int, bytes]] = Counter()
    position = 0
    vocab = tokenizer.vocab
    for token in ids:
        end = position + len(vocab[token])
        by_context[token, padded[position : end + 2]] += 1
        position = end
    counts = MetricCounts(text_bytes=len(data), final=Counter(ids))
    for (token, context), times in by_context.items():
        _add_token(counts, _token_in_context(tokenizer, token, context), times)
    return counts


def _add_token(counts: MetricCounts, token: _TokenInContext, times: int) -> None:
    counts.touches += token.touches * times
    counts.words += token.word_starts * times
    counts.split_words += token.split_words * times
    for made in token.inner_joins:
        counts.inner_joins[made] += times
    for made in token.whole_until:
        counts.whole_until[made] += times


def _token_in_context(tokenizer: Tokenizer, token: int, context: bytes) -> _TokenInContext:
    """Walk one token's merge tree; `context` is its word mask with one byte either side."""
    inner = [
        (cut, made) for cut, made in _cuts(tokenizer, token, 0) if context[cut : cut + 2] == b"\1\1"
    ]
    length = len(context) - 2
    runs = _word_runs(context)
    touches = len(runs)
    starts = [run for run in runs if run[0] > 0]  # a run from 0 began before this token
    split = [run for run in starts if run[1] > length + 1]  # takes the byte after the token
    whole = [run for run in starts if run[1] <= length + 1]
    until = tuple(
        max((made for cut, made in inner if start <= cut < end - 1), default=0)
        for start, end in whole
    )
    return _TokenInContext(touches, len(starts), len(split), tuple(m for _, m in inner), until)


def _cuts(tokenizer: Tokenizer, token: int, offset: int) -> list[tuple[int, int]]:
    """(bytes before the cut, id) for every join in a token's tree, relative to its start.

    >>> _cuts(Tokenizer([(97, 98), (256, 99)]), 257, 0)
    [(2, 257), (1, 256)]
    """
    found: list[tuple[int, int]] = []
    stack = [(token, offset)]
    while stack:
        made, start = stack.pop()
        if made < 256:
            continue
        left, right = tokenizer.merges[made - 256]
        cut = start + len(tokenizer.vocab[left])
        found.append((cut, made))
        stack.append((right, cut))
        stack.append((left, start))
    return found


def _word_runs(context: bytes) -> list[tuple[int, int]]:
    """Word runs touching the token, in padded positions: the token is 1..len-2.

    A run starting at 0 began before the token; one ending past len-2 goes on after it.

    >>> _word_runs(b"\\1\\1\\0\\1\\1")  # the token is 3 bytes: "a b" inside words
    [(0, 2), (3, 5)]
    """
    runs: list[tuple[int, int]] = []
    for match in re.finditer(b"\1+", context):
        if match.end() > 1 and match.start() < len(context) - 1:
            runs.append((match.start(), match.end()))
    return runs
