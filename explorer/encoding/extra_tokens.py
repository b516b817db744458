"""Checks on a tokenizer's tokens beyond its merges: special tokens and tokens outside the merges.

`explorer.encoding.tokenizer` builds a Tokenizer with these; they raise its errors, which live
here so that both modules can name them (`explorer.encoding.tokenizer` exports them too).

    >>> special_ids(["<|a|>", "<|b|>"], 258, after=260)
    {'<|a|>': 260, '<|b|>': 261}
    >>> allowed_specials({"<|a|>", "<|b|>"}, ["<|a|>"], (), "<|a|> then <|b|> as text")
    {'<|a|>'}
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Literal

from explorer.base.arguments import strings_argument, whole_number

SpecialSet = Literal["all", "none"] | Collection[str]


class TokenizerError(ValueError):
    """A tokenizer asked to do something it cannot: bad merges, unknown ids."""


class SpecialTokenError(TokenizerError):
    """The text contains a special token that encode was not allowed to use.

    `token` names it, so a caller (the command line) can say which of its own options
    to use instead.
    """

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


def outside_tokens(tokens: Mapping[int, bytes], vocab: Mapping[int, bytes]) -> dict[int, bytes]:
    """Check entries outside the merges: ids past the merges, bytes no other token has.

    >>> outside_tokens({256: b"xy"}, {0: b"a", 256: b"aa"})
    Traceback (most recent call last):
    ...
    explorer.encoding.extra_tokens.TokenizerError: token 256 outside the merges: its id must ...
    """
    if not tokens:  # the usual case: no need to index a 200,000-token vocabulary by bytes
        return {}
    first = max(vocab) + 1
    owner = {data: token_id for token_id, data in vocab.items()}
    checked: dict[int, bytes] = {}
    for token_id, data in sorted(tokens.items()):
        token_id = whole_number(token_id, "an outside_merges id")
        if token_id < first:
            raise TokenizerError(
                f"token {token_id} outside the merges: its id must be past the merges "
                f"({first} and up)"
            )
        if not isinstance(data, bytes) or not data:
            raise TokenizerError(
                f"token {token_id} outside the merges: expected bytes, got {data!r}"
            )
        if data in owner:
            raise TokenizerError(
                f"token {token_id} outside the merges is {data!r}, as token {owner[data]} is; "
                "each token's bytes may have one id"
            )
        checked[token_id] = data
        owner[data] = token_id
    return checked


def special_ids(
    special_tokens: Mapping[str, int] | Iterable[str], first: int, *, after: int
) -> dict[str, int]:
    """Special ids as given (from `first` on), or numbered from `after` (past outside ones)."""
    if isinstance(special_tokens, Mapping):
        specials = {str(s): int(i) for s, i in special_tokens.items()}
        clash = [s for s, i in specials.items() if i < first]
        if clash:
            raise TokenizerError(
                f"special tokens {clash} have ids below {first}, where bytes and merges live"
            )
    else:
        specials = {}
        for token in special_tokens:
            specials.setdefault(token, after + len(specials))
    if "" in specials:
        raise TokenizerError("a special token cannot be the empty string")
    if len(set(specials.values())) != len(specials):
        raise TokenizerError(f"two special tokens share an id: {specials}")
    return specials


def check_shared_ids(special_by_id: Mapping[int, str], outside: Mapping[int, bytes]) -> None:
    """Raise when a special token and a token outside the merges have the same id."""
    shared = sorted(set(special_by_id) & set(outside))
    if shared:
        raise TokenizerError(f"special tokens and tokens outside the merges share ids {shared}")


def allowed_specials(
    specials: Collection[str], allowed: SpecialSet, disallowed: SpecialSet, text: str
) -> set[str]:
    """The special tokens encode may use in `text`, with tiktoken's rules: raises
    SpecialTokenError for an unknown allowed one, or one in the text that is neither
    allowed nor permitted as plain text."""
    for name, value in (("allowed_special", allowed), ("disallowed_special", disallowed)):
        if value not in ("all", "none"):
            strings_argument(value, name)
    specials = set(specials)
    allowed_set = specials if allowed == "all" else set() if allowed == "none" else set(allowed)
    unknown = allowed_set - specials
    if unknown:
        raise SpecialTokenError(
            f"allowed_special names {sorted(unknown)}, which are not special tokens of "
            f"this tokenizer (it has {sorted(specials)})"
        )
    if disallowed == "all":
        forbidden = specials - allowed_set
    elif disallowed == "none":
        forbidden = set()
    else:
        forbidden = set(disallowed)
    for token in sorted(forbidden):
        if token in text:
            raise SpecialTokenError(
                f"the text contains the special token {token!r}. Pass "
                f"allowed_special={{{token!r}}} (or 'all') to encode it as a special "
                "token, or disallowed_special=() to encode it as plain text.",
                token,
            )
    return allowed_set
