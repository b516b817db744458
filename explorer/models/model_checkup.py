"""A loaded model's check-up: the kinds of `explorer.analysis.vocabulary.checkup` that apply.

A real model's file keeps its own ids, so the check goes over the ids it has (not 0 to
vocab size), and its own encode decides what text yields:

- unreachable: the token's bytes are valid UTF-8, yet the model's encode of that text
  (no BOS or EOS) does not give the token alone. Checked only where the model's
  normalizer leaves the token's text as it is: when it changes it (Llama 2 prepends `▁`,
  Qwen 3's NFC recomposes), the text a user types for the token is another text, and
  the token is counted under `not_checked` instead;
- partial_character, special, whitespace_only, digits_only: as for our tokenizers;
- outside_merges: ids no merge makes that are neither base symbols (a single byte; for
  a SentencePiece-style model, a single character or a byte-fallback token) nor special;
- intermediate_only does not apply: it needs the training corpus, which a model's file
  does not carry (`NOT_APPLICABLE` says so).

    >>> is_base("bytes", b"a"), is_base("characters", "é".encode()), is_base("bytes", b"ab")
    (True, True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import regex

from explorer.models.model import BaseSymbols, LoadedModel

Progress = Callable[[str, int, int], None]  # (phase, done, total)
KINDS = (
    "unreachable",
    "partial_character",
    "outside_merges",
    "intermediate_only",
    "special",
    "whitespace_only",
    "digits_only",
)
NOT_APPLICABLE = {
    "intermediate_only": "intermediate-only tokens need the training corpus's final encoding, "
    "and a model's file does not carry its training corpus",
}
WHITESPACE = regex.compile(r"\s+")
DIGITS = regex.compile(r"\p{Nd}+")
PROGRESS_EVERY = 2048


@dataclass(frozen=True)
class ModelCheckUp:
    """The ids of each kind (ascending); `encoded[id]` is what the token's own text encodes
    to when that is not the token alone; `not_checked` the ids whose reach was not tested
    (the normalizer changes their text); `lengths` bytes for a partial character, else
    characters."""

    vocab_size: int
    kinds: dict[str, tuple[int, ...] | None]
    encoded: dict[int, tuple[int, ...]]
    not_checked: tuple[int, ...]
    lengths: dict[int, int]

    def counts(self) -> dict[str, int | None]:
        """How many tokens of each kind, keyed as KINDS (None: does not apply)."""
        return {kind: None if (ids := self.kinds[kind]) is None else len(ids) for kind in KINDS}


def is_base(base: BaseSymbols, data: bytes) -> bool:
    """Whether a token's bytes are a base symbol: one byte, or (SentencePiece-style) one
    character."""
    if len(data) == 1:
        return True
    if base != "characters":
        return False
    try:
        return len(data.decode("utf-8")) == 1
    except UnicodeDecodeError:
        return False


def model_check_up(model: LoadedModel, *, progress: Progress | None = None) -> ModelCheckUp:
    """Check every id of the model: an encode per token (Llama 3's 128,256 ids took 23 s
    and 35 s, tokenizer.json and tokenizer.model, on the 2-core machine at load 14)."""
    made = {merge.result for merge in model.merges}
    special = set(model.special_tokens.values())
    found: dict[str, list[int]] = {kind: [] for kind in KINDS if kind not in NOT_APPLICABLE}
    encoded: dict[int, tuple[int, ...]] = {}
    not_checked: list[int] = []
    lengths: dict[int, int] = {}
    ids = sorted(model.tokens)
    for done, token_id in enumerate(ids):
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress("checking", done, len(ids))
        data = model.token_bytes(token_id)
        if token_id in special:
            found["special"].append(token_id)
            lengths[token_id] = len(model.tokens[token_id])
            continue
        if token_id not in made and not is_base(model.base, data):
            found["outside_merges"].append(token_id)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            found["partial_character"].append(token_id)
            lengths[token_id] = len(data)
            continue
        lengths[token_id] = len(text)
        if WHITESPACE.fullmatch(text):
            found["whitespace_only"].append(token_id)
        elif DIGITS.fullmatch(text):
            found["digits_only"].append(token_id)
        if model.normalize(text) != text:
            not_checked.append(token_id)
            continue
        ids_of_text = model.encode(text)
        if ids_of_text != [token_id]:
            found["unreachable"].append(token_id)
            encoded[token_id] = tuple(ids_of_text)
    if progress is not None:
        progress("checking", len(ids), len(ids))
    kinds: dict[str, tuple[int, ...] | None] = {
        kind: tuple(found[kind]) if kind in found else None for kind in KINDS
    }
    return ModelCheckUp(len(ids), kinds, encoded, tuple(not_checked), lengths)


def row_note(model: LoadedModel, report: ModelCheckUp, token_id: int) -> str:
    """Why a token is listed, in words ("" when its kind says it all)."""
    if token_id in report.encoded:
        ids = report.encoded[token_id]
        parts = " + ".join(repr(model.decode([i])) for i in ids[:8])
        more = " + …" if len(ids) > 8 else ""
        return f"its text encodes as {' + '.join(map(str, ids[:8]))}{more} ({parts}{more})"
    if token_id in report.not_checked:
        return "not checked for reach: the normalizer changes its text"
    return ""
