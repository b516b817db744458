"""What a link may train: a bounded amount of work, whoever sends it and whoever opens it.

A link that names a sample's settings (`?sample=…&vocab=…&pattern=…`) trains when the
server does not have that run yet, so anyone who can send a link can make the server
train. Training's time, memory and the size of what it keeps grow with the merges times
the bytes a merge may lengthen a token over: without a pattern (or with a custom regex,
which may match the text whole), a token can grow to the whole text, and the vocabulary's
bytes grow with it (Shakespeare at 20,000 tokens: a 73 KB token, 1 GB of memory; at
50,000, 13 GB); a preset pattern keeps tokens inside its short chunks.

So a link may train merges × corpus bytes up to LINK_WORK_BUDGET without a pattern, and
PRESET_FACTOR times that with a preset; past it, the vocab size is lowered to what fits
and the page says so (the Train page trains more, in the open). Measured with
bench/load/link_budget_costs.py (figures in BENCHMARKS.md): the costliest sample within the
budget, Python source without a pattern at 1,969 tokens, trains in 0.14 s, peaks at
23 MB and keeps a 0.4 MB run file (at 3,683 tokens it kept 13 MB and peaked at 88 MB,
too much when the app's training cache keeps 64 runs); every sample with a preset
trains as far as its text allows (at most 50,000) in under 3 s and 51 MB.

    >>> link_vocab_size(2000, 99_843, "gpt4"), link_vocab_size(50_000, 99_843, "none")
    (2000, 756)
    >>> link_vocab_size(50_000, 11, "none")  # a tiny text: the app's own limit holds
    50000
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.encoding.pretokenize import PRESETS

LINK_WORK_BUDGET = 50_000_000  # merges × corpus bytes a link may train without a pattern
PRESET_FACTOR = 100  # a preset's chunks keep tokens short: this many times more
MAX_LINK_VOCAB_SIZE = 50_000  # the app's own limit (ui/session/runs.MAX_APP_VOCAB_SIZE)


def work_budget(pattern: str) -> int:
    """Merges × corpus bytes a link may train with this pattern (a name or a regex).

    >>> work_budget("gpt4") // work_budget("none"), work_budget(r"[\\s\\S]+") == work_budget("")
    (100, True)
    """
    preset = pattern in PRESETS and PRESETS[pattern] != ""
    return LINK_WORK_BUDGET * (PRESET_FACTOR if preset else 1)


def link_vocab_size(asked: int, corpus_bytes: int, pattern: str) -> int:
    """The vocab size a link may train: `asked`, or less when that is over the budget."""
    merges = work_budget(pattern) // max(1, corpus_bytes)
    return max(256, min(asked, 256 + merges, MAX_LINK_VOCAB_SIZE))


@dataclass(frozen=True)
class LinkCut:
    """A link's vocab size that was lowered: what it asked for and what it got."""

    asked: int
    given: int
    sample_title: str
    pattern: str

    def notice(self) -> str:
        """The sentence the page shows (plain text: the caller escapes it for markdown).

        >>> LinkCut(50_000, 756, "Shakespeare", "none").notice()[:70]
        'This link asked for a vocab size of 50,000 on Shakespeare with pattern'
        """
        return (
            f"This link asked for a vocab size of {self.asked:,} on {self.sample_title} with "
            f"pattern {self.pattern}; a link trains at most {self.given:,} there, so this is "
            f"the tokenizer at {self.given:,}. The Train page can train more."
        )
