"""The vocabularies that ship with the explorer: GPT-2, cl100k_base (GPT-4), o200k_base (GPT-4o).

The files in `vocabularies/` are OpenAI's own, byte for byte: each is checked against
the sha256 tiktoken expects before it is read. Patterns and special tokens are
tiktoken's (`tiktoken_ext/openai_public.py`). A loaded vocabulary is kept for the life
of the process, so loading it again is free (the first o200k_base load takes ~1 s: its
merges, which a rank file does not list, are read from `vocabularies/o200k_base.merges`,
rebuilt once by `python -m scripts.bundle_merges`; see explorer.files.bundled_merges).

    >>> "gpt2" in BUNDLED_NAMES and bundled_name("r50k_base")
    'gpt2'
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from explorer.base.arguments import text_argument
from explorer.encoding.pretokenize import GPT2_PATTERN, GPT4_PATTERN, O200K_PATTERN
from explorer.encoding.tokenizer import Tokenizer
from explorer.files.bundled_merges import check_merges_make, rank_tokens, read_merges
from explorer.files.imports import make_tokenizer, parse_gpt2, parse_tiktoken

VOCABULARY_DIR = Path(__file__).resolve().parents[2] / "vocabularies"

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"


class BundledError(ValueError):
    """An unknown vocabulary name, or a bundled file that is missing or not the official one."""


@dataclass(frozen=True)
class Bundled:
    """One shipped vocabulary: its files with their sha256, pattern and special tokens."""

    name: str
    description: str
    files: tuple[tuple[str, str], ...]  # (path under vocabularies/, sha256)
    pattern: str
    special_tokens: dict[str, int]
    # a rank file's merges, rebuilt once (explorer.files.bundled_merges): (path, sha256)
    merges_file: tuple[str, str] | None = None


BUNDLED: dict[str, Bundled] = {
    "gpt2": Bundled(
        "gpt2",
        "GPT-2 (also r50k_base): 50,257 tokens",
        (
            (
                "gpt2/encoder.json",
                "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
            ),
            ("gpt2/vocab.bpe", "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"),
        ),
        GPT2_PATTERN,
        {ENDOFTEXT: 50256},
    ),
    "cl100k_base": Bundled(
        "cl100k_base",
        "GPT-4 and GPT-3.5: 100,256 tokens and 5 special tokens",
        (
            (
                "cl100k_base.tiktoken",
                "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
            ),
        ),
        GPT4_PATTERN,
        {
            ENDOFTEXT: 100257,
            FIM_PREFIX: 100258,
            FIM_MIDDLE: 100259,
            FIM_SUFFIX: 100260,
            ENDOFPROMPT: 100276,
        },
        ("cl100k_base.merges", "370f178f789a0ff5e69f71fdd9914f23ce3626bb76e1036603ede78a8a3a138d"),
    ),
    "o200k_base": Bundled(
        "o200k_base",
        "GPT-4o: 199,998 tokens and 2 special tokens",
        (
            (
                "o200k_base.tiktoken",
                "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
            ),
        ),
        O200K_PATTERN,
        {ENDOFTEXT: 199999, ENDOFPROMPT: 200018},
        ("o200k_base.merges", "228a7a50789a3c4731d2c675d3e653533cbbcce615149e85376aed7f4e4ed716"),
    ),
}
ALIASES = {"r50k_base": "gpt2"}
BUNDLED_NAMES: tuple[str, ...] = tuple(BUNDLED)


def bundled_name(name: str) -> str | None:
    """The bundled vocabulary a name (or alias) stands for, else None."""
    name = ALIASES.get(name, name)
    return name if name in BUNDLED else None


def load_bundled(name: str) -> Tokenizer:
    """A bundled vocabulary as a Tokenizer, shared by all callers: do not change it.

    Ids are OpenAI's: the single bytes are ids 0-255 in GPT-2's byte order (see
    `Tokenizer.byte_ids`), merge k is id 256 + k, special tokens as tiktoken numbers them.
    """
    canonical = bundled_name(text_argument(name, "name"))
    if canonical is None:
        known = ", ".join([*BUNDLED_NAMES, *ALIASES])
        raise BundledError(f"there is no bundled vocabulary {name!r}; choose one of {known}")
    return _kept(canonical, _load)


def load_bundled_in_a_child(name: str) -> Tokenizer:
    """load_bundled, the work done by a child Python on another core when it is not done yet.

    For a server: reading o200k_base and building its Tokenizer from its 200,000 shipped
    merges takes ~1 s of CPU (cl100k_base ~0.5 s) and would hold the interpreter every
    session's script runs in; the child's pickled result is read back in ~0.1 s. Callers
    of load_bundled wait for it, as for any first load. If the child fails, the
    vocabulary is loaded here, so its error (a BundledError) is the usual one.
    """
    canonical = bundled_name(text_argument(name, "name"))
    if canonical is None:
        return load_bundled(name)  # its error names the choices
    return _kept(canonical, _load_in_a_child_or_here)


_LOAD_LOCKS = {name: threading.Lock() for name in BUNDLED}
_LOADED: dict[str, Tokenizer] = {}  # three names at most, kept for the process's life


def _kept(name: str, load: Callable[[str], Tokenizer]) -> Tokenizer:
    """The vocabulary kept for the process, or load(name) kept: one load per name, the
    other callers waiting for it."""
    # subtle: functools.cache does not hold back a second caller while the first computes,
    # so sessions opening the Compare page at once each parsed all three vocabularies;
    # with the lock, the first caller loads a vocabulary and the others wait for it
    with _LOAD_LOCKS[name]:
        if name not in _LOADED:
            _LOADED[name] = load(name)
        return _LOADED[name]


def _load_in_a_child_or_here(name: str) -> Tokenizer:
    from_child = _load_in_a_child(name)
    return _load(name) if from_child is None else from_child


# subtle: the child yields the CPU to the server (nice 10): a preload is background work,
# and on a two-core server its three children otherwise took half the CPU from the first
# visitor's page, which needs none of them; it ends with its parent (a server killed while
# preloading left its loaders running, parented to init)
_CHILD = (
    "import os, pickle, sys\n"
    "from explorer.base.child_death import end_with_parent\n"
    "end_with_parent(int(sys.argv[2]))\n"
    "if hasattr(os, 'nice'):\n"
    "    os.nice(10)\n"
    "from explorer.files.bundled import _load\n"
    "sys.stdout.buffer.write(pickle.dumps(_load(sys.argv[1]), pickle.HIGHEST_PROTOCOL))"
)


def _load_in_a_child(name: str) -> Tokenizer | None:
    """_load(name) run by `python -c` in the project folder; None if it did not succeed."""
    import os
    import pickle  # here, not at the top: only a server preloading needs it
    import subprocess
    import sys

    try:
        child = subprocess.run(
            [sys.executable, "-c", _CHILD, name, str(os.getpid())],
            cwd=Path(__file__).resolve().parents[2],
            capture_output=True,
            timeout=600,
            check=False,
        )
        if child.returncode != 0:
            return None
        loaded = pickle.loads(child.stdout)  # our own child's output, not outside data
    except (OSError, subprocess.SubprocessError, pickle.UnpicklingError, EOFError):
        return None
    return loaded if isinstance(loaded, Tokenizer) else None


def _load(name: str) -> Tokenizer:
    spec = BUNDLED[name]
    data = [_verified_bytes(path, sha256) for path, sha256 in spec.files]
    if name == "gpt2":
        encoder, vocab = (part.decode("utf-8") for part in data)
        return parse_gpt2(encoder, vocab, pattern=spec.pattern, sources=_sources(spec))
    if spec.merges_file is None:
        return _parsed_ranks(spec, data[0])
    return _with_shipped_merges(spec, data[0], _verified_bytes(*spec.merges_file))


def _with_shipped_merges(spec: Bundled, ranks: bytes, merges: bytes) -> Tokenizer:
    """A rank file's Tokenizer from its merges rebuilt once (explorer.files.bundled_merges):
    ~0.3 s where rebuilding them takes 2-4 s, every merge checked to make its rank's token."""
    assert spec.merges_file is not None
    rank_source, merges_source = _sources(spec)[0], f"vocabularies/{spec.merges_file[0]}"
    tokens = rank_tokens(ranks, rank_source)
    byte_ids = [0] * 256
    for token_id in range(256):
        byte_ids[tokens[token_id][0]] = token_id
    tokenizer = make_tokenizer(
        read_merges(merges, merges_source),
        spec.pattern,
        spec.special_tokens,
        byte_ids,
        rank_source,
        trained=True,
    )
    check_merges_make(tokenizer.vocab, tokens, merges_source, rank_source)
    return tokenizer


