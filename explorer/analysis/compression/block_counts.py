"""The metric counts of a text held whole, a block at a time with progress, for the
Compare page (in a child Python for a long text: this is the function it runs).

`explorer.analysis.compression.metric_stream.count_blocks` counts blocks exactly as the whole text,
cutting only at a word's end where no pre-token crosses; this hands it the text in slices
of `block_chars` and says how many UTF-8 bytes are done after each:

    >>> from explorer.training.train import train
    >>> tok = train("low lower lowest " * 30, 270, pattern="gpt4").tokenizer
    >>> text = "low lower lowest slower " * 40
    >>> seen = []
    >>> counts = counts_in_blocks(tok, text, block_chars=100, progress=lambda *s: seen.append(s))
    >>> counts == count_text(tok, text), seen[-1], len(seen)
    (True, ('encoding', 960, 960), 10)
"""

from __future__ import annotations

from explorer.analysis.compression.metric_counts import MetricCounts, count_text  # noqa: F401 (doctest)
from explorer.analysis.compression.metric_stream import count_blocks
from explorer.analysis.compression.stats import byte_length
from explorer.encoding.tokenizer import Tokenizer
from explorer.training.learner import ProgressCallback

BLOCK_CHARS = 1 << 20  # ~1 MB: about half a second of encoding, a step people can see
PHASE = "encoding"  # progress(PHASE, bytes done, bytes in all)


def counts_in_blocks(
    tokenizer: Tokenizer,
    text: str,
    *,
    block_chars: int = BLOCK_CHARS,
    progress: ProgressCallback | None = None,
) -> MetricCounts:
    """`count_text(tokenizer, text)`, computed a slice at a time; `progress` hears the
    UTF-8 bytes handed over after each slice (a pattern that cannot be cut is counted
    whole at the end, as encoding does)."""
    total, done = byte_length(text), 0

    def heard(block: str) -> None:
        nonlocal done
        done += byte_length(block)
        if progress is not None:
            progress(PHASE, done, total)

    slices = (text[i : i + block_chars] for i in range(0, len(text), block_chars))
    return count_blocks(tokenizer, slices, on_block=heard)
