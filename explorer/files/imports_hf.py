"""Read a Hugging Face `tokenizer.json` that holds a byte-level BPE model.

Byte-level BPE as GPT-2, Llama 3 or Qwen write it: model.type BPE with its vocab and
merges in GPT-2's byte-to-character mapping, and a ByteLevel pre-tokenizer (alone, or
after one Split regex). A file that changes the text (a normalizer, add_prefix_space) or
is another kind of model (WordPiece, Unigram, SentencePiece-style BPE) is refused with
a FormatError naming the JSON path. The post-processor (a BOS token added in front) is
not part of encoding here and is ignored.

Vocabulary entries past the merges that are not added tokens are kept as tokens outside
the merge path: with `ignore_merges` a pre-token that is exactly one encodes to it, as
Hugging Face looks the whole pre-token up in the vocabulary before merging; without it,
no text yields them, but decoding knows them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import regex

from explorer.base.byte_map import unicode_to_bytes
from explorer.encoding.pretokenize import GPT2_PATTERN
from explorer.encoding.tokenizer import Tokenizer
from explorer.files.errors import FormatError
from explorer.files.imports import byte_level_parts, make_tokenizer, recover_merges
from explorer.files.json_text import load_json
from explorer.files.limits import check_group_depth, check_ranked_bytes, read_id, shown


def parse_tokenizer_json(text: str, *, source: str = "tokenizer.json") -> Tokenizer:
    """Byte-level BPE only: model.type BPE, a ByteLevel pre-tokenizer, no normalizer.

    Errors name the JSON path, as `model.merges[3]`. Added tokens become special tokens.
    """
    root = load_json(text, source)
    model = _field(root, "model", dict, source)
    kind = model.get("type")
    if kind != "BPE":
        raise FormatError(
            f"{source}, model.type: not a byte-level BPE model (model.type is {shown(kind)}, "
            "and only 'BPE' with a ByteLevel pre-tokenizer can be read)"
        )
    pattern = _hf_pattern(root.get("pre_tokenizer"), source)
    _check_unchanged_text(root.get("normalizer"), model, source)
    vocab = _field(model, "vocab", dict, source, "model")
    pairs = [
        _hf_merge(item, f"{source}, model.merges[{k}]")
        for k, item in enumerate(_field(model, "merges", list, source, "model"))
    ]
    merges, byte_ids, extra = byte_level_parts(
        vocab,
        pairs,
        vocab_where=f"{source}, model.vocab",
        where=lambda k: f"{source}, model.merges[{k}]",
    )
    specials = _added_tokens(root.get("added_tokens") or [], source)
    ignore_merges = bool(model.get("ignore_merges"))
    outside = _outside_entries(extra, specials, source)
    tokenizer = make_tokenizer(
        merges, pattern, specials, byte_ids, source, outside=outside, encode_outside=ignore_merges
    )
    if ignore_merges:
        _check_merges_are_bpe(tokenizer, source)
    return tokenizer


def _outside_entries(
    extra: dict[str, int], specials: dict[str, int], source: str
) -> dict[int, bytes]:
    """The vocabulary entries past the merges that are not added tokens, as id -> bytes.

    >>> _outside_entries({"xyz": 300, "<|end|>": 301}, {"<|end|>": 301}, "t.json")
    {300: b'xyz'}
    """
    to_byte = unicode_to_bytes()
    outside: dict[int, bytes] = {}
    for token, number in extra.items():
        if specials.get(token) == number:
            continue  # an added token also listed in the vocabulary, as in GPT-2's file
        if token in specials:
            raise FormatError(
                f"{source}, model.vocab[{shown(token)}]: id {number}, but added_tokens gives "
                f"it id {specials[token]}"
            )
        unknown = [char for char in token if char not in to_byte]
        if unknown or not token:
            raise FormatError(
                f"{source}, model.vocab[{shown(token)}]: id {number} is past the merges and not "
                f"an added token, and {shown(''.join(unknown[:3]))} is not one of GPT-2's byte "
                "characters, so no byte-level text is this token"
            )
        outside[number] = bytes(to_byte[char] for char in token)
    return outside


def _hf_pattern(pre: Any, source: str) -> str:
    """The split pattern of ByteLevel alone, or of one Split followed by ByteLevel."""
    path = "pre_tokenizer"
    steps = pre.get("pretokenizers", []) if isinstance(pre, dict) else []
    if isinstance(pre, dict) and pre.get("type") != "Sequence":
        steps = [pre]
    if not isinstance(steps, list) or not all(isinstance(step, dict) for step in steps):
        raise FormatError(
            f"{source}, {path}: expected a pre-tokenizer object or a Sequence of them, "
            f"got {shown(pre)}"
        )
    kinds = [step.get("type") if isinstance(step, dict) else step for step in steps]
    if "ByteLevel" not in kinds:
        raise FormatError(
            f"{source}, {path}: not a byte-level BPE model (no ByteLevel pre-tokenizer; "
            f"found {shown(kinds) if kinds else 'none'})"
        )
    byte_level = steps[-1]
    if kinds[-1] != "ByteLevel" or kinds.count("ByteLevel") > 1:
        raise FormatError(
            f"{source}, {path}: ByteLevel must come last, once (found {shown(kinds)})"
        )
    if byte_level.get("add_prefix_space"):
        raise FormatError(
            f"{source}, {path}: add_prefix_space is true, which adds a space to the text; "
            "this explorer never changes text"
        )
    use_regex = byte_level.get("use_regex", True)
    if kinds == ["ByteLevel"]:
        return GPT2_PATTERN if use_regex else ""
    if kinds != ["Split", "ByteLevel"] or use_regex:
        raise FormatError(
            f"{source}, {path}: only ByteLevel alone, or one Split then ByteLevel with "
            f"use_regex false, can be read (found {shown(kinds)}, use_regex {shown(use_regex)})"
        )
    return _split_pattern(steps[0], source, f"{path}.pretokenizers[0]")


def _split_pattern(split: dict[str, Any], source: str, path: str) -> str:
    if split.get("behavior") != "Isolated" or split.get("invert"):
        raise FormatError(
            f"{source}, {path}: Split must have behavior Isolated and invert false "
            f"(found {shown(split.get('behavior'))}, {shown(split.get('invert'))})"
        )
    pattern = split.get("pattern")
    if isinstance(pattern, dict) and isinstance(pattern.get("Regex"), str):
        check_group_depth(pattern["Regex"], f"{source}, {path}.pattern.Regex")
        return onig_to_python(pattern["Regex"])
    if isinstance(pattern, dict) and isinstance(literal := pattern.get("String"), str):
        return regex.escape(literal)
    raise FormatError(f'{source}, {path}.pattern: expected {{"Regex": ...}}, got {shown(pattern)}')


def _check_unchanged_text(normalizer: Any, model: dict[str, Any], source: str) -> None:
    if normalizer and normalizer != {"type": "Sequence", "normalizers": []}:
        kind = normalizer.get("type") if isinstance(normalizer, dict) else normalizer
        raise FormatError(
            f"{source}, normalizer: {shown(kind)} changes the text "
            "before encoding; this explorer never changes text, so it cannot read this model"
        )
    for option in ("dropout", "continuing_subword_prefix", "end_of_word_suffix", "byte_fallback"):
        if model.get(option):
            raise FormatError(
                f"{source}, model.{option}: {shown(model[option])} is not supported (byte-level "
                "BPE here has no dropout, prefixes, suffixes or byte fallback)"
            )


def _hf_merge(item: Any, where: str) -> tuple[str, str]:
    """A merge as "a b" (older files) or ["a", "b"] (newer ones)."""
    parts = item.split(" ") if isinstance(item, str) else item
    if isinstance(parts, list) and len(parts) == 2 and all(isinstance(p, str) for p in parts):
        return parts[0], parts[1]
    raise FormatError(f'{where}: expected "LEFT RIGHT" or ["LEFT", "RIGHT"], got {shown(item)}')


def _added_tokens(items: Any, source: str) -> dict[str, int]:
    specials: dict[str, int] = {}
    if not isinstance(items, list):
        raise FormatError(f"{source}, added_tokens: expected a list, got {shown(items)}")
    for index, item in enumerate(items):
        path = f"added_tokens[{index}]"
        content = _field(item, "content", str, source, path)
        specials[content] = read_id(_field(item, "id", int, source, path), f"{source}, {path}.id")
        for flag in ("lstrip", "rstrip", "single_word"):
            if item.get(flag):
                raise FormatError(
                    f"{source}, {path}.{flag}: true is not supported (it strips or skips text "
                    "around the token)"
                )
    return specials


def _check_merges_are_bpe(tokenizer: Tokenizer, source: str) -> None:
    """With ignore_merges, a word in the vocabulary is one token: true only if BPE makes it."""
    tokens = [tokenizer.vocab[i] for i in range(tokenizer.vocab_size)]
    check_ranked_bytes(tokens, source)
    recovered = recover_merges(tokens, where=lambda k: f"{source}, model.merges[{k - 256}]")
    for k, (pair, bpe_pair) in enumerate(zip(tokenizer.merges, recovered)):
        if pair != bpe_pair:
            raise FormatError(
                f"{source}, model.merges[{k}]: with ignore_merges true this model encodes a "
                "word in its vocabulary as one token, but BPE builds "
                f"{shown(tokens[256 + k])} from {bpe_pair}, not {pair}, so the two disagree"
            )


def _field(obj: Any, key: str, kind: type, source: str, path: str = "") -> Any:
    """obj[key], which must be of type `kind`; the error names the JSON path, as model.vocab."""
    value = obj.get(key) if isinstance(obj, dict) else None
    if type(value) is not kind:
        where = f"{path}.{key}" if path else key
        raise FormatError(f"{source}, {where}: expected {_JSON_NAMES[kind]}, got {shown(value)}")
    return value


_JSON_NAMES = {dict: "a JSON object", list: "a JSON array", str: "a string", int: "an integer"}


# --- Oniguruma's dialect: X{m,n}+ means (X{m,n})+ there, but possessive X{m,n} here --------

_INTERVAL = regex.compile(r"\{[0-9]+(?:,[0-9]*)?\}")


def python_to_onig(pattern: str) -> str:
    r"""Our pattern as Hugging Face's regex engine (Oniguruma) reads it the same way.

    >>> python_to_onig(r"'s|\p{N}{1,3}+|\s+")
    "'s|(?>\\p{N}{1,3})|\\s+"
    """
    return _rewrite_intervals(pattern, lambda atom, interval: f"(?>{atom}{interval})")


def onig_to_python(pattern: str) -> str:
    r"""An Oniguruma pattern as the `regex` module reads it the same way.

    >>> onig_to_python(r"\d{2}+|(?>\p{N}{1,3})")
    '(?:\\d{2})+|\\p{N}{1,3}+'
    """
    return _rewrite_intervals(pattern, lambda atom, interval: f"(?:{atom}{interval})+", True)


def _rewrite_intervals(
    pattern: str, rewrite: Callable[[str, str], str], unwrap_atomic: bool = False
) -> str:
    """Rewrite each `ATOM{m,n}+`; with unwrap_atomic, `(?>ATOM{m,n})` becomes `ATOM{m,n}+`."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        end = _atom_end(pattern, i)
        atom = pattern[i:end]
        if atom.startswith("(") and atom.endswith(")") and len(atom) > 1:
            inner = _rewrite_intervals(atom[1:-1], rewrite, unwrap_atomic)
            unwrapped = _unwrapped(inner) if unwrap_atomic else None
            atom = unwrapped or f"({inner})"
        interval = _INTERVAL.match(pattern, end)
        if interval and pattern.startswith("+", interval.end()):
            out.append(rewrite(atom, interval.group()))
            i = interval.end() + 1
        else:
            out.append(atom)
            i = end
    return "".join(out)


