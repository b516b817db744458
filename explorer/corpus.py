"""Count the distinct chunks of a corpus: from texts, from files read in blocks, or from a
word-frequency table. Counts keep first-appearance order, which the tie rule needs.

    >>> count_chunks(["hug hug pug"], "words")
    {b'hug': 2, b' ': 2, b'pug': 1}
"""

from __future__ import annotations

import codecs
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import regex

from explorer.pretokenize import (
    compile_pattern,
    match_timeout,
    preset_name,
    resolve_pattern,
    special_splitter,
    split_chunks,
    split_specials,
    timed_out,
)

DEFAULT_BLOCK_CHARS = 1 << 18  # 256K characters: the match list of a block stays ~4 MB
LOOKBEHIND_CONTEXT = 256  # characters kept before a block cut, for \b and lookbehinds
STABILITY_WINDOW = 64  # characters re-matched around a custom pattern's block cut
# Zero-width: after a newline before a letter, or before a space between letters. No
# preset's match crosses such a place or looks past it (explorer.parallel cuts there too).
SAFE_CUT_PATTERN = r"(?<=\n)(?=\p{L})|(?<=\p{L})(?= \p{L})"
CUT_POINT = regex.compile(SAFE_CUT_PATTERN, flags=regex.REVERSE)


class CorpusError(ValueError):
    """Training input that cannot be used: unreadable, not UTF-8, malformed."""


def count_chunks(
    texts: Iterable[str], pattern: str, special_tokens: Iterable[str] = ()
) -> dict[bytes, int]:
    """Chunk counts of whole texts; each text is a separate document."""
    counter = _ChunkCounter(resolve_pattern(pattern), special_tokens)
    for text in texts:
        counter.add_text(text)
    return counter.result()