def _parsed_ranks(spec: Bundled, ranks: bytes) -> Tokenizer:
    return parse_tiktoken(
        ranks, pattern=spec.pattern, special_tokens=spec.special_tokens, source=_sources(spec)[0]
    )


def rebuilt_merges(name: str) -> list[tuple[int, int]]:
    """A bundled rank file's merges rebuilt from its ranks, the slow way the shipped
    merges file was written with (and is tested against)."""
    spec = BUNDLED[name]
    return _parsed_ranks(spec, _verified_bytes(*spec.files[0])).merges


def _verified_bytes(relative: str, sha256: str) -> bytes:
    """A bundled file's bytes, checked against the official sha256."""
    path = VOCABULARY_DIR / relative
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BundledError(
            f"the bundled vocabulary file {path} cannot be read ({exc.strerror or exc}); "
            "run from a checkout of the project, which has vocabularies/ beside explorer/"
        ) from None
    import hashlib  # here, not at the top: OpenSSL costs 3.6 MB to every import of explorer

    actual = hashlib.sha256(data).hexdigest()
    if actual != sha256:
        raise BundledError(
            f"{path} is not the official file (sha256 {actual[:12]}..., expected "
            f"{sha256[:12]}...); restore it from the repository"
        )
    return data


def _sources(spec: Bundled) -> tuple[str, str]:
    names = [f"vocabularies/{path}" for path, _ in spec.files]
    return names[0], names[-1]
