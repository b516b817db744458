"""A `tokenizer_config.json` beside a tokenizer.json: the added tokens it brings, as
transformers' AutoTokenizer adds them.

AutoTokenizer adds each token of `added_tokens_decoder` (in id order) and each special
token it names (`bos_token`, `eos_token`, …, `additional_special_tokens`) that the
tokenizer does not have yet. Real files repeat the tokenizer.json's own added tokens, so
for them nothing changes; a token the config adds must land on the id it states.

    >>> import json
    >>> from tokenizers import Tokenizer
    >>> doc = {"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "added_tokens": []}
    >>> tokenizer = Tokenizer.from_str(json.dumps(doc))
    >>> config = '{"added_tokens_decoder": {"1": {"content": "<s>", "special": true}}}'
    >>> add_config_tokens(tokenizer, config, "tokenizer_config.json")
    >>> tokenizer.token_to_id("<s>")
    1
"""

from __future__ import annotations

from typing import Any

from tokenizers import AddedToken, Tokenizer

from explorer.files.errors import FormatError
from explorer.files.limits import MAX_SPECIAL_TOKENS, check_special_names, read_id, shown
from explorer.models.hf_file import load_json_fast

SPECIAL_FIELDS = (
    "bos_token",
    "eos_token",
    "unk_token",
    "sep_token",
    "pad_token",
    "cls_token",
    "mask_token",
)
FLAGS = ("single_word", "lstrip", "rstrip", "normalized", "special")


def add_config_tokens(tokenizer: Tokenizer, config_text: str, source: str) -> None:
    """Add the config's added and special tokens the tokenizer lacks; FormatError when one
    would get another id than the config states."""
    config = load_json_fast(config_text, source)
    if not isinstance(config, dict):
        raise FormatError(f"{source}: expected a JSON object, got {shown(config)}")
    listed = _listed(config.get("added_tokens_decoder") or {}, source)
    named = _named(config, source)
    check_special_names([token.content for _, token in listed] + named, source)
    have = {token.content for token in tokenizer.get_added_tokens_decoder().values()}
    for stated, token in listed:
        if token.content in have or tokenizer.token_to_id(token.content) is not None:
            _check_same_id(tokenizer, token.content, stated, source)
            continue
        tokenizer.add_tokens([token])
        _check_same_id(tokenizer, token.content, stated, source)
        have.add(token.content)
    new = [name for name in named if name not in have and tokenizer.token_to_id(name) is None]
    if new:
        tokenizer.add_special_tokens(list(dict.fromkeys(new)))


def _listed(items: Any, source: str) -> list[tuple[int, AddedToken]]:
    """added_tokens_decoder as (stated id, token), in id order."""
    where = f"{source}, added_tokens_decoder"
    if not isinstance(items, dict):
        raise FormatError(f"{where}: expected a JSON object, got {shown(items)}")
    if len(items) > MAX_SPECIAL_TOKENS:
        raise FormatError(
            f"{where}: {len(items):,} tokens; the explorer reads at most {MAX_SPECIAL_TOKENS:,}"
        )
    listed = []
    for key, spec in items.items():
        stated = read_id(key, f"{where}, key {shown(key)}")
        content = spec.get("content") if isinstance(spec, dict) else None
        if not isinstance(content, str) or not content:
            raise FormatError(f"{where}[{shown(key)}]: expected an object with a 'content' string")
        flags = {flag: spec.get(flag) is True for flag in FLAGS if flag in spec}
        listed.append((stated, AddedToken(content, **flags)))
    return sorted(listed, key=lambda item: item[0])


def _named(config: dict[str, Any], source: str) -> list[str]:
    """The special tokens the config names by role."""
    values = [config.get(field) for field in SPECIAL_FIELDS]
    extra = config.get("additional_special_tokens") or []
    if not isinstance(extra, list):
        raise FormatError(f"{source}, additional_special_tokens: expected a list")
    names = []
    for value in [*values, *extra]:
        text = value.get("content") if isinstance(value, dict) else value
        if isinstance(text, str) and text:
            names.append(text)
        elif text is not None:
            raise FormatError(f"{source}: a special token must be a string, got {shown(value)}")
    return names


def _check_same_id(tokenizer: Tokenizer, content: str, stated: int, source: str) -> None:
    got = tokenizer.token_to_id(content)
    if got != stated:
        raise FormatError(
            f"{source}, added_tokens_decoder[{stated}]: {shown(content)} has id {got:,} in "
            f"the tokenizer, not {stated:,}"
            if got is not None
            else f"{source}, added_tokens_decoder[{stated}]: {shown(content)} cannot be added"
        )
