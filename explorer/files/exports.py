"""Write a tokenizer for the libraries people already use: Hugging Face, tiktoken, GPT-2.

Each writer checks that the file will encode exactly as the tokenizer does, and raises
FormatError when it cannot (two tokens with the same bytes, or, for rank-only
`.tiktoken`, a merge BPE from ranks would not rebuild). Reading the file back with
`explorer.files.imports` / `explorer.files.imports_hf` gives the same tokenizer.

    >>> tok = Tokenizer([(97, 97), (256, 98)], pattern=r"\\w+|\\W", special_tokens=["<|end|>"])
    >>> print(tiktoken_text(tok).splitlines()[-1])
    YWFi 257
    >>> print(vocab_bpe(tok).splitlines()[-1])
    aa b
"""

from __future__ import annotations

import base64
import json
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Any

import regex

from explorer.base.byte_map import gpt2_chars
from explorer.encoding.pretokenize import preset_name
from explorer.encoding.tokenizer import Tokenizer
from explorer.files.errors import FormatError
from explorer.files.imports import merges_and_outside, recover_merges
from explorer.files.imports_hf import python_to_onig
from explorer.files.limits import check_ranked_bytes, check_vocab_size
from explorer.files.output_sizes import check_file_size, check_readable, least_json_bytes
from explorer.training.tie_rules import DEFAULT_TIE_RULE, TieRule, tie_rule_argument


def tokenizer_json(tokenizer: Tokenizer, *, tie_rule: TieRule | str | None = None) -> str:
    """A Hugging Face `tokenizer.json`: `tokenizers.Tokenizer.from_str(...)` encodes as we do.

    A tie rule other than the default (how training broke ties, see explorer.training.tie_rules)
    is kept as `model.tie_rule`, a key Hugging Face's BPE reader skips (its top level
    refuses unknown keys); the default adds nothing, so such files are as before.

    The pattern is a Split pre-tokenizer (matches and the gaps between them are pieces,
    as here), in Oniguruma's dialect, followed by ByteLevel without its own regex.
    Special tokens are added tokens, which Hugging Face always recognises, as
    `encode(..., allowed_special="all")` does here.
    They are in model.vocab too, as in GPT-2's own file: otherwise Hugging Face numbers
    added tokens on from the vocabulary's size, ignoring their ids.
    Tokens outside the merges are in model.vocab with their ids; when a pre-token that is
    exactly one encodes to it, `ignore_merges` is true, which makes Hugging Face do so.
    """
    _check_json_size(tokenizer, "a tokenizer.json")
    texts = _token_texts(tokenizer, "tokenizer.json")
    outside = {gpt2_chars(data): i for i, data in tokenizer.outside_merges.items()}
    vocab = _with_specials(texts, tokenizer.special_tokens, "tokenizer.json", outside)
    ignore_merges = bool(outside) and tokenizer.encode_outside
    if ignore_merges and not tokenizer.trained:
        _check_rebuilt_merges(tokenizer, [tokenizer.vocab[i] for i in range(len(texts))])
    byte_level = {
        "type": "ByteLevel",
        "add_prefix_space": False,
        "trim_offsets": True,
        "use_regex": False,
    }
    split = {
        "type": "Split",
        "pattern": {"Regex": _onig_pattern(tokenizer.pattern)},
        "behavior": "Isolated",
        "invert": False,
    }
    steps = [split, byte_level] if tokenizer.pattern else [byte_level]
    document: dict[str, Any] = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [_added_token(text, i) for text, i in tokenizer.special_tokens.items()],
        "normalizer": None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": steps},
        "post_processor": None,
        "decoder": {**byte_level, "add_prefix_space": True, "use_regex": True},
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": ignore_merges,
            "vocab": vocab,
            "merges": [[texts[left], texts[right]] for left, right in tokenizer.merges],
        },
    }
    if tie_rule is not None and tie_rule_argument(tie_rule) is not DEFAULT_TIE_RULE:
        document["model"]["tie_rule"] = tie_rule_argument(tie_rule).value
    text = json.dumps(document, ensure_ascii=False) + "\n"
    check_file_size(len(text.encode("utf-8")), "a tokenizer.json", built=True)
    if _is_custom(tokenizer.pattern):
        _check_same_ids(tokenizer, "tokenizer.json", "tokenizers", lambda: _huggingface_ids(text))
    return text


