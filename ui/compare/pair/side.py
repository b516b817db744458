"""Compare: one tokenizer of a compared pair (A or B) at the size it is compared at."""

from __future__ import annotations

from dataclasses import dataclass

from explorer import Tokenizer
from ui.session.runs import Run


@dataclass(frozen=True)
class Side:
    """One tokenizer of the pair, as compared: the run, its size, and its tokenizer there."""

    letter: str  # "A" or "B"
    run: Run
    size: int
    tokenizer: Tokenizer

    @property
    def name(self) -> str:
        return self.run.spec.name

    @property
    def key(self) -> str:
        """A cache key for this tokenizer at this size."""
        return f"{self.run.key}@{self.size}"
