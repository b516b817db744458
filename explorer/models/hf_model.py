"""Any BPE tokenizer.json (Llama 3, Qwen 3, DeepSeek-V3, Gemma 3, Llama 2, …) as a LoadedModel.

Encoding, decoding and normalising are the `tokenizers` library's own (`Tokenizer.from_str`),
so ids are exactly its ids. The explorer adds what the library cannot show: the trace
(every merge applied to each pre-token, in the library's order, with its rank, replayed by
`explorer.models.hf_bpe`) and each token's makers. The file is checked first
(`explorer.models.hf_file`): a bad one gets one sentence and nothing is half-loaded.

    >>> import json
    >>> doc = {"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "abab": 3},
    ...        "merges": ["a b", "ab ab"]}, "added_tokens": [{"id": 4, "content": "<s>",
    ...        "special": True, "normalized": False, "single_word": False, "lstrip": False,
    ...        "rstrip": False}]}
    >>> model = read_tokenizer_json(json.dumps(doc))
    >>> model.encode("abab<s>ab")
    [3, 4, 2]
    >>> [[step.merge.rank for step in chunk.steps] for chunk in model.trace("abab<s>ab").chunks]
    [[0, 0, 1], [], [0]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property

from tokenizers import Tokenizer

from explorer.base.byte_map import unicode_to_bytes
from explorer.files.errors import FormatError
from explorer.files.limits import shown
from explorer.models.hf_bpe import BpeModel, WordCache
from explorer.models.hf_components import is_byte_level, split_pattern
from explorer.models.hf_config import add_config_tokens
from explorer.models.hf_file import HfFile, check_hf_file, open_hf_file
from explorer.models.hf_splits import Splitter
from explorer.models.merge_table import MergeTable
from explorer.models.model import BaseSymbols, ChunkTrace, ModelMerge, ModelTrace

_BYTE_TOKEN_LENGTH = len("<0x41>")
_BYTE_MAP = unicode_to_bytes()  # GPT-2's characters -> bytes ('Ġ' -> 32)


def read_tokenizer_json(
    text: str, *, name: str = "tokenizer.json", config_text: str | None = None
) -> HfModel:
    """The model in a tokenizer.json's text, with the added tokens of its
    tokenizer_config.json when given; FormatError (one sentence) for a bad file."""
    text = text.removeprefix("\ufeff")  # a byte-order mark the library would refuse
    document = open_hf_file(text, name)  # the limits, before anything is built
    with ThreadPoolExecutor(max_workers=1) as pool:
        # subtle: the library builds while the ids and merges are checked here (from_str
        # releases the GIL); if a check fails, leaving the block waits for it and drops it
        building = pool.submit(_library, text, name)
        parts = check_hf_file(document, name)
        del document  # the merges as JSON lists (Gemma 3's ~100 MB) go before the wait
        library = building.result()
    _check_library_ids(library, parts, name)
    if config_text is not None:
        add_config_tokens(library, config_text, "tokenizer_config.json")
    return HfModel(name, parts, library)


def _library(text: str, name: str) -> Tokenizer:
    """The `tokenizers` library's reading of the file, or its complaint in one sentence."""
    try:
        return Tokenizer.from_str(text)
    except BaseException as exc:
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        # subtle: a Rust panic reaches Python as pyo3's PanicException, a BaseException
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise FormatError(
            f"{name}: the tokenizers library cannot read it ({shown(first)})"
        ) from None