def tiktoken_text(tokenizer: Tokenizer) -> str:
    """A `.tiktoken` rank file: each token's bytes in base64 and its id as rank.

    It holds no pattern or special tokens: give tiktoken `tokenizer.pattern` and
    `tokenizer.special_tokens` beside it. From ranks alone, a reader rebuilds each merge
    by BPE on the token's bytes, so every merge must be the one BPE would rebuild (true
    of every trained tokenizer); otherwise this raises FormatError naming the merge.
    """
    check_vocab_size(tokenizer.vocab_size, "a .tiktoken of this tokenizer")
    tokens = _distinct_tokens(tokenizer, ".tiktoken")
    check_ranked_bytes(tokens, "a .tiktoken of this tokenizer")  # as parse_tiktoken reads it
    # subtle: BPE training applies merges in rank order, as encoding does, so a trained
    # tokenizer's merges are always the ones BPE rebuilds from ranks
    # (tests/engine/files/test_interop.py checks this on random texts). Rebuilding them costs
    # O(n log n) per token of n bytes, seconds for tokens 20,000 bytes long, so only
    # merge lists from elsewhere are checked.
    if tokenizer.outside_merges:
        tokens = _with_outside_ranks(tokenizer, tokens)
    elif not tokenizer.trained:
        _check_rebuilt_merges(tokenizer, tokens)
    lines = [
        f"{base64.b64encode(token).decode('ascii')} {rank}" for rank, token in enumerate(tokens)
    ]
    if _is_custom(tokenizer.pattern):
        _check_same_ids(
            tokenizer, ".tiktoken", "tiktoken", lambda: _tiktoken_ids(tokenizer, tokens)
        )
    return "\n".join(lines) + "\n"


def _check_rebuilt_merges(tokenizer: Tokenizer, tokens: list[bytes]) -> None:
    """FormatError unless BPE from the tokens' ranks alone rebuilds every merge."""
    for rank, (ours, rebuilt) in enumerate(zip(tokenizer.merges, recover_merges(tokens))):
        if ours != rebuilt:
            raise FormatError(
                f"merge {rank + 1} {ours} makes {tokens[256 + rank]!r}, but from ranks alone BPE "
                f"rebuilds it as {rebuilt}: in a .tiktoken file (or a tokenizer.json with "
                "ignore_merges) it would encode differently. Export tokenizer.json instead, "
                "which keeps the merges."
            )


def _with_outside_ranks(tokenizer: Tokenizer, tokens: list[bytes]) -> list[bytes]:
    """The ranks with the tokens outside the merges after them, read back as they are.

    A rank file yields such a token for a piece that is exactly it, and only when BPE
    cannot build it from two lower ranks (it would be a merge otherwise).
    """
    outside = tokenizer.outside_merges
    if not tokenizer.encode_outside:
        raise FormatError(
            "this tokenizer never encodes text to its tokens outside the merges (a "
            "tokenizer.json without ignore_merges), and a .tiktoken file would; export "
            "tokenizer.json instead"
        )
    if sorted(outside) != list(range(len(tokens), len(tokens) + len(outside))):
        raise FormatError(
            f"tokens outside the merges have ids {sorted(outside)[:5]}…, and a .tiktoken "
            f"file needs them right after the merges ({len(tokens)} on), with no gaps; "
            "export tokenizer.json instead"
        )
    ranked = tokens + [outside[i] for i in sorted(outside)]
    merges, rebuilt = merges_and_outside(ranked)
    if merges != tokenizer.merges or rebuilt.keys() != outside.keys():
        built = sorted(outside.keys() - rebuilt.keys())[:5] or "some merge"
        raise FormatError(
            f"from ranks alone BPE would build {built} from two lower ranks, so a .tiktoken "
            "file would encode differently; export tokenizer.json instead"
        )
    return ranked


