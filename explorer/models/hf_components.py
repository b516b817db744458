"""A tokenizer.json's normalizer, pre-tokenizer, decoder and post-processor: named, described.

The `tokenizers` library runs every component; the explorer only walks their JSON so that
a page can say what changes the text ("NFC", "Prepend('▁'), Replace(' ', '▁')") and so
that a component it does not know gets one sentence naming it, before the library is asked.

    >>> describe_normalizer({"type": "Sequence", "normalizers": [
    ...     {"type": "Prepend", "prepend": "▁"},
    ...     {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]}, "t.json")
    "Prepend('▁'), Replace(' ', '▁')"
    >>> describe_pre_tokenizer({"type": "Foo"}, "t.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: t.json uses the pre-tokenizer 'Foo', which the ...
"""

from __future__ import annotations

from typing import Any

from explorer.encoding.pretokenize import GPT2_PATTERN
from explorer.files.errors import FormatError
from explorer.files.imports_hf import onig_to_python
from explorer.files.limits import check_group_depth, shown

# the library's own components (tokenizers 0.23), those issue 34 lists and their near kin
NORMALIZERS = frozenset(
    [
        "NFC",
        "NFD",
        "NFKC",
        "NFKD",
        "Lowercase",
        "Replace",
        "Prepend",
        "Strip",
        "StripAccents",
        "Sequence",
        "BertNormalizer",
        "Nmt",
        "Precompiled",
        "ByteLevel",
    ]
)
PRE_TOKENIZERS = frozenset(
    [
        "Sequence",
        "Split",
        "ByteLevel",
        "Metaspace",
        "Digits",
        "Punctuation",
        "Whitespace",
        "WhitespaceSplit",
        "BertPreTokenizer",
        "CharDelimiterSplit",
        "UnicodeScripts",
        "FixedLength",
    ]
)
DECODERS = frozenset(
    [
        "ByteLevel",
        "Metaspace",
        "ByteFallback",
        "Fuse",
        "Strip",
        "Replace",
        "Sequence",
        "WordPiece",
        "BPEDecoder",
        "CTC",
    ]
)
POST_PROCESSORS = frozenset(
    ["TemplateProcessing", "ByteLevel", "BertProcessing", "RobertaProcessing", "Sequence"]
)
_NESTED = {"normalizer": "normalizers", "pre-tokenizer": "pretokenizers", "decoder": "decoders"}
_NESTED_POST = "processors"
MAX_COMPONENTS = 64  # components in one Sequence tree; real files have at most 5


def describe_normalizer(value: Any, source: str) -> str:
    """ "" when there is none (or an empty Sequence), else the steps in plain words."""
    return ", ".join(_describe(step) for step in _steps(value, "normalizer", NORMALIZERS, source))


def describe_pre_tokenizer(value: Any, source: str) -> str:
    """The pre-tokenizer steps, as "Split(r'\\p{N}{1,3}', Isolated), ByteLevel"."""
    steps = _steps(value, "pre-tokenizer", PRE_TOKENIZERS, source)
    for index, step in enumerate(steps):
        regex = _regex(step)
        if regex is not None:
            check_group_depth(regex, f"{source}, pre-tokenizer {index + 1} (Split)")
    return ", ".join(_describe(step) for step in steps)


def describe_decoder(value: Any, source: str) -> str:
    """The decoder steps, as "Replace('▁', ' '), ByteFallback, Fuse"."""
    return ", ".join(_describe(step) for step in _steps(value, "decoder", DECODERS, source))


def check_post_processor(value: Any, source: str) -> None:
    """Refuse a post-processor the explorer does not know (it only runs when asked to add
    special tokens, as BOS)."""
    _steps(value, "post-processor", POST_PROCESSORS, source, _NESTED_POST)


def is_byte_level(pre_tokenizer: Any, source: str) -> bool:
    """Whether the pre-tokenizer maps bytes to GPT-2's characters (the base symbols are bytes)."""
    steps = _steps(pre_tokenizer, "pre-tokenizer", PRE_TOKENIZERS, source)
    return any(step.get("type") == "ByteLevel" for step in steps)


def split_pattern(pre_tokenizer: Any, source: str) -> str:
    r"""The pre-tokenizer as one regex in Python `regex` syntax when it is one (ByteLevel with
    its own regex, or one Split of a regex with ByteLevel after it), else its description.

    >>> split_pattern({"type": "Sequence", "pretokenizers": [
    ...     {"type": "Split", "pattern": {"Regex": r"\p{N}{1,3}+"}, "behavior": "Isolated"},
    ...     {"type": "ByteLevel", "use_regex": False}]}, "t.json")
    '(?:\\p{N}{1,3})+'
    """
    steps = _steps(pre_tokenizer, "pre-tokenizer", PRE_TOKENIZERS, source)
    kinds = [step.get("type") for step in steps]
    if kinds == ["ByteLevel"] and steps[0].get("use_regex", True):
        return GPT2_PATTERN
    isolated = steps[:1] and steps[0].get("behavior") == "Isolated" and not steps[0].get("invert")
    byte_level_plain = kinds[1:] == ["ByteLevel"] and not steps[1].get("use_regex", True)
    regex = _regex(steps[0]) if steps and isolated and byte_level_plain else None
    if regex is not None:
        return onig_to_python(regex)
    return describe_pre_tokenizer(pre_tokenizer, source)


def _steps(
    value: Any, role: str, known: frozenset[str], source: str, nested: str | None = None
) -> list[dict[str, Any]]:
    """The components of `value` in order, Sequences flattened, without recursion; each known."""
    key = nested or _NESTED.get(role, "")
    pending, steps = [value], []
    while pending:
        item = pending.pop(0)
        if item is None:
            continue
        kind = item.get("type") if isinstance(item, dict) else None
        if not isinstance(kind, str):
            raise FormatError(
                f"{source}: a {role} must be an object with a type, got {shown(item)}"
            )
        if kind not in known:
            raise FormatError(
                f"{source} uses the {role} {shown(kind)}, which the explorer does not know"
            )
        if kind == "Sequence":
            inner = item.get(key)
            if not isinstance(inner, list):
                raise FormatError(f"{source}: a {role} Sequence needs a list {key!r}")
            pending[:0] = inner
        else:
            steps.append(item)
        if len(steps) + len(pending) > MAX_COMPONENTS:
            raise FormatError(f"{source}: its {role} has more than {MAX_COMPONENTS} parts")
    return steps


def _regex(step: dict[str, Any]) -> str | None:
    pattern = step.get("pattern") if step.get("type") == "Split" else None
    regex = pattern.get("Regex") if isinstance(pattern, dict) else None
    return regex if isinstance(regex, str) else None


def _describe(step: dict[str, Any]) -> str:
    """One component in plain words: its type and the settings that change the text."""
    kind = str(step["type"])
    if kind == "Replace":
        pattern = step.get("pattern")
        found = next(iter(pattern.values()), "") if isinstance(pattern, dict) else pattern
        return f"Replace({shown(found)}, {shown(step.get('content'))})"
    if kind == "Prepend":
        return f"Prepend({shown(step.get('prepend'))})"
    if kind == "Split":
        pattern = step.get("pattern")
        found = next(iter(pattern.values()), "") if isinstance(pattern, dict) else pattern
        invert = ", invert" if step.get("invert") else ""
        return f"Split({shown(found)}, {step.get('behavior')}{invert})"
    if kind == "Metaspace":
        return f"Metaspace({shown(step.get('replacement'))}, {step.get('prepend_scheme')})"
    if kind == "ByteLevel" and step.get("add_prefix_space"):
        return "ByteLevel(add_prefix_space)"
    return kind
