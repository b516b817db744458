"""What a tokenizer file may ask of the explorer: size, ids, merges, token bytes, a value's shape.

Each bound sits far above every real tokenizer and far below what would crash a page or
hold the server. A message names the thing counted: ids, merges or bytes.

- MAX_FILE_BYTES (64 MB): the largest real file we know is Gemma 3's tokenizer.json
  (33 MB; Mistral's tekken JSON is 19 MB, Llama 3's tokenizer.json 9 MB). A file past it
  is refused before it is parsed; large files are read in a child process, as before.
- MAX_TOKEN_ID: Hugging Face's tokenizers and tiktoken keep ids as unsigned 32-bit
  numbers; 2**31 - 1 is the largest id a signed 32-bit column (a table, a chart, numpy's
  default int on Windows) holds, so an id that passes never overflows a view. A special
  token id of 24 digits loaded, then crashed the Vocabulary page's table (issue 21).
- MAX_VOCAB_SIZE (300,000 ids, special tokens included): Gemma 3 has 262,145, gpt-oss
  201,088, o200k_base 200,019, Llama 3 128,256. Each id costs a row in every table; a
  9 MB .model of a million merges took 460 MB of server memory to load. In our own
  formats merge k makes id 255 + k, so there the merges count against it too.
- MAX_MERGES (1,000,000 merges a file lists): several merges may make one token in a
  real model's tokenizer.json (Gemma 3 lists 514,906, gpt-oss 446k, Llama 3 280,147
  for 128,256 ids), so merges are bounded apart from ids. A rank file lists no merges.
- MAX_VOCAB_BYTES: a .model lists merges, not tokens, so 30 lines that merge a token with
  itself describe a token of a gigabyte; the bytes of all tokens together are summed
  from the merges before any is built. o200k_base's tokens hold 1.4 MB together. It
  lives in explorer.base.vocab_budget: training stops at the same bound, so whatever a
  training keeps is read back.
- MAX_RANKED_BYTES (2 MiB of token bytes in a rank file, 1.5 times o200k_base's 1.4 MB;
  Llama 3's rank file holds 831 KB, Mistral's tekken 878 KB in the ranks it uses): a rank
  file lists tokens and ranks, and its merges are found in Python from each token's
  bytes. Our own runs recover one merge a token by BPE on its bytes (~2 µs of CPU a
  byte: o200k_base ~2.6 s; the worst shape, tokens a, aa, aaa, ..., ~5 s at the bound,
  and its 19.5 MB version took 32 s here and 133 s on the issue's server). A real
  model's rank file is encoded by tiktoken, which needs no merges; its merge list is
  found only when asked for (every split of a token into two tokens, ~1 µs a byte:
  Llama 3's in ~0.7 s of CPU), and the bound keeps that to a few seconds too.

    >>> read_id("280", "an id")
    280
    >>> vocab_bytes([(97, 97), (256, 256)])  # 256 single bytes, then "aa" and "aaaa"
    262
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Collection, Iterable, Sequence

from explorer.base.numbers import NumberError, whole_number
from explorer.base.vocab_budget import MAX_VOCAB_BYTES as MAX_VOCAB_BYTES  # training's too
from explorer.files.errors import FormatError

MAX_TOKEN_ID = 2**31 - 1
MAX_VOCAB_SIZE = 300_000  # ids a file may define, special tokens included
MAX_MERGES = 1_000_000  # merges a file may list (Gemma 3: 514,906; gpt-oss: 446k)
MAX_FILE_BYTES = 64 << 20  # a tokenizer file (Gemma 3's tokenizer.json is 33 MB)
MAX_RANKED_BYTES = 2 << 20  # the bytes of all tokens of a rank file, whose merges are found
MAX_SPECIAL_TOKENS = 10_000  # each joins one regex for encoding: 100,000 took 7.7 s, 400 MB
MAX_SPECIAL_CHARS = 256  # real special tokens are under 40: <|reserved_special_token_250|>
MAX_GROUP_DEPTH = 32  # of a pre-tokenizer regex's groups; GPT-4o's nests 2
MAX_PATTERN_CHARS = 4_000  # of a pre-tokenizer regex from a file; GPT-4o's has 274
SHOWN_CHARS = 60  # of a value quoted in a message: a 20 MB line is not echoed back

# an escape, a [class] (a ] first in it is literal), or a parenthesis: only the last count.
# subtle: a class left open runs to the end rather than failing, else the search retries
# from every later '[' (100,000 of them took minutes)
_GROUP_TOKENS = re.compile(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]?|[()]", re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")
_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = SHOWN_CHARS
_REPR.maxlevel = 2  # subtle: reprlib never recurses deeper, so a deep value is safe to show


def read_id(value: str | int, what: str, high: int = MAX_TOKEN_ID) -> int:
    """`value` as a token id in 0..high (MAX_TOKEN_ID by default), or a FormatError naming `what`.

    >>> read_id("9" * 24, "special token '<s>'")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: special token '<s>' has 24 digits; it must be 0 to 2,147,...
    """
    try:
        return whole_number(value, what, 0, high)
    except NumberError as exc:
        raise FormatError(str(exc)) from None


def check_file_size(size: int, source: str) -> None:
    """Refuse a file of more than MAX_FILE_BYTES before it is parsed.

    >>> check_file_size(70_000_000, "big.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: big.json is 70,000,000 bytes; the explorer reads ...
    """
    if size > MAX_FILE_BYTES:
        raise FormatError(
            f"{source} is {size:,} bytes; the explorer reads tokenizer files of up to "
            f"{MAX_FILE_BYTES >> 20} MB (Gemma 3's tokenizer.json is 33 MB)"
        )


def check_vocab_size(size: int, source: str, *, merges: int | None = None) -> None:
    """Refuse a file of more than MAX_VOCAB_SIZE ids, before they are built. `merges`, for
    our own formats (merge k makes id 255 + k), says the ids come from that many merges.

    >>> check_vocab_size(400_000, "big.tiktoken")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: big.tiktoken holds 400,000 ids (tokens and special ...
    >>> check_vocab_size(1_065_792, "wide.model", merges=1_065_536)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: wide.model: its 1,065,536 merges make 1,065,792 ids ...
    """
    if size <= MAX_VOCAB_SIZE:
        return
    limit = f"the explorer reads up to {MAX_VOCAB_SIZE:,} ids (Gemma 3 has 262,145)"
    if merges is None:
        raise FormatError(f"{source} holds {size:,} ids (tokens and special tokens); {limit}")
    raise FormatError(
        f"{source}: its {merges:,} merges make {size:,} ids (merge k makes id 255 + k, "
        f"special tokens included); {limit}"
    )


def check_merge_count(count: int, source: str) -> None:
    """Refuse a file that lists more than MAX_MERGES merges, before they are read.

    >>> check_merge_count(1_200_000, "tokenizer.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: tokenizer.json lists 1,200,000 merges; the explorer ...
    """
    if count > MAX_MERGES:
        raise FormatError(
            f"{source} lists {count:,} merges; the explorer reads up to {MAX_MERGES:,} "
            "(Gemma 3 lists 514,906)"
        )


def vocab_bytes(merges: Iterable[tuple[int, int]]) -> int:
    """The bytes of all tokens the merges make, with the 256 single bytes; merges must be
    checked already (each uses only ids made before it)."""
    lengths = [1] * 256
    for left, right in merges:
        lengths.append(lengths[left] + lengths[right])
    return sum(lengths)


def check_vocab_bytes(merges: Sequence[tuple[int, int]], source: str) -> None:
    """Refuse merges whose tokens would hold more than MAX_VOCAB_BYTES together.

    >>> doubling = [(97, 97)] + [(256 + k, 256 + k) for k in range(30)]  # a token of 2**31 bytes
    >>> check_vocab_bytes(doubling, "x.model")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: x.model: its 31 merges make tokens of 4,294,967,550 bytes ...
    """
    total = vocab_bytes(merges)
    if total > MAX_VOCAB_BYTES:
        raise FormatError(
            f"{source}: its {len(merges):,} merges make tokens of {total:,} bytes together; this "
            f"explorer reads tokenizers of at most {MAX_VOCAB_BYTES:,} bytes of tokens (real "
            "ones hold under 2 MB)"
        )


def check_ranked_bytes(tokens: Sequence[bytes], source: str) -> None:
    """Refuse a rank file whose tokens hold more than MAX_RANKED_BYTES together: finding
    its merges would take too long. `check_ranked_bytes([b"ab"], "x")` passes."""
    total = sum(map(len, tokens))
    if total > MAX_RANKED_BYTES:
        raise FormatError(
            f"{source}: its {len(tokens):,} tokens hold {total:,} bytes together; the "
            f"explorer finds merges from ranks for at most {MAX_RANKED_BYTES:,} bytes of "
            "tokens (OpenAI's o200k_base holds 1.4 MB). Save the tokenizer as a .model or a "
            "tokenizer.json, which list the merges, and load that instead."
        )


def check_special_names(specials: Collection[str], source: str) -> None:
    """Refuse a special token that is not text: half of a UTF-16 pair (JSON's "\\ud800")
    cannot be encoded or shown, and a name of thousands of characters is not a marker.
    Refuse more than MAX_SPECIAL_TOKENS of them (real tokenizers have a few hundred at
    most: Llama 3 has 256).

    >>> check_special_names(["<|endoftext|>", "<img src=x>"], "x.json")  # names stay literal
    >>> check_special_names(["<s" + chr(0xD800) + ">"], "x.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: x.json: the special token '<s\\ud800>' holds half of ...
    """
    if len(specials) > MAX_SPECIAL_TOKENS:
        raise FormatError(
            f"{source} has {len(specials):,} special tokens; the explorer reads at most "
            f"{MAX_SPECIAL_TOKENS:,} (Llama 3 has 256)"
        )
    for name in specials:
        if len(name) > MAX_SPECIAL_CHARS:
            raise FormatError(
                f"{source}: the special token {shown(name)} is {len(name):,} characters long; "
                f"special tokens here are at most {MAX_SPECIAL_CHARS}"
            )
        if _SURROGATE.search(name):
            raise FormatError(
                f"{source}: the special token {shown(name)} holds half of a UTF-16 pair "
                "(an escape such as \\ud800 alone), which is not text"
            )


def check_group_depth(pattern: str, where: str) -> None:
    """Refuse a regex whose groups nest more than MAX_GROUP_DEPTH deep, before anything
    (the dialect's rewriting, the regex compiler) descends into them one call a level,
    and one longer than MAX_PATTERN_CHARS (its errors would quote it whole).

    >>> check_group_depth("(" * 1000 + ")" * 1000, "x.model, line 2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: x.model, line 2: the regex's groups nest 1,000 deep; ...
    """
    if len(pattern) > MAX_PATTERN_CHARS:
        raise FormatError(
            f"{where}: the regex is {len(pattern):,} characters long; a pre-tokenizer regex "
            f"here has at most {MAX_PATTERN_CHARS:,} (GPT-4o's has 274)"
        )
    depth = group_depth(pattern)
    if depth > MAX_GROUP_DEPTH:
        raise FormatError(
            f"{where}: the regex's groups nest {depth:,} deep; a pre-tokenizer regex here "
            f"nests at most {MAX_GROUP_DEPTH} (GPT-4o's nests 2)"
        )


def group_depth(pattern: str) -> int:
    r"""How deep a regex's groups nest, escapes and [classes] aside, counted without recursion.

    >>> group_depth(r"(?:a(b))|\(|[(]"), group_depth("(" * 100_000), group_depth("[(" * 9)
    (2, 100000, 0)
    """
    depth = deepest = 0
    for token in _GROUP_TOKENS.findall(pattern):
        if token == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif token == ")":
            depth -= 1
    return deepest


def shown(value: object) -> str:
    """A value for a message, at most about SHOWN_CHARS long, whatever its size or depth.

    >>> shown("x" * 1000)[-8:], shown([[[[1]]]])
    ("...xxxx'", '[[[...]]]')
    """
    text = _REPR.repr(value)
    return text if len(text) <= 2 * SHOWN_CHARS else f"{text[: 2 * SHOWN_CHARS]}…"
