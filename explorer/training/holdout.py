r"""Hold out a share of a corpus: text the tokenizer does not train on, to test it with.

The corpus is cut into units — whole documents when there are several, else
paragraphs (a paragraph keeps the blank lines after it), else lines — and every k-th
unit is held out: with 10 %, units 10, 20, 30, ... (counted from 1); with 15 %, units
7, 14, 20, 27, ... (unit i is held out when `i * percent // 100` steps up). Spread
evenly rather than taking the last 10 %, the held-out text comes from the same mix as
the training text (the end of a book is often its index, notes or licence), so the gap
between the two curves measures over-fitting, not a change of subject. The coarsest
unit that gives at least one held-out unit is used.

Cuts fall only between documents or right after a newline, so no character (not even a
grapheme cluster: Unicode always breaks after a line feed) is ever split, and the
pieces put back in order are the corpus again, byte for byte:

    >>> text = "".join(f"Paragraph {i}.\n\n" for i in range(1, 11))
    >>> split = split_holdout([text], 10)
    >>> split.unit, split.heldout_texts()
    (<SplitUnit.PARAGRAPH: 'paragraph'>, ('Paragraph 10.\n\n',))
    >>> split.reassembled() == (text,)
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import regex

MIN_PERCENT, MAX_PERCENT = 1, 50  # hold out at least 1 %, and never more than is trained on
PARAGRAPH_END = regex.compile(r"\n(?:[^\S\n]*\n)+")  # a newline, then blank lines


class HoldoutError(ValueError):
    """A share that cannot be held out of this corpus, with what to do instead."""


class SplitUnit(str, Enum):
    """What the corpus was cut into."""

    DOCUMENT = "document"
    PARAGRAPH = "paragraph"
    LINE = "line"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Piece:
    """One unit of the corpus, in order: which document it is from, and which side it is on."""

    document: int
    text: str
    held_out: bool


@dataclass(frozen=True)
class HoldoutSplit:
    """A corpus cut into training and held-out pieces (in the corpus's order)."""

    pieces: tuple[Piece, ...]
    unit: SplitUnit
    percent: int
    documents: int

    def training_texts(self) -> tuple[str, ...]:
        """The training side as documents: each run of training pieces is one document."""
        return _runs(self.pieces, held_out=False)

    def heldout_texts(self) -> tuple[str, ...]:
        """The held-out side as documents: each run of held-out pieces is one document."""
        return _runs(self.pieces, held_out=True)

    def reassembled(self) -> tuple[str, ...]:
        """The corpus again: every piece of each document, in order."""
        parts: list[list[str]] = [[] for _ in range(self.documents)]
        for piece in self.pieces:
            parts[piece.document].append(piece.text)
        return tuple("".join(part) for part in parts)

    def held_out_units(self) -> int:
        return sum(piece.held_out for piece in self.pieces)


def split_holdout(texts: Sequence[str], percent: int) -> HoldoutSplit:
    r"""Cut `texts` into training and held-out pieces, holding out about `percent` % of units.

    Raises HoldoutError when the share is out of range or the corpus has too few
    documents, paragraphs and lines to hold any out (such as a single line).

    >>> split_holdout(["one", "two"], 50).heldout_texts()
    ('two',)
    >>> split_holdout(["a\nb\nc\nd\n"], 25).heldout_texts()
    ('d\n',)
    """
    check_percent(percent)
    for unit in _units_to_try(texts):
        units = _cut(texts, unit)
        if len(units) * percent // 100 >= 1:
            pieces = tuple(
                Piece(document, text, _is_held_out(i, percent))
                for i, (document, text) in enumerate(units, start=1)
            )
            split = HoldoutSplit(pieces, unit, percent, len(texts))
            _check_both_sides(split)
            return split
    raise HoldoutError(
        f"the text is too short to hold out {percent} % of it: it has "
        f"{_count_lines(texts)} line(s), and {percent} % of that is less than one. Add more "
        "lines or paragraphs, hold out a larger share, or train without a held-out share."
    )


def check_percent(percent: int) -> None:
    """HoldoutError unless percent is a whole number from MIN_PERCENT to MAX_PERCENT."""
    if isinstance(percent, bool) or not isinstance(percent, int):
        raise HoldoutError(
            f"the held-out share is a whole percentage, such as 10 (got {percent!r})"
        )
    if not MIN_PERCENT <= percent <= MAX_PERCENT:
        raise HoldoutError(
            f"the held-out share must be from {MIN_PERCENT} % to {MAX_PERCENT} % "
            f"(got {percent} %), so that most of the text is still trained on"
        )


def _is_held_out(position: int, percent: int) -> bool:
    """Whether unit `position` (from 1) is held out: every (100 / percent)-th unit.

    >>> [i for i in range(1, 31) if _is_held_out(i, 10)]
    [10, 20, 30]
    >>> [i for i in range(1, 31) if _is_held_out(i, 15)]
    [7, 14, 20, 27]
    """
    return position * percent // 100 > (position - 1) * percent // 100


def _units_to_try(texts: Sequence[str]) -> list[SplitUnit]:
    several = sum(1 for text in texts if text) > 1
    return [SplitUnit.DOCUMENT] * several + [SplitUnit.PARAGRAPH, SplitUnit.LINE]


def _cut(texts: Sequence[str], unit: SplitUnit) -> list[tuple[int, str]]:
    """Non-empty units in order, each with its document's index."""
    units: list[tuple[int, str]] = []
    for document, text in enumerate(texts):
        if unit is SplitUnit.DOCUMENT:
            pieces = [text]
        elif unit is SplitUnit.PARAGRAPH:
            pieces = _cut_after(text, [m.end() for m in PARAGRAPH_END.finditer(text)])
        else:
            pieces = _cut_after(text, _line_ends(text))
        units.extend((document, piece) for piece in pieces if piece)
    return units


def _line_ends(text: str) -> list[int]:
    """Positions just after each newline (only "\n": "\r\n" stays whole, other breaks stay in)."""
    ends, at = [], text.find("\n")
    while at != -1:
        ends.append(at + 1)
        at = text.find("\n", at + 1)
    return ends


def _cut_after(text: str, cuts: list[int]) -> list[str]:
    """text cut at the given positions: `_cut_after("ab\\ncd", [3]) == ["ab\\n", "cd"]`."""
    starts = [0, *cuts]
    return [text[start:end] for start, end in zip(starts, [*cuts, len(text)])]


def _runs(pieces: Sequence[Piece], *, held_out: bool) -> tuple[str, ...]:
    """Joined runs of consecutive pieces on one side, never across documents."""
    runs: list[str] = []
    previous: Piece | None = None
    for piece in pieces:
        if piece.held_out is held_out:
            joins = previous is not None and previous.held_out is held_out
            if joins and previous is not None and previous.document == piece.document:
                runs[-1] += piece.text
            else:
                runs.append(piece.text)
        previous = piece
    return tuple(runs)


def _check_both_sides(split: HoldoutSplit) -> None:
    """HoldoutError when either side is only whitespace (say, blank lines held out)."""
    for side, texts in (
        ("held out", split.heldout_texts()),
        ("left to train on", split.training_texts()),
    ):
        if not "".join(texts).strip():
            raise HoldoutError(
                f"only blank space would be {side} when cutting at every {split.unit}; "
                "give the text more lines or paragraphs, or train without a held-out share"
            )


def _count_lines(texts: Sequence[str]) -> int:
    return sum(len(_cut_after(text, _line_ends(text))) for text in texts if text)
