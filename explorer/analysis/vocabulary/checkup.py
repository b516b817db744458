"""A check-up of a tokenizer's vocabulary: tokens no text yields, half characters, oddities.

What a practitioner looks for before choosing a vocabulary (the tokenizer-only analysis
of Land and Bartolo, "Fishing for Magikarp", 2024):

- unreachable: the token's bytes are valid UTF-8, yet encoding that text does not give
  the token alone: the pre-tokenizer splits it, or a lower-ranked merge path takes its
  bytes elsewhere. No text ever produces it, so its embedding is never trained.
- partial_character: bytes that are not valid UTF-8 on their own (a piece of a
  character), counted by how many bytes they carry.
- outside_merges: entries no merge makes, read from a file (a tokenizer.json's entries
  past the merges, with or without `ignore_merges`; a rank file's last ranks that BPE
  cannot build from two lower ones). They are checked as the other tokens are, too.
- intermediate_only: merged during training but never used in the final encoding of the
  training corpus (known only with the run's history, at its full size).
- special, whitespace_only and digits_only (with their lengths in characters).

    >>> merges = [(32, 97), (97, 39), (32, 257), (228, 189)]  # " a", "a'", " a'", half of 你
    >>> report = check_up(Tokenizer(merges))  # no pattern: " a" is merged first, then stuck
    >>> report.unreachable_tokens, report.partial_character[-1]
    ((Unreachable(id=258, encoded=(256, 39), pieces=(" a'",)),), 259)
    >>> from explorer.encoding.pretokenize import resolve_pattern
    >>> report = check_up(Tokenizer(merges, pattern=resolve_pattern("gpt2")))
    >>> [(u.id, u.reason, u.pieces) for u in report.unreachable_tokens]
    [(257, 'split', ('a', "'")), (258, 'split', (' a', "'"))]
    >>> hf = Tokenizer(merges, outside_merges={260: b"xyz"}, encode_outside=False)
    >>> report = check_up(hf)  # no ignore_merges: "xyz" encodes as its bytes
    >>> report.outside_merges, report.unreachable_tokens[-1]
    ((260,), Unreachable(id=260, encoded=(120, 121, 122), pieces=('xyz',)))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import regex

from explorer.analysis.vocabulary.lineage import matching_history
from explorer.encoding.regex_budget import regex_budget
from explorer.encoding.tokenizer import Tokenizer
from explorer.training.history import MergeHistory

Progress = Callable[[str, int, int], None]  # (phase, done, total), as training's

KINDS = (
    "unreachable",
    "partial_character",
    "outside_merges",
    "intermediate_only",
    "special",
    "whitespace_only",
    "digits_only",
)
WHITESPACE = regex.compile(r"\s+")  # Unicode White_Space, as the patterns' \s
DIGITS = regex.compile(r"\p{Nd}+")  # decimal digits of any script: 0-9, ٣, ३ ...
PROGRESS_EVERY = 2048  # tokens between progress reports
# subtle: one allowance of regex time for encoding every token, however many calls: a
# custom pattern on 200,000 tokens (~1.5 MB of text) matched once each stays in it
CHECK_REGEX_SECONDS = 20.0


@dataclass(frozen=True)
class Unreachable:
    """A token no text yields, what encoding its own text gives instead, and why.

    `pieces` are the pre-tokenizer's pieces of its text: two or more when the pattern
    splits it, one when merges of lower rank take its bytes another way.
    """

    id: int
    encoded: tuple[int, ...]
    pieces: tuple[str, ...]

    @property
    def reason(self) -> str:
        """ "split" (pre-tokenisation cuts it) or "merges" (another merge path wins)."""
        return "split" if len(self.pieces) > 1 else "merges"


@dataclass(frozen=True)
class CheckUp:
    """The ids of each kind (ascending); intermediate_only is None when usage is unknown."""

    vocab_size: int
    unreachable_tokens: tuple[Unreachable, ...]
    partial_character: tuple[int, ...]
    outside_merges: tuple[int, ...]
    intermediate_only: tuple[int, ...] | None
    special: tuple[int, ...]
    whitespace_only: tuple[int, ...]
    digits_only: tuple[int, ...]
    lengths: dict[int, int]  # token id -> length (bytes for partial, else characters)

    @property
    def unreachable(self) -> tuple[int, ...]:
        return tuple(token.id for token in self.unreachable_tokens)

    def ids(self, kind: str) -> tuple[int, ...] | None:
        """The ids of one of KINDS (None: not known for this tokenizer)."""
        if kind not in KINDS:
            raise ValueError(f"{kind!r} is not a check-up kind; choose one of {', '.join(KINDS)}")
        ids: tuple[int, ...] | None = getattr(self, kind)  # each of KINDS is a field of this type
        return ids

    def counts(self) -> dict[str, int | None]:
        """How many tokens of each kind, keyed as KINDS (None: not known)."""
        return {kind: None if (ids := self.ids(kind)) is None else len(ids) for kind in KINDS}

    def by_length(self, kind: str) -> dict[int, int]:
        """How many tokens of a kind have each length, shortest first.

        >>> check_up(Tokenizer([(32, 32), (49, 50)])).by_length("whitespace_only")
        {1: 6, 2: 1}
        """
        found = Counter(self.lengths[i] for i in self.ids(kind) or ())
        return dict(sorted(found.items()))


def check_up(
    tokenizer: Tokenizer, history: MergeHistory | None = None, *, progress: Progress | None = None
) -> CheckUp:
    """Check every token of the tokenizer (seconds for 200,000 tokens: see BENCHMARKS.md).

    `history`, when it is the run's (cut to the tokenizer), tells intermediate-only tokens.
    """
    history = matching_history(tokenizer, history)
    tokenizer.prepare_encoding()
    unreachable: list[Unreachable] = []
    partial: list[int] = []
    whitespace: list[int] = []
    digits: list[int] = []
    lengths: dict[int, int] = {}
    every_id = [*range(tokenizer.vocab_size), *sorted(tokenizer.outside_merges)]
    total = len(every_id)
    with regex_budget(CHECK_REGEX_SECONDS, "checking every token"):
        for done, token_id in enumerate(every_id):
            if progress is not None and done % PROGRESS_EVERY == 0:
                progress("checking", done, total)
            data = tokenizer.token_bytes(token_id)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                partial.append(token_id)
                lengths[token_id] = len(data)
                continue
            lengths[token_id] = len(text)
            if WHITESPACE.fullmatch(text):
                whitespace.append(token_id)
            elif DIGITS.fullmatch(text):
                digits.append(token_id)
            found = _unreachable(tokenizer, token_id, text)
            if found is not None:
                unreachable.append(found)
    if progress is not None:
        progress("checking", total, total)
    lengths.update((i, len(name)) for name, i in tokenizer.special_tokens.items())
    return CheckUp(
        vocab_size=total,
        unreachable_tokens=tuple(unreachable),
        partial_character=tuple(partial),
        outside_merges=tuple(sorted(tokenizer.outside_merges)),
        intermediate_only=_intermediate_only(tokenizer, history),
        special=tuple(sorted(tokenizer.special_by_id)),
        whitespace_only=tuple(whitespace),
        digits_only=tuple(digits),
        lengths=lengths,
    )


def _unreachable(tokenizer: Tokenizer, token_id: int, text: str) -> Unreachable | None:
    """What encoding the token's own text gives, when that is not the token alone.

    subtle: special tokens' texts inside the token are plain text here (as a tokenizer
    user's text would be), so a token such as "<|endoftext|>x" is not refused
    """
    encoded = tokenizer.encode(text, disallowed_special=())
    if encoded == [token_id]:
        return None
    pieces = tokenizer.pre_tokens(text, disallowed_special=())
    return Unreachable(token_id, tuple(encoded), tuple(piece for piece, _ in pieces))


def _intermediate_only(
    tokenizer: Tokenizer, history: MergeHistory | None
) -> tuple[int, ...] | None:
    """Merged tokens with no use in the final encoding of the training corpus.

    None when that is unknown: no history, or a history cut short (a smaller view of the
    run), whose usage was counted only at the run's full size.
    """
    if history is None or not history.token_usage:
        return None
    usage = history.token_usage
    return tuple(i for i in range(256, tokenizer.vocab_size) if usage.get(i, 0) == 0)
