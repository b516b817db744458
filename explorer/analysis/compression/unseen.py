"""What text a tokenizer has not seen costs: bytes left as single-byte tokens, new characters.

Single-byte tokens (ids 0-255) are the fallback: a byte no merge covered. Their count at
every vocab size comes from one encode, as
`explorer.analysis.compression.stats.tokens_at_every_size` does: each application of merge k removes
its two parts from the sequence, so it removes one single-byte token for each part below 256, and
the first k merges apply exactly the applications of rank < k.

    >>> tok = Tokenizer([(97, 97), (256, 98)])  # aa, aab
    >>> single_bytes_at_every_size(tok, "aabxaa")
    [6, 2, 1]
    >>> unseen_characters(["abc"], ["abcdd é"])
    [('d', 2), (' ', 1), ('é', 1)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from explorer.analysis.compression.stats import byte_length, merge_applications
from explorer.encoding.tokenizer import Tokenizer


def single_bytes_at_every_size(tokenizer: Tokenizer, text: str) -> list[int]:
    """Single-byte tokens (ids < 256) in text at 0, 1, ..., len(tokenizer.merges) merges.

    Index k equals the number of ids below 256 in
    `tokenizer.at_vocab_size(256 + k).encode(text, disallowed_special=())`: special
    tokens' text counts as ordinary text, as in explorer.analysis.compression.stats.
    """
    counts = [byte_length(text)]
    for (left, right), applied in zip(tokenizer.merges, merge_applications(tokenizer, text)):
        counts.append(counts[-1] - applied * ((left < 256) + (right < 256)))
    return counts


def tokens_and_single_bytes(
    tokenizer: Tokenizer, texts: Iterable[str]
) -> tuple[list[int], list[int]]:
    """Tokens and single-byte tokens of several texts (summed) at every vocab size.

    One encode per text gives both: `tokens_and_single_bytes(Tokenizer([(97, 97)]), ["aab"])`
    is `([3, 2], [3, 1])`.
    """
    size, applied = 0, [0] * len(tokenizer.merges)
    for text in texts:  # applications add up over texts: one tree walk each
        size += byte_length(text)
        applied = [a + b for a, b in zip(applied, merge_applications(tokenizer, text))]
    tokens, singles = [size], [size]
    for (left, right), count in zip(tokenizer.merges, applied):
        tokens.append(tokens[-1] - count)
        singles.append(singles[-1] - count * ((left < 256) + (right < 256)))
    return tokens, singles


def unseen_characters(training: Iterable[str], heldout: Iterable[str]) -> list[tuple[str, int]]:
    """Characters of `heldout` that never occur in `training`, with their counts there.

    Most frequent first; ties in order of first appearance in the held-out text.
    """
    seen: set[str] = set()
    for text in training:
        seen.update(text)
    counts: Counter[str] = Counter()
    for text in heldout:
        counts.update(text)
    unseen = [(char, count) for char, count in counts.items() if char not in seen]
    return sorted(unseen, key=lambda item: -item[1])
