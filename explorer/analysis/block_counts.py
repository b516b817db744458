"""The metric counts of a long text, one block at a time, with progress.

`count_text` of the whole text and the sum of `count_text` over its blocks
(explorer.encoding.text_blocks) are the same counts: the blocks encode to the ids of the
whole, and none splits a word. So a 20 MB text reports its progress every megabyte and
still gives exactly the figures of one encode:

    >>> from explorer.training.train import train
    >>> tok = train("low lower lowest " * 30, 270, pattern="gpt4").tokenizer
    >>> text = "low lower lowest slower " * 40
    >>> seen = []
    >>> counts = counts_in_blocks(tok, text, block_chars=100, progress=lambda *s: seen.append(s))
    >>> counts == count_text(tok, text), seen[-1]
    (True, ('encoding', 960, 960))
"""

from __future__ import annotations

from explorer.analysis.metric_counts import MetricCounts, count_text
from explorer.analysis.stats import byte_length
from explorer.encoding.text_blocks import BLOCK_CHARS, text_blocks
from explorer.encoding.tokenizer import Tokenizer
from explorer.training.learner import ProgressCallback

PHASE = "encoding"  # progress(PHASE, bytes done, bytes in all)


def counts_in_blocks(
    tokenizer: Tokenizer,
    text: str,
    *,
    block_chars: int = BLOCK_CHARS,
    progress: ProgressCallback | None = None,
) -> MetricCounts:
    """`count_text(tokenizer, text)`, computed a block at a time; `progress` hears the
    UTF-8 bytes done after each block (a pattern that cannot be cut is one block)."""
    blocks = text_blocks(text, tokenizer.pattern, block_chars=block_chars)
    total = sum(byte_length(block) for block in blocks)
    counts, done = MetricCounts(), 0
    for block in blocks:
        counts = counts + count_text(tokenizer, block)
        done += byte_length(block)
        if progress is not None:
            progress(PHASE, done, total)
    return counts
