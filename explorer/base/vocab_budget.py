"""How many bytes a vocabulary's tokens may hold together: one bound for training and files.

A merge's token is its two parts side by side, so the vocabulary grows by the sum of their
lengths at each merge. On ordinary text tokens stay short (o200k_base's 200,019 tokens
hold 1.4 MB together), but a text that repeats a long stretch makes each merge a copy of
the last one byte longer: X + "\\n" + X, X 60,000 random letters, trained to 50,000 merges
made tokens of about 970 MB and held 16.7 GB of server memory (issue 35). Training stops
at this bound, and every tokenizer file is read under it (`explorer.files.limits`), so
whatever a training keeps can be written and read back.

    >>> MAX_VOCAB_BYTES, budget_text()
    (33554432, '32 MiB')
"""

from __future__ import annotations

MAX_VOCAB_BYTES = 32 << 20  # the bytes of all tokens of a vocabulary made from merges
BYTE_TOKENS = 256  # the single bytes every vocabulary starts with: one byte each


def budget_text(budget: int = MAX_VOCAB_BYTES) -> str:
    """The budget for a sentence: whole MiB when it is, else bytes.

    >>> budget_text(1 << 20), budget_text(5_000)
    ('1 MiB', '5,000 bytes')
    """
    if budget % (1 << 20) == 0:
        return f"{budget >> 20:,} MiB"
    return f"{budget:,} bytes"
