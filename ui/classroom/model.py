"""What a class is made of, as the store keeps it and as it shows it to others.

The store (store.py) keeps mutable records under its lock; everyone else gets frozen
views: a student's `ClassView` never holds an answer before the reveal, and the teacher's
`Tally` (the live count and distribution) is handed out only for the teacher's secret.

    >>> Place().page, Place(step=3).step
    ('animate', 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Place:
    """Where the teacher is: the page, Animate's step and passage, Tokens' encode trace."""

    page: str = "animate"
    step: int = 0
    passage: str = ""
    encode_text: str = ""
    encode_step: int = 0


@dataclass(frozen=True)
class QuestionView:
    """A question as a student sees it: the options; after the reveal, the answer too.

    `detail` is what the page that asked keeps for explaining the answer (the options'
    pair counts, the tie rule): hidden, like `winner` and `counts`, until the reveal.
    """

    number: int
    step: int
    labels: tuple[str, ...]
    revealed: bool
    winner: int | None = None
    counts: tuple[int, ...] | None = None  # how many students picked each option
    detail: dict[str, Any] | None = None


@dataclass(frozen=True)
class ScoreRow:
    name: str
    right: int
    answered: int


@dataclass(frozen=True)
class ClassView:
    """What every member of a class may see (polled through `version` first)."""

    code: str
    version: int
    run_key: str
    run_name: str
    place: Place
    question: QuestionView | None
    students: int
    scores: tuple[ScoreRow, ...] | None  # only while the teacher shows them
    present: int = 0  # the seats whose page checked the class lately


@dataclass(frozen=True)
class Tally:
    """The teacher's live view of the open question: counts per option, never shown to
    students before the reveal."""

    answered: int
    students: int
    counts: tuple[int, ...]


@dataclass(frozen=True)
class Seat:
    """A student's place in a class: the seat token is theirs alone (in their URL)."""

    code: str
    seat: str
    name: str


@dataclass(frozen=True)
class RosterRow:
    """One seat as the teacher's list shows it: who, whether their page is open now, and
    their score so far."""

    seat: str
    name: str
    present: bool
    right: int
    answered: int


@dataclass
class StudentRecord:
    seat: str
    name: str
    right: int = 0
    answered: int = 0
    client: str = ""  # the address the seat was taken from ("": not known)
    seen: float = 0.0  # when the seat's page last checked the class (0: it left)


@dataclass
class QuestionRecord:
    number: int
    step: int
    labels: tuple[str, ...]
    winner: int
    detail: dict[str, Any]
    answers: dict[str, int] = field(default_factory=dict)  # seat -> option
    revealed: bool = False


@dataclass
class ClassRecord:
    code: str
    secret_digest: str
    run_key: str
    run_name: str
    last_active: float
    version: int = 1
    place: Place = field(default_factory=Place)
    question: QuestionRecord | None = None
    asked: int = 0
    scores_shown: bool = False
    students: dict[str, StudentRecord] = field(default_factory=dict)
    anonymous: int = 0  # students named "anonymous k" so far
    client: str = ""  # the address the teacher started it from ("": not known)
    taught: float = 0.0  # when the teacher's page last showed it (0: never since a restart)