def _unwrapped(inner: str) -> str | None:
    """`?>ATOM{m,n}` (the inside of an atomic group) as `ATOM{m,n}+`; else None."""
    if not inner.startswith("?>") or len(inner) < 3:
        return None
    end = _atom_end(inner, 2)
    interval = _INTERVAL.fullmatch(inner, end)
    return f"{inner[2:]}+" if interval else None


def _atom_end(pattern: str, i: int) -> int:
    """Where the atom at i ends: an escape, a [class], a (group), or one character."""
    char = pattern[i]
    if char == "\\":
        if pattern[i + 1 : i + 2] in ("p", "P", "x", "N") and pattern[i + 2 : i + 3] == "{":
            return pattern.find("}", i) + 1 or len(pattern)
        return min(i + 2, len(pattern))
    if char == "[":
        return _class_end(pattern, i)
    if char != "(":
        return i + 1
    depth, j = 0, i
    while j < len(pattern):
        if pattern[j] == "\\":
            j += 2
            continue
        if pattern[j] == "[":
            j = _class_end(pattern, j)
            continue
        depth += {"(": 1, ")": -1}.get(pattern[j], 0)
        j += 1
        if depth == 0:
            return j
    return len(pattern)


def _class_end(pattern: str, i: int) -> int:
    """Just past the `]` closing the class at i (a `]` first in the class is literal)."""
    j = i + 1
    if pattern[j : j + 1] == "^":
        j += 1
    if pattern[j : j + 1] == "]":
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return min(j + 1, len(pattern))
