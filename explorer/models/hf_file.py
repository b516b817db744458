"""A tokenizer.json checked before anything is built: sizes, ids, merges, components.

Every problem is one FormatError sentence saying what and where ("t.json, model.merges[12]:
'xq' is not in model.vocab"). The limits come first, on the text and on the lengths of the
vocabulary and merge lists, so an oversized file costs no more than reading its JSON.

    >>> doc = ('{"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2},'
    ...        ' "merges": ["a b"]}, "added_tokens": [{"id": 3, "content": "<s>"}]}')
    >>> parts = read_hf_file(doc, "t.json")
    >>> list(parts.merges), parts.added
    ([ModelMerge(rank=0, left=0, right=1, result=2)], [AddedSpec(content='<s>', id=3)])
    >>> read_hf_file(doc.replace('"a b"', '"a q"'), "t.json")
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: t.json, model.merges[0]: 'q' is not in model.vocab
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from explorer.files.errors import FormatError
from explorer.files.json_text import MAX_JSON_DEPTH, depth_over
from explorer.files.limits import (
    MAX_FILE_BYTES,
    MAX_MERGES,
    MAX_SPECIAL_TOKENS,
    MAX_TOKEN_ID,
    MAX_VOCAB_SIZE,
    check_special_names,
    read_id,
    shown,
)
from explorer.models.hf_components import (
    check_post_processor,
    describe_decoder,
    describe_normalizer,
    describe_pre_tokenizer,
)
from explorer.models.merge_table import MergeTable, merges_from_names


@dataclass(frozen=True)
class AddedSpec:
    """An added token as the file lists it: its text and the id the file gives it."""

    content: str
    id: int


@dataclass(frozen=True)
class BpeOptions:
    """The BPE model's settings that change how a pre-token becomes symbols."""

    unk_token: str | None = None
    byte_fallback: bool = False
    fuse_unk: bool = False
    ignore_merges: bool = False
    continuing_subword_prefix: str = ""
    end_of_word_suffix: str = ""


@dataclass
class HfFile:
    """What the explorer keeps of a tokenizer.json (the library keeps the rest)."""

    root: dict[str, Any]  # the JSON without model.vocab and model.merges
    vocab: dict[str, int]
    merges: MergeTable
    added: list[AddedSpec]
    options: BpeOptions
    normalizer: str
    pre_tokenizer: str
    decoder: str


def read_hf_file(text: str, source: str) -> HfFile:
    """The file's parts, every check passed, or a FormatError saying what and where."""
    return check_hf_file(open_hf_file(text, source), source)


@dataclass
class HfDocument:
    """A tokenizer.json within the limits, its components known, its ids not yet read."""

    root: dict[str, Any]  # without model.vocab and model.merges
    vocab: dict[str, Any]
    merges: list[Any]
    added: list[Any]
    descriptions: tuple[str, str, str]  # normalizer, pre-tokenizer, decoder


def open_hf_file(text: str, source: str) -> HfDocument:
    """The limits first (bytes, then the counts of ids and merges), the components next:
    what a library may be asked to build once this has passed."""
    _check_file_size(text, source)
    root = load_json_fast(text, source)
    model, vocab, merges, added_items = _model_parts(root, source)
    rest = {**root, "model": {k: v for k, v in model.items() if k not in ("vocab", "merges")}}
    if depth_over(rest, MAX_JSON_DEPTH):
        raise FormatError(f"{source} nests lists or objects more than {MAX_JSON_DEPTH} deep")
    descriptions = (
        describe_normalizer(root.get("normalizer"), source),
        describe_pre_tokenizer(root.get("pre_tokenizer"), source),
        describe_decoder(root.get("decoder"), source),
    )
    check_post_processor(root.get("post_processor"), source)
    return HfDocument(rest, vocab, merges, added_items, descriptions)


def check_hf_file(document: HfDocument, source: str) -> HfFile:
    """Every id, added token and merge checked, and the merges as a table of ids."""
    options = _options(document.root["model"], source)
    vocab = document.vocab
    _check_ids(vocab, source)
    added = _added(document.added, vocab, source)
    table = merges_from_names(document.merges, vocab, options.continuing_subword_prefix, source)
    return HfFile(document.root, vocab, table, added, options, *document.descriptions)


def _check_file_size(text: str, source: str) -> None:
    size = len(text) if len(text) > MAX_FILE_BYTES else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        raise FormatError(
            f"{source} is {size:,} bytes; the explorer reads tokenizer files of up to "
            f"{MAX_FILE_BYTES:,} bytes (Gemma 3's tokenizer.json is 33 MB)"
        )


