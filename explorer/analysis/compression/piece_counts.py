"""The metric counts of an encode given as ids and each id's bytes: a loaded model's.

A real model's ids do not follow its merges (merge k does not make 256 + k), so its
encode has no merge trees to cut to smaller sizes: only its own size is counted. The
words are those of the bytes the tokens stand for (the model's view of the text: after
its normalizer, `▁` as a space), whitespace-separated as `str.split()` splits them; a
token that spans several words counts once for each word it touches. The text's bytes
are the original text's.

    >>> pieces = {1: b"lo", 2: b"w", 3: b" lo", 4: b"wer"}
    >>> counts = piece_counts([1, 2, 3, 4], pieces.__getitem__, "low lower")
    >>> counts.text_bytes, counts.words, counts.touches, counts.split_words
    (9, 2, 4, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import regex

from explorer.analysis.compression.metric_counts import MetricCounts, word_byte_mask

_WORD_RUN = regex.compile(rb"\x01+")


def piece_counts(ids: Sequence[int], id_bytes: Callable[[int], bytes], text: str) -> MetricCounts:
    """The counts of one encode: `ids` in order, `id_bytes(id)` the bytes each stands for."""
    pieces = [id_bytes(token) for token in ids]
    words = [m.span() for m in _WORD_RUN.finditer(word_byte_mask(b"".join(pieces)))]
    touches = 0
    tokens_in_word = [0] * len(words)
    word = 0  # the first word that may still meet a token
    start = 0
    for piece in pieces:
        end = start + len(piece)
        while word < len(words) and words[word][1] <= start:
            word += 1
        reach = word
        while reach < len(words) and words[reach][0] < end:
            tokens_in_word[reach] += 1
            touches += 1
            reach += 1
        start = end
    return MetricCounts(
        text_bytes=len(text.encode("utf-8", "surrogatepass")),
        words=len(words),
        touches=touches,
        split_words=sum(1 for n in tokens_in_word if n > 1),
        final=Counter(ids),
    )
