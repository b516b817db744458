"""The merge history: what training did, step by step. Plain data, no behaviour.

>>> step = MergeStep(rank=0, left=97, right=97, new_id=256, token=b"aa", count=4,
...                  merged=2, length_after=9, ties=())
>>> step.pair
(97, 97)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from explorer.base.vocab_budget import budget_text
from explorer.training.tie_rules import DEFAULT_TIE_RULE, TieRule


class StopReason(str, Enum):
    """Why training stopped before or at the target vocab size."""

    VOCAB_SIZE_REACHED = "vocab_size_reached"
    NO_PAIRS_LEFT = "no_pairs_left"
    BELOW_MIN_COUNT = "below_min_count"
    TOKEN_BYTES_REACHED = "token_bytes_reached"  # explorer.base.vocab_budget

    def describe(self) -> str:
        """A clause for people, to follow "because": `StopReason.NO_PAIRS_LEFT.describe()`."""
        return {
            StopReason.VOCAB_SIZE_REACHED: "the target vocab size was reached",
            StopReason.NO_PAIRS_LEFT: "no pair of adjacent tokens was left to merge",
            StopReason.BELOW_MIN_COUNT: "the most frequent pair fell below the minimum count",
            StopReason.TOKEN_BYTES_REACHED: (
                f"the vocabulary's tokens reached {budget_text()} together, the most a "
                "tokenizer file here may hold (its last merges built long tokens seen only "
                "once or twice)"
            ),
        }[self]


@dataclass(frozen=True, slots=True)  # slots: 20,000 steps take 2 MB, not 6
class MergeStep:
    """One merge: pair (left, right) became new_id = 256 + rank.

    count is the pair's overlapping occurrence count when it was chosen (minbpe's
    verbose log); merged is how many occurrences were actually replaced, which is
    smaller for runs such as "aaa". ties are up to five other pairs that had the same
    count and lost on the run's tie rule (`MergeHistory.tie_rule`), in the order it ranks them.
    """

    rank: int
    left: int
    right: int
    new_id: int
    token: bytes
    count: int
    merged: int
    length_after: int
    ties: tuple[tuple[int, int], ...] = ()

    @property
    def pair(self) -> tuple[int, int]:
        return (self.left, self.right)

    @property
    def tied(self) -> bool:
        return bool(self.ties)


@dataclass(frozen=True)
class MergeHistory:
    """Every step of one training run, with what is needed to explain it.

    initial_length is the corpus length in tokens (bytes) before any merge;
    token_usage counts each token id in the final encoding of the training corpus;
    tie_rule is how ties between pairs of the same count were broken.
    """

    steps: tuple[MergeStep, ...]
    stop_reason: StopReason
    initial_length: int
    token_usage: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0
    corpus_bytes: int = 0
    tie_rule: TieRule = DEFAULT_TIE_RULE

    @property
    def merges(self) -> list[tuple[int, int]]:
        return [step.pair for step in self.steps]

    def stop_sentence(self) -> str:
        """Why training stopped, as the sentence a person reads after training.

        >>> MergeHistory((), StopReason.NO_PAIRS_LEFT, 3).stop_sentence()
        'Training stopped early, after 0 merges: no pair of adjacent tokens was left to merge.'
        """
        reason, merges = self.stop_reason, len(self.steps)
        if reason is StopReason.VOCAB_SIZE_REACHED:
            return f"Training stopped because {reason.describe()}."
        if reason is StopReason.TOKEN_BYTES_REACHED:
            return (
                f"Training stopped at merge {merges:,}: the vocabulary's tokens reached "
                f"{budget_text()}, the most a tokenizer file here may hold. "
                f"{self._long_tokens_sentence()} The {merges:,} merges made so far are kept "
                "as the run."
            )
        plural = "merge" if merges == 1 else "merges"
        return f"Training stopped early, after {merges:,} {plural}: {reason.describe()}."

    @property
    def final_length(self) -> int:
        return self.steps[-1].length_after if self.steps else self.initial_length

    def _long_tokens_sentence(self) -> str:
        """Why the tokens grew so long, from the last merge's count."""
        count = self.steps[-1].count if self.steps else 0
        if count >= 2:
            return (
                f"This text repeats long stretches ({_times(count)} each), so each merge "
                "only made a longer copy of one; train on more varied text to see merges "
                "that compress it."
            )
        return (
            "Its last merges joined pairs seen once: past the pairs that repeat, each merge "
            "only glues the text's pieces into longer ones. A minimum count of 2 stops there."
        )

    def length_at(self, vocab_size: int) -> int:
        """Corpus length in tokens with the first `vocab_size - 256` merges."""
        merges = max(0, min(vocab_size - 256, len(self.steps)))
        return self.steps[merges - 1].length_after if merges else self.initial_length

    def truncated(self, vocab_size: int) -> MergeHistory:
        """The history of the first `vocab_size - 256` merges (usage is kept only when whole)."""
        merges = max(0, vocab_size - 256)
        if merges >= len(self.steps):
            return self
        return MergeHistory(
            steps=self.steps[:merges],
            stop_reason=StopReason.VOCAB_SIZE_REACHED,
            initial_length=self.initial_length,
            token_usage={},
            seconds=self.seconds,
            corpus_bytes=self.corpus_bytes,
            tie_rule=self.tie_rule,
        )


def _times(count: int) -> str:
    """`_times(2) == "twice"`, `_times(3) == "3 times"`."""
    return "twice" if count == 2 else f"{count:,} times"