def count_file_chunks(
    paths: Iterable[str | Path],
    pattern: str,
    special_tokens: Iterable[str] = (),
    *,
    block_chars: int = DEFAULT_BLOCK_CHARS,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[bytes, int]:
    """Chunk counts of files read `block_chars` at a time, exactly as if read whole.

    A block boundary never splits a pre-token: the last match of each block (and
    anything that could be the start of a special token) is carried into the next.
    """
    counter = _ChunkCounter(resolve_pattern(pattern), special_tokens)
    paths = [Path(p) for p in paths]
    total = sum(file_size(p) for p in paths)
    done = 0
    for path in paths:
        for block, final in _read_blocks(path, block_chars):
            counter.add_block(block, final)
            done += len(block.encode("utf-8", "surrogatepass"))
            if progress is not None:
                progress("counting", min(done, total), total)
    return counter.result()


def parse_word_counts(text: str) -> dict[str, int]:
    """Parse a word-frequency table, one `word count` a line (blank lines ignored).

    >>> parse_word_counts("hug 10\\npug 5\\n")
    {'hug': 10, 'pug': 5}
    """
    counts: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        word, _, count = line.rstrip("\r\n").rpartition(" ")
        count = count.strip()
        if not word or not (count.isascii() and count.isdigit()):  # not "²" or "١٢"
            raise CorpusError(
                f"line {number} of the word-frequency table is {line!r}; "
                "expected a word, a space and a whole number, e.g. 'hug 10'"
            )
        counts[word] = counts.get(word, 0) + int(count)
    if not counts:
        raise CorpusError("the word-frequency table is empty; give one 'word count' a line")
    return counts


def word_chunk_counts(word_counts: dict[str, int]) -> dict[bytes, int]:
    """Each word is one chunk with its count, in the table's order."""
    counts: dict[bytes, int] = {}
    for word, count in word_counts.items():
        if count < 0:
            raise CorpusError(f"the count of {word!r} is negative ({count})")
        if count:
            key = word.encode("utf-8")
            counts[key] = counts.get(key, 0) + count
    return counts


def file_size(path: Path) -> int:
    """A file's size in bytes; a CorpusError naming it when it cannot be read."""
    try:
        return path.stat().st_size
    except OSError as exc:
        raise CorpusError(f"cannot read {path}: {exc.strerror or exc}") from None


def _read_blocks(
    path: Path, block_chars: int, start: int = 0, end: int | None = None
) -> Iterator[tuple[str, bool]]:
    """Yield (text, is_last) blocks of bytes start..end (a character boundary), decoded
    incrementally with no newline translation."""
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    offset = start
    try:
        with path.open("rb") as handle:
            handle.seek(start)
            while True:
                want = block_chars if end is None else min(block_chars, end - offset)
                raw = handle.read(want)
                final = len(raw) < block_chars or (end is not None and offset + len(raw) >= end)
                try:
                    text = decoder.decode(raw, final=final)
                except UnicodeDecodeError as exc:
                    raise CorpusError(
                        f"{path} is not UTF-8 text: byte {offset + exc.start} "
                        f"(0x{raw[exc.start]:02x}) cannot be decoded. Save it as UTF-8."
                    ) from None
                offset += len(raw)
                yield text, final
                if final:
                    return
    except OSError as exc:
        raise CorpusError(f"cannot read {path}: {exc.strerror or exc}") from None


def count_range(
    path: str | Path,
    start: int,
    end: int | None,
    lookahead: str,
    pattern: str,
    special_tokens: Iterable[str] = (),
    block_chars: int = DEFAULT_BLOCK_CHARS,
) -> Counter[str]:
    """Chunk counts of bytes start..end of a file, which begin and end at safe cuts.

    `lookahead` is the character after `end` ("" at the end of the file): the last
    matches are taken as the whole text would have them. Each part of a file split at
    safe cuts (explorer.parallel) is counted by one call; summed in order, the counts
    (and their first-appearance order) are those of the whole file.
    """
    counter = _ChunkCounter(resolve_pattern(pattern), special_tokens)
    at_file_end = end is None
    for block, final in _read_blocks(Path(path), block_chars, start, end):
        counter.add_block(block, final and at_file_end)
    if not at_file_end:
        counter.finish_before(lookahead)
    return counter.counts


class _ChunkCounter:
    """Accumulates chunk counts, carrying the unfinished end of each block into the next."""

    def __init__(self, pattern: str, special_tokens: Iterable[str]) -> None:
        self.compiled = compile_pattern(pattern)
        self.pattern = pattern
        self.is_preset = preset_name(pattern) is not None
        self.specials = list(special_tokens)
        self.splitter = special_splitter(self.specials)
        self.special_margin = max((len(s) for s in self.specials), default=1) - 1
        self.counts: Counter[str] = Counter()
        self.carry = ""  # uncounted text; starts where a match of the full text starts
        self.context = ""  # counted text just before the carry, in the same segment

    def add_text(self, text: str) -> None:
        self.add_block(text, final=True)

    def add_block(self, block: str, final: bool) -> None:
        buffer, self.carry = self.carry + block, ""
        pieces = list(split_specials(buffer, self.splitter))
        tail = None
        if not final and pieces and not pieces[-1][1]:
            tail = pieces.pop()[0]
        context = self.context
        for piece, is_special in pieces:
            if not is_special:
                self._add(self._matches(piece, context))
            context = ""  # a segment after a special token starts afresh
        self.context = ""
        if tail is not None:
            self._hold_back(tail, context)

    def finish_before(self, lookahead: str) -> None:
        """Count the carried text, ending at a safe cut that `lookahead` follows."""
        tail, self.carry = self.carry, ""
        if tail:
            self._add(self._matches_before(tail + lookahead, self.context, len(tail)))
        self.context = ""

    def _hold_back(self, tail: str, context: str) -> None:
        """Count the open end of a block up to a safe cut and carry the rest."""
        cut = 0 if self.compiled is None else self._safe_cut(tail, context)
        self._add(self._matches_before(tail, context, cut))
        self.context = (context + tail[:cut])[-LOOKBEHIND_CONTEXT:]
        self.carry = tail[cut:]

    def _safe_cut(self, tail: str, context: str) -> int:
        """The last place where the text can be cut without changing any pre-token.

        Matches of the GPT patterns look ahead (`\\s++$`, o200k's `'re` suffix), so
        the end of a match is not a safe cut. A newline before a letter, or a space
        between letters, is: no preset match crosses it or looks past it. The cut also
        stays before any place where a special token may begin (it would end the
        segment there). A custom pattern's cut is checked against its own matches.
        """
        limit = min(self._possible_special_starts(tail), default=len(tail))
        # CUT_POINT searches backwards, so the first cut found is the last one in the text
        for found in CUT_POINT.finditer(tail, 0, min(len(tail), limit + 2)):
            cut = found.start()
            if cut == 0 or cut > limit:
                continue
            if self.is_preset or self._cut_is_stable(tail, context, cut):
                return cut
        return 0

    def _matches_before(self, tail: str, context: str, cut: int) -> list[str]:
        """The matches that start before `cut`, with the text going on past it.

        subtle: matching `tail[:cut]` alone would put the end of the string at the cut,
        where `\\s++$` matches; one more character keeps `$` from matching there.
        """
        if cut == 0:
            return []
        chunks, starts = self._matches_with_starts(tail[: cut + 1], context)
        return [chunk for chunk, start in zip(chunks, starts) if start < cut]

    def _possible_special_starts(self, tail: str) -> list[int]:
        low = max(0, len(tail) - self.special_margin)
        return [
            p
            for p in range(low, len(tail))
            if any(special.startswith(tail[p:]) for special in self.specials)
        ]

    def _cut_is_stable(self, tail: str, context: str, cut: int) -> bool:
        """Whether a custom pattern matches the same around `cut` with the text cut there."""
        window = max(0, cut - STABILITY_WINDOW)
        window_context = (context + tail[:window])[-LOOKBEHIND_CONTEXT:]
        near = self._matches_before(tail[window:], window_context, cut - window)
        going_on, starts = self._matches_with_starts(
            tail[window : cut + STABILITY_WINDOW], window_context
        )
        before = [c for c, s in zip(going_on, starts) if s < cut - window]
        return cut - window in starts and before == near

    def _matches(self, text: str, context: str) -> list[str]:
        if self.compiled is None:
            return [text] if text else []
        if not context:
            return split_chunks(text, self.compiled, timeout=self._timeout(text))
        if self.compiled.groups == 0:
            source = context + text
            try:
                return self.compiled.findall(
                    source, pos=len(context), timeout=self._timeout(source)
                )
            except TimeoutError:
                raise timed_out(self.compiled, self._timeout(source)) from None
        return self._matches_with_starts(text, context)[0]

    def _matches_with_starts(self, text: str, context: str) -> tuple[list[str], list[int]]:
        """Matches in `text` and where each starts; `context` is seen by lookbehinds only."""
        assert self.compiled is not None
        source, offset = context + text, len(context)
        timeout = self._timeout(source)
        try:
            chunks = self.compiled.findall(source, pos=offset, timeout=timeout)
            if self.compiled.groups == 0 and sum(map(len, chunks)) == len(text):
                starts, position = [], 0
                for chunk in chunks:
                    starts.append(position)
                    position += len(chunk)
                return chunks, starts
            found = list(self.compiled.finditer(source, pos=offset, timeout=timeout))
        except TimeoutError:
            raise timed_out(self.compiled, timeout) from None
        return [m.group() for m in found], [m.start() - offset for m in found]

    def _timeout(self, text: str) -> float | None:
        return match_timeout(self.pattern, len(text))

    def _add(self, chunks: Iterable[str]) -> None:
        self.counts.update(chunks)  # Counter keeps first-appearance order, as ties need

    def result(self) -> dict[bytes, int]:
        if self.carry or self.context:
            self.add_block("", final=True)
        return {
            chunk.encode("utf-8", "surrogatepass"): n for chunk, n in self.counts.items() if chunk
        }