class HfModel:
    """A tokenizer.json read through `tokenizers` (see the module docstring).

    Beyond `LoadedModel`: `pre_tokenizer` and `decoder` describe those components in plain
    words, `library` is the `tokenizers.Tokenizer` itself, and `decode` takes
    `skip_special_tokens` (False by default: the text comes back whole).
    """

    file_kind = "tokenizer.json"

    def __init__(self, name: str, parts: HfFile, library: Tokenizer) -> None:
        self.name = name
        self.library = library
        self._parts = parts
        root = parts.root
        self.base: BaseSymbols = (
            "bytes" if is_byte_level(root.get("pre_tokenizer"), name) else "characters"
        )
        self.merges: MergeTable = parts.merges
        self.normalizer = parts.normalizer
        self.pre_tokenizer = parts.pre_tokenizer
        self.decoder = parts.decoder
        self.pattern = split_pattern(root.get("pre_tokenizer"), name)
        self.special_tokens: Mapping[str, int] = {
            token.content: token_id
            for token_id, token in sorted(library.get_added_tokens_decoder().items())
        }
        self._bpe = BpeModel(parts.vocab, parts.merges, parts.options)
        self._words = WordCache()

    @cached_property
    def tokens(self) -> Mapping[int, str]:
        """id -> the token as the file writes it, added tokens included."""
        tokens = {token_id: token for token, token_id in self._parts.vocab.items()}
        tokens.update((token_id, token) for token, token_id in self.special_tokens.items())
        return tokens

    @property
    def vocab_size(self) -> int:
        return len(self.tokens)

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes this id stands for in decoded text: GPT-2's characters undone for a
        byte-level model; '▁' as a space and `<0xAB>` as its byte otherwise."""
        token = self.tokens[token_id]
        if token in self.special_tokens:
            return token.encode("utf-8")
        if self.base == "bytes":
            to_byte = _BYTE_MAP
            if all(char in to_byte for char in token):
                return bytes(to_byte[char] for char in token)
            return token.encode("utf-8")
        if len(token) == _BYTE_TOKEN_LENGTH and token.startswith("<0x") and token.endswith(">"):
            try:
                return bytes([int(token[3:5], 16)])
            except ValueError:
                pass
        return token.replace("\u2581", " ").encode("utf-8")

    def normalize(self, text: str) -> str:
        """The text the model sees after its normalizer (added tokens are never normalised
        unless the file says so); the text itself when there is no normalizer."""
        if self.library.normalizer is None:
            return text
        return self._splitter.normalized(text)

    def encode(self, text: str, *, add_special_tokens: bool = False) -> list[int]:
        """The library's ids; add_special_tokens=True adds what its post-processor adds (BOS)."""
        return self.library.encode(text, add_special_tokens=add_special_tokens).ids  # a new list

    def encode_batch(self, texts: Sequence[str]) -> list[list[int]]:
        """The library's ids for many texts at once (its own threads)."""
        encodings = self.library.encode_batch(list(texts), add_special_tokens=False)
        return [list(encoding.ids) for encoding in encodings]

    def decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str:
        """The library's decode; special tokens are kept unless asked to skip them."""
        unknown = [token_id for token_id in ids if token_id not in self.tokens]
        if unknown:
            raise ValueError(f"{self.name} has no token with id {unknown[0]}")
        return str(self.library.decode(list(ids), skip_special_tokens=skip_special_tokens))

    def trace(self, text: str) -> ModelTrace:
        """Every pre-token's merges, in the order the library applies them."""
        chunks: list[ChunkTrace] = []
        step = 1
        for piece in self._splitter.pieces(text):
            if piece.added_id is not None:
                ids = (piece.added_id,)
                chunks.append(ChunkTrace(piece.text, ids, (), ids, whole=True))
                continue
            run = self._words.replay(piece.text, self._bpe, step)
            step += len(run.steps)
            shown_text = self._readable(piece.text)
            chunks.append(
                ChunkTrace(shown_text, run.start_ids, run.steps, run.final_ids, run.whole)
            )
        return ModelTrace(text, self.normalize(text), tuple(chunks))

    def makers(self, token_id: int) -> list[ModelMerge]:
        """Every merge whose result is this id, in rank order."""
        return self.merges.makers(token_id)

    def pair_rank(self, left: int, right: int) -> int | None:
        """The rank at which the library merges these two adjacent ids, or None."""
        return self.merges.rank_of(left, right)

    @cached_property
    def _splitter(self) -> Splitter:
        return Splitter(self.library)

    def _readable(self, word: str) -> str:
        """A pre-token as text: GPT-2's byte characters undone for a byte-level model."""
        if self.base != "bytes":
            return word
        to_byte = _BYTE_MAP
        if not all(char in to_byte for char in word):
            return word
        return bytes(to_byte[char] for char in word).decode("utf-8", "replace")


def _check_library_ids(library: Tokenizer, parts: HfFile, name: str) -> None:
    """Each added token must have, in the library, the id the file gives it: the library
    numbers an added token missing from model.vocab from the vocabulary's end, whatever
    the file says, and the explorer will not show ids the library does not use."""
    for index, spec in enumerate(parts.added):
        got = library.token_to_id(spec.content)
        if got != spec.id:
            raise FormatError(
                f"{name}, added_tokens[{index}]: {shown(spec.content)} says id {spec.id:,}, but "
                f"the tokenizers library gives it id {got} (an added token missing from "
                "model.vocab takes the next id after it)"
            )
