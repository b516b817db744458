"""Count the chunks of big files on several cores, with exactly the single-core result.

Each file is cut into parts at safe cuts (a newline before a non-space, a non-space
before a space, a letter or number beside another kind of character...: no preset
pattern's match crosses or looks past one, see explorer.encoding.safe_cuts),
never inside a special token. Each part is counted in its own
process; the counts are summed in text order, so first-appearance order, which the tie
rule needs, is kept too.

    >>> part_bounds(100, 2, min_part=10)
    [50]
"""

from __future__ import annotations

import codecs
import os
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from explorer.base.child_death import end_with_parent
from explorer.base.forking import can_fork, usable_cores
from explorer.encoding.safe_cuts import SAFE_CUT, can_split, inside_special
from explorer.training.corpus import (
    DEFAULT_BLOCK_CHARS,
    CorpusError,
    count_file_chunks,
    count_range,
    file_size,
)

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

MIN_PART_BYTES = 1 << 19  # files under twice this are counted whole: a process costs more
MAX_PART_BYTES = 32 << 20  # parts of huge files, so progress moves and memory stays flat
CUT_WINDOW_BYTES = 1 << 16  # how far past a planned split a safe cut is looked for


@dataclass(frozen=True)
class Part:
    """Bytes start..end of a file; `lookahead` is the character after end ("" at the end)."""

    path: Path
    start: int
    end: int | None
    lookahead: str


def count_files_in_parallel(
    paths: Iterable[str | Path],
    pattern: str,
    special_tokens: Iterable[str] = (),
    *,
    workers: int = 2,
    block_chars: int = DEFAULT_BLOCK_CHARS,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[bytes, int]:
    """Chunk counts of the files (each a document), counted by `workers` processes."""
    specials = list(special_tokens)
    files = [Path(path) for path in paths]
    # subtle: only presets split (no match crosses a safe cut), and presets are never timed;
    # a custom pattern is counted in this process, so its regex budget is one for all files
    splits = can_split(pattern)
    parts = [p for path in files for p in plan_parts(path, workers, specials)] if splits else []
    total = sum(_part_size(part) for part in parts)
    if len(parts) < 2 or total < 2 * MIN_PART_BYTES:  # a process would cost more than it saves
        return count_file_chunks(
            files, pattern, specials, block_chars=block_chars, progress=progress
        )
    from concurrent.futures import ProcessPoolExecutor  # 2 MB of imports, only when used

    # This process counts the first part itself while the others are counted elsewhere:
    # one process fewer, and a forked Python process costs several MB (refcounts copy
    # the pages it touches).
    # subtle: parts are bounded by the file (never under MIN_PART_BYTES), processes by the cores
    children = min(workers, len(parts) - 1, usable_cores())
    # each worker ends with this process, even killed with SIGKILL (explorer.base.child_death)
    with ProcessPoolExecutor(
        max_workers=children,
        mp_context=_context(),
        initializer=end_with_parent,
        initargs=(os.getpid(),),
    ) as pool:
        # subtle: a future keeps its result, so each is dropped once used (popleft):
        # holding every part's counts to the end, 900 MB of mix19 (28 parts) peaked at
        # 448 MB in this process; dropping them, 165 MB
        futures = deque(
            pool.submit(count_range, *_where(p), pattern, specials, block_chars) for p in parts[1:]
        )
        counts = count_range(*_where(parts[0]), pattern, specials, block_chars)
        done = _part_size(parts[0])
        if progress is not None:
            progress("counting", done, total)
        for part in parts[1:]:
            counts.update(futures.popleft().result())  # in text order: first appearances first
            done += _part_size(part)
            if progress is not None:
                progress("counting", done, total)
    return {chunk.encode("utf-8", "surrogatepass"): n for chunk, n in counts.items() if chunk}


def plan_parts(path: Path, workers: int, special_tokens: list[str]) -> list[Part]:
    """The file's parts, split at safe cuts near equal byte offsets."""
    size = file_size(path)
    parts: list[Part] = []
    start = 0
    for planned in part_bounds(size, workers):
        if planned <= start:
            continue
        cut = find_safe_cut(path, planned, special_tokens)
        if cut is None:
            continue  # no safe cut near here: this part runs on
        offset, lookahead = cut
        parts.append(Part(path, start, offset, lookahead))
        start = offset
    parts.append(Part(path, start, None, ""))
    return parts


def part_bounds(size: int, workers: int, min_part: int | None = None) -> list[int]:
    """Byte offsets to split near: `workers` parts, or parts of at most MAX_PART_BYTES,
    never parts under `min_part` bytes (so a billion workers plan a few offsets, not a
    billion).

    >>> len(part_bounds(100, 10**9, min_part=10))
    9
    """
    min_part = MIN_PART_BYTES if min_part is None else min_part
    if workers < 2 or size < 2 * min_part:
        return []
    count = min(max(workers, -(-size // MAX_PART_BYTES)), size // min_part)
    return [size * k // count for k in range(1, count)]


def find_safe_cut(path: Path, near: int, special_tokens: list[str]) -> tuple[int, str] | None:
    """The first safe cut at or after byte `near`: (byte offset, the character after it).

    The window starts a little before `near`, so a special token that began there is seen.
    """
    margin = 4 * max((len(s) for s in special_tokens), default=1)
    begin = max(0, near - margin)
    try:
        with path.open("rb") as handle:
            handle.seek(begin)
            raw = handle.read(near - begin + CUT_WINDOW_BYTES)
    except OSError as exc:
        raise CorpusError(f"cannot read {path}: {exc.strerror or exc}") from None
    skip = 0
    while skip < min(4, len(raw)) and 0x80 <= raw[skip] <= 0xBF:
        skip += 1  # start at a character, not inside one
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    try:
        window = decoder.decode(raw[skip:], final=False)
    except UnicodeDecodeError:
        return None  # the counting pass reports the bad byte with its offset
    for found in SAFE_CUT.finditer(window):
        cut = found.start()
        offset = begin + skip + len(window[:cut].encode("utf-8", "surrogatepass"))
        if cut == 0 or offset < near or inside_special(window, cut, special_tokens):
            continue
        # subtle: a special token that starts at the cut ends the text before it, as in
        # memory; its first character is no look-ahead (gpt2's \s+(?!\S) would see it)
        return offset, "" if _starts_special(window, cut, special_tokens) else window[cut]
    return None


def _starts_special(text: str, cut: int, special_tokens: list[str]) -> bool:
    """Whether a special token starts at `cut` (or may: `text` ends inside its first part).

    >>> _starts_special("ab<|x|>", 2, ["<|x|>"]), _starts_special("ab<|", 2, ["<|x|>"])
    (True, True)
    """
    rest = text[cut:]
    return any(rest.startswith(s) or s.startswith(rest) for s in special_tokens if rest)


def _context() -> BaseContext:
    """fork is fast, and safe only while this process runs no other thread."""
    import multiprocessing

    return multiprocessing.get_context("fork" if can_fork() else "spawn")


def _where(part: Part) -> tuple[Path, int, int | None, str]:
    return part.path, part.start, part.end, part.lookahead


def _part_size(part: Part) -> int:
    end = file_size(part.path) if part.end is None else part.end
    return end - part.start
