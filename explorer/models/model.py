"""What every loaded model offers, whatever its file: ids, merge ranks and steps kept apart.

Our own runs are `explorer.encoding.tokenizer.Tokenizer` (merge k makes id 255 + k). A model
read from a real model's file keeps its own numbering: a token's **id**, a merge's **rank**
(its place in the file's merge order, from 0) and, in a trace, the **step** (the n-th merge
applied to this text, from 1) are three different numbers and never mixed.

Two backends implement this protocol:
- `explorer.models.hf_model` (a Hugging Face tokenizer.json, through the `tokenizers` package);
- `explorer.models.rank_model` (a tiktoken rank file or Mistral's tekken JSON, through tiktoken).
Encoding and decoding are the reference library's own; the engine adds what the library cannot
show: every merge applied, in rank order, with its rank (`trace`), and which pairs make a token.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

# byte-level, or SentencePiece-style (characters, with byte fallback)
BaseSymbols = Literal["bytes", "characters"]


@dataclass(frozen=True)
class ModelMerge:
    """One merge of a loaded model: `left` + `right` make `result` (all ids), at `rank`.

    `rank` is the merge's place in the model's merge order, from 0 (a tokenizer.json's
    `merges` list; a rank file's rank of the result token). Several merges may share a result.
    """

    rank: int
    left: int
    right: int
    result: int


@dataclass(frozen=True)
class TraceStep:
    """One merge applied while encoding: `step` counts from 1 within the whole trace.

    `position` is the index of the left symbol in the chunk's symbol list before the merge.
    """

    step: int
    merge: ModelMerge
    position: int


@dataclass(frozen=True)
class ChunkTrace:
    """One pre-token's story: where it sits in the (normalised) text, its first symbols, its merges.

    `start_ids` are the ids before any merge (bytes, or characters / byte-fallback tokens);
    `whole` is True when the chunk was taken whole (tiktoken's whole-token rule, HF's
    `ignore_merges`) or is a special / added token; `final_ids` are the ids it ends as.
    """

    text: str
    start_ids: tuple[int, ...]
    steps: tuple[TraceStep, ...]
    final_ids: tuple[int, ...]
    whole: bool = False


@dataclass(frozen=True)
class ModelTrace:
    """Every chunk of one text in order; the final ids, joined, equal `encode(text)`."""

    original: str
    normalized: str  # equals `original` when the model has no normalizer or it changed nothing
    chunks: tuple[ChunkTrace, ...]

    @property
    def ids(self) -> list[int]:
        return [i for chunk in self.chunks for i in chunk.final_ids]


class LoadedModel(Protocol):
    """A real model's tokenizer as read from its files (see the module docstring)."""

    name: str  # what people call it: the file name, or "Qwen/Qwen3-0.6B"
    file_kind: str  # "tokenizer.json", "tiktoken ranks", "tekken"
    base: BaseSymbols
    special_tokens: Mapping[str, int]  # added / special tokens -> id (any ids)
    # "" when none, else a plain description: "NFC", "Prepend('▁'), Replace(' ', '▁')"
    normalizer: str
    pattern: str  # the pre-tokenizer regex in Python `regex` syntax, or a description; "" if none

    # read-only, so a backend may keep them as a property or a narrower type (a merge table)
    @property
    def tokens(self) -> Mapping[int, str]:
        """id -> the token as its file writes it ("Ġthe", "▁the", "<0x41>", "<s>")."""
        ...

    @property
    def merges(self) -> Sequence[ModelMerge]:
        """Every merge, in rank order."""
        ...

    @property
    def vocab_size(self) -> int:
        """Number of distinct ids, special tokens included."""
        ...

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes this id stands for in decoded text (b' the' for 'Ġthe' or '▁the')."""
        ...

    def normalize(self, text: str) -> str:
        """The text the model sees after its normalizer (the text itself when none)."""
        ...

    def encode(self, text: str, *, add_special_tokens: bool = False) -> list[int]:
        """Exactly the reference library's ids (tokenizers: add_special_tokens=False by default)."""
        ...

    def decode(self, ids: Sequence[int]) -> str:
        """Exactly the reference library's decode."""
        ...

    def trace(self, text: str) -> ModelTrace:
        """Every merge applied, in the order the library applies them; `.ids == encode(text)`."""
        ...

    def makers(self, token_id: int) -> list[ModelMerge]:
        """Every merge whose result is this id, in rank order ([] for base symbols and
        tokens no merge makes)."""
        ...

    def pair_rank(self, left: int, right: int) -> int | None:
        """The rank at which these two adjacent ids merge when encoding, or None."""
        ...
