r"""Safe cuts: places in a text where no preset pattern's match ends or begins, so a text
cut there splits into the same chunks as the whole. Parallel counting (training) and parallel
encoding (encoding) both cut there.

    >>> [m.start() for m in SAFE_CUT.finditer("hi you\n2x")]
    [2, 7, 8]
    >>> can_split("gpt4"), can_split("none")
    (True, False)
    >>> inside_special("a<|x|>b", 3, ["<|x|>"]), inside_special("a<|x|>b", 1, ["<|x|>"])
    (True, False)
"""

from __future__ import annotations

import regex

from explorer.encoding.pretokenize import preset_name, resolve_pattern

# Zero-width places where no preset's match ends a character later or begins a character
# earlier, and none looks past (explorer.training.parallel cuts there too). With X before and Y
# after: a newline before a non-space; a non-space before a space that is not \r or \n
# (punctuation takes trailing newlines); a number before anything but a number, a space
# or a mark; a letter before anything but a letter, a space, a mark or ' (o200k's `'s`
# suffix); punctuation before a number. Not: punctuation before a letter (`.b` is one
# gpt4 match), nor anything beside a combining mark (o200k's letter runs take marks).
SAFE_CUT_PATTERN = (
    r"(?<=\n)(?=\S)|(?<=\S)(?=[^\S\r\n])|(?<=\p{N})(?=[^\s\p{N}\p{M}])"
    r"|(?<=\p{L})(?=[^\s\p{L}\p{M}'])|(?<=[^\s\p{L}\p{N}\p{M}])(?=\p{N})"
)
SAFE_CUT = regex.compile(SAFE_CUT_PATTERN)


def can_split(pattern: str) -> bool:
    """Only the GPT presets and `words` are known never to match across a safe cut."""
    name = preset_name(resolve_pattern(pattern))
    return name is not None and name != "none"


def inside_special(text: str, cut: int, special_tokens: list[str]) -> bool:
    """Whether a special token in `text` starts before `cut` and ends after it."""
    for special in special_tokens:
        low = max(0, cut - len(special) + 1)
        position = text.find(special, low, cut + len(special) - 1)
        while position != -1 and position < cut:
            if position + len(special) > cut:
                return True
            position = text.find(special, position + 1, cut + len(special) - 1)
    return False