def encoder_json(tokenizer: Tokenizer) -> str:
    """GPT-2's `encoder.json`: token (GPT-2's characters) -> id, special tokens last."""
    _refuse_outside(tokenizer, "encoder.json")
    _check_json_size(tokenizer, "an encoder.json")
    texts = _token_texts(tokenizer, "encoder.json")
    return json.dumps(
        _with_specials(texts, tokenizer.special_tokens, "encoder.json"), ensure_ascii=False
    )


def vocab_bpe(tokenizer: Tokenizer) -> str:
    """GPT-2's `vocab.bpe`: a version line, then merge k as 'LEFT RIGHT' on line k + 2."""
    _refuse_outside(tokenizer, "vocab.bpe")
    _check_json_size(tokenizer, "a vocab.bpe")
    texts = _token_texts(tokenizer, "vocab.bpe")
    lines = ["#version: 0.2", *(f"{texts[a]} {texts[b]}" for a, b in tokenizer.merges)]
    return "\n".join(lines) + "\n"


def _check_json_size(tokenizer: Tokenizer, what: str) -> None:
    """Refuse, before it is built, a file of GPT-2's characters that would not read back."""
    check_readable(tokenizer, what)
    check_file_size(least_json_bytes(tokenizer), what)


def _refuse_outside(tokenizer: Tokenizer, fmt: str) -> None:
    if tokenizer.outside_merges:
        raise FormatError(
            f"GPT-2's {fmt} reads entries past the merges as special tokens, so it cannot hold "
            f"this tokenizer's {len(tokenizer.outside_merges)} tokens outside the merges; "
            "export tokenizer.json instead"
        )


def _token_texts(tokenizer: Tokenizer, fmt: str) -> list[str]:
    """Each token in GPT-2's byte-to-character mapping, in id order: b' the' -> 'Ġthe'."""
    return [gpt2_chars(token) for token in _distinct_tokens(tokenizer, fmt)]


def _with_specials(
    texts: list[str], specials: dict[str, int], fmt: str, outside: dict[str, int] | None = None
) -> dict[str, int]:
    """Token text -> id for the tokens (GPT-2's characters), any outside the merges, and
    the special tokens (as is)."""
    outside = outside or {}
    clash = sorted((set(texts) | set(outside)) & set(specials))
    if clash:
        raise FormatError(
            f"the special token {clash[0]!r} is spelled like an ordinary token in GPT-2's "
            f"characters, so a {fmt} vocabulary cannot hold both"
        )
    return {**{text: token_id for token_id, text in enumerate(texts)}, **outside, **specials}


def _distinct_tokens(tokenizer: Tokenizer, fmt: str) -> list[bytes]:
    """The tokens' bytes in id order; a FormatError if two ids share their bytes."""
    tokens = [tokenizer.vocab[token_id] for token_id in range(tokenizer.vocab_size)]
    first: dict[bytes, int] = {}
    for token_id, token in enumerate(tokens):
        earlier = first.setdefault(token, token_id)
        if earlier != token_id:
            raise FormatError(
                f"tokens {earlier} and {token_id} are both {token!r}: a {fmt} file gives each "
                "token's bytes one id, so it cannot hold this tokenizer (merges.json and "
                ".model can)"
            )
    return tokens


def _is_custom(pattern: str) -> bool:
    return bool(pattern) and preset_name(pattern) is None  # presets are tested, always exact


def _onig_pattern(pattern: str) -> str:
    """Our pattern in Oniguruma's dialect; only rewrites that mean exactly the same.

    >>> _onig_pattern(r"(?P<w>a)(?P=w)"), _onig_pattern("(?s).")
    ('(?<w>a)\\\\k<w>', '(?m).')
    """
    if pattern.startswith("(?s)"):  # Oniguruma (Ruby syntax) spells dot-matches-all (?m)
        pattern = "(?m)" + pattern[4:]
    pattern = regex.sub(r"(?<!\\)((?:\\\\)*)\(\?P<", r"\1(?<", pattern)  # named groups
    pattern = regex.sub(r"(?<!\\)((?:\\\\)*)\(\?P=(\w+)\)", r"\1\\k<\2>", pattern)
    return python_to_onig(pattern)