def _model_parts(
    root: Any, source: str
) -> tuple[dict[str, Any], dict[str, Any], list[Any], list[Any]]:
    """The BPE model, its vocabulary and merges, and the added tokens, each of the right
    shape and within the limits (counted before any is read)."""
    model = _object(root.get("model") if isinstance(root, dict) else root, source, "model")
    if model.get("type") != "BPE":
        raise FormatError(
            f"{source}, model.type: the model is {shown(model.get('type'))}, a kind the explorer "
            "does not know (it reads BPE models)"
        )
    vocab = _object(model.get("vocab"), source, "model.vocab")
    merges = model.get("merges")
    if not isinstance(merges, list):
        raise FormatError(f"{source}, model.merges: expected a JSON array, got {shown(merges)}")
    added = root.get("added_tokens") or []
    if not isinstance(added, list):
        raise FormatError(f"{source}, added_tokens: expected a list, got {shown(added)}")
    if len(vocab) > MAX_VOCAB_SIZE or len(added) > MAX_SPECIAL_TOKENS:
        raise FormatError(
            f"{source} holds {len(vocab):,} vocabulary entries and {len(added):,} added tokens; "
            f"the explorer reads up to {MAX_VOCAB_SIZE:,} ids (Gemma 3 has 262,145) and "
            f"{MAX_SPECIAL_TOKENS:,} added tokens"
        )
    if len(merges) > MAX_MERGES:
        raise FormatError(
            f"{source} lists {len(merges):,} merges; the explorer reads up to {MAX_MERGES:,} "
            "(Gemma 3 lists 514,906)"
        )
    return model, vocab, merges, added


def load_json_fast(text: str, source: str) -> Any:
    """json.loads without NaN or Infinity. The shared `load_json` also walks every value
    for its depth and checks every number as it is read: 2 s more on Gemma 3's file. Here
    ids are checked where they are used (`read_id`), the vocabulary and merges by their
    shape, and only the rest of the document is walked for depth."""
    try:
        return json.loads(text.removeprefix("\ufeff"), parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise FormatError(
            f"{source}, line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg}); "
            "is the file cut short?"
        ) from None
    except _BadNumber as exc:
        raise FormatError(f"{source}: {exc}") from None
    except ValueError:  # Python's int() refuses numbers of more than 4,300 digits
        raise FormatError(f"{source}: a number of thousands of digits, far past any id") from None
    except RecursionError:
        raise FormatError(
            f"{source} nests lists or objects more than {MAX_JSON_DEPTH} deep"
        ) from None


class _BadNumber(ValueError):
    pass


def _constant(name: str) -> Any:
    raise _BadNumber(f"{name} is not a number JSON allows")


def _options(model: dict[str, Any], source: str) -> BpeOptions:
    dropout = model.get("dropout")
    if dropout not in (None, 0, 0.0):
        raise FormatError(
            f"{source}, model.dropout: {shown(dropout)} makes encoding random; the explorer "
            "reads BPE models without dropout"
        )
    texts = {}
    for key in ("unk_token", "continuing_subword_prefix", "end_of_word_suffix"):
        value = model.get(key)
        if value is not None and not isinstance(value, str):
            raise FormatError(f"{source}, model.{key}: expected a string, got {shown(value)}")
        texts[key] = value
    return BpeOptions(
        unk_token=texts["unk_token"],
        byte_fallback=model.get("byte_fallback") is True,
        fuse_unk=model.get("fuse_unk") is True,
        ignore_merges=model.get("ignore_merges") is True,
        continuing_subword_prefix=texts["continuing_subword_prefix"] or "",
        end_of_word_suffix=texts["end_of_word_suffix"] or "",
    )


def _check_ids(vocab: dict[str, Any], source: str) -> None:
    """Every vocabulary id a whole number in range, none used twice (checked in C first;
    the loop below only runs to name the culprit)."""
    numbers = vocab.values()
    whole = set(map(type, numbers)) <= {int} and len(set(numbers)) == len(vocab)
    if whole and (not vocab or (min(numbers) >= 0 and max(numbers) <= MAX_TOKEN_ID)):
        return
    seen: dict[int, str] = {}
    for token, number in vocab.items():
        if type(number) is not int or not 0 <= number <= MAX_TOKEN_ID:
            where = f"{source}, model.vocab[{shown(token)}]"
            read_id(number if isinstance(number, (int, str)) else -1, where)
        if number in seen:
            raise FormatError(
                f"{source}, model.vocab: id {number:,} is used twice, by {shown(seen[number])} "
                f"and {shown(token)}"
            )
        seen[number] = token


def _added(items: list[Any], vocab: dict[str, int], source: str) -> list[AddedSpec]:
    """The added tokens; one whose text is in model.vocab must keep that id, and no id is
    used by two different tokens."""
    by_id = {number: token for token, number in vocab.items()}
    added: list[AddedSpec] = []
    for index, item in enumerate(items):
        where = f"{source}, added_tokens[{index}]"
        content = item.get("content") if isinstance(item, dict) else None
        if not isinstance(content, str) or not content:
            raise FormatError(f"{where}: expected an object with a non-empty 'content' string")
        raw = item.get("id")
        token_id = read_id(raw if isinstance(raw, (int, str)) else -1, f"{where}.id")
        if content in vocab and vocab[content] != token_id:
            raise FormatError(
                f"{where}: {shown(content)} has id {token_id:,}, but model.vocab gives it "
                f"id {vocab[content]:,}"
            )
        if by_id.get(token_id, content) != content:
            raise FormatError(
                f"{where}: id {token_id:,} is used twice, by {shown(content)} and "
                f"{shown(by_id[token_id])}"
            )
        by_id[token_id] = content
        added.append(AddedSpec(content, token_id))
    check_special_names([spec.content for spec in added], source)
    if len(by_id) > MAX_VOCAB_SIZE:
        raise FormatError(
            f"{source} holds {len(by_id):,} ids with its added tokens; the explorer reads up "
            f"to {MAX_VOCAB_SIZE:,} (Gemma 3 has 262,145)"
        )
    return added


def _object(value: Any, source: str, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FormatError(f"{source}, {where}: expected a JSON object, got {shown(value)}")
    return value