def _huggingface_ids(document: str) -> Callable[[list[str]], list[list[int]]]:
    """Hugging Face's ids for texts, from the file as written; raises its load error."""
    import tokenizers  # only to check a custom pattern, not at import time

    loaded = tokenizers.Tokenizer.from_str(document)
    return lambda texts: [e.ids for e in loaded.encode_batch(texts, add_special_tokens=False)]


def _tiktoken_ids(tokenizer: Tokenizer, tokens: list[bytes]) -> Callable[[list[str]], Any]:
    """tiktoken's ids for texts, with these ranks and the pattern beside them."""
    import tiktoken  # only to check a custom pattern, not at import time

    encoding = tiktoken.Encoding(
        name="export-check",
        pat_str=tokenizer.pattern,
        mergeable_ranks={token: rank for rank, token in enumerate(tokens)},
        special_tokens=tokenizer.special_tokens,
    )
    return lambda texts: [encoding.encode_ordinary(text) for text in texts]


def _check_same_ids(
    tokenizer: Tokenizer, fmt: str, library: str, load: Callable[[], Callable[[list[str]], Any]]
) -> None:
    """FormatError unless `library` encodes every probe text as we do.

    The probes hold characters of every Unicode general category, alone and between
    letters, digits and spaces: where two regex engines read a class differently
    (`\\w` and U+200C in `regex` but not Oniguruma), some probe shows it.
    """
    probes = probe_texts()
    try:
        theirs = load()(probes)
    except ImportError:
        raise FormatError(
            f"a {fmt} file with a custom pattern is written only once {library} has checked "
            f"that it encodes the same; install {library} (pip install {library}) or choose "
            "a preset pattern"
        ) from None
    except Exception as exc:
        raise FormatError(
            f"{library} cannot use the pattern {tokenizer.pattern!r}: "
            f"{' '.join(str(exc).split())}. Choose a preset or a simpler pattern."
        ) from None
    differ = [
        (len(probe), probe, list(their), ours)
        for probe, their in zip(probes, theirs)
        if list(their) != (ours := tokenizer.encode_ordinary(probe))
    ]
    if differ:
        _, probe, their, ours = min(differ)  # the shortest text that shows it
        where = ", ".join(f"U+{ord(c):04X} ({unicodedata.category(c)})" for c in probe)
        raise FormatError(
            f"{library} reads the pattern {tokenizer.pattern!r} differently: it encodes "
            f"{probe!r} ({where}) as {their}, this tokenizer as {ours}; a {fmt} file would "
            "not encode the same. Choose a preset or a pattern both engines read alike."
        )


@cache
def probe_texts() -> list[str]:
    """Short texts with the first and last character of each Unicode general category.

    Each appears alone, doubled, between letters, after a space and beside digits, after
    two texts of everyday prose, spacing and joiners. Surrogates (Cs) cannot be in text.
    """
    texts = [
        *("Hello world's 12345 it'S", "\n\n  \t x\r\n y  ", "x\ny\n", "e\u0301"),
        *("a\u200cb", "a\u200db", "\u2028", "\x85", "\u3000", "\u00a0y", "\U0001f600\U0001f3fd"),
    ]
    first: dict[str, str] = {}
    last: dict[str, str] = {}
    for code in range(0x110000):
        char = chr(code)
        kind = unicodedata.category(char)
        if kind != "Cs":
            first.setdefault(kind, char)
            last[kind] = char
    for kind in sorted(first):
        for c in dict.fromkeys((first[kind], last[kind])):
            texts += [c, c + c, f"a{c}b", f" {c}x", f"1{c}2", f"{c} \n"]
    return texts


def _added_token(text: str, token_id: int) -> dict[str, Any]:
    return {
        "id": token_id,
        "content": text,
        "single_word": False,
        "lstrip": False,
        "rstrip": False,
        "normalized": False,
        "special": True,
    }
