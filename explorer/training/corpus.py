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

from explorer.base.numbers import MAX_DIGITS, NumberError, whole_number
from explorer.encoding.pretokenize import (
    compile_pattern,
    match_budget,
    match_reach,
    preset_name,
    resolve_pattern,
    special_splitter,
    split_chunks,
    split_specials,
    timed_out,
)
from explorer.encoding.regex_budget import BudgetSpent, RegexBudget
from explorer.encoding.safe_cuts import SAFE_CUT_PATTERN

DEFAULT_BLOCK_CHARS = 1 << 18  # 256K characters: the match list of a block stays ~4 MB
LOOKBEHIND_CONTEXT = 256  # characters kept before a block cut, for \b and lookbehinds
CUT_POINT = regex.compile(SAFE_CUT_PATTERN, flags=regex.REVERSE)


class CorpusError(ValueError):
    """Training input that cannot be used: unreadable, not UTF-8, malformed."""


def count_chunks(
    texts: Iterable[str], pattern: str, special_tokens: Iterable[str] = ()
) -> dict[bytes, int]:
    """Chunk counts of whole texts; each text is a separate document.

    One regex budget covers them all (explorer.encoding.regex_budget).
    """
    texts = list(texts)
    pattern = resolve_pattern(pattern)
    budget = match_budget(pattern, sum(map(len, texts)))
    counter = _ChunkCounter(pattern, special_tokens, budget)
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
    files = [Path(p) for p in paths]
    total = sum(file_size(p) for p in files)
    pattern = resolve_pattern(pattern)
    counter = _ChunkCounter(pattern, special_tokens, match_budget(pattern, total))
    done = 0
    for path in files:
        for block, final in _read_blocks(path, block_chars):
            counter.add_block(block, final)
            done += len(block.encode("utf-8", "surrogatepass"))
            if progress is not None:
                progress("counting", min(done, total), total)
    return counter.result()


def block_method(pattern: str) -> str:
    """How files are read in blocks with this pattern, exactly as if read whole.

    "cuts": a preset; blocks end at safe cuts (SAFE_CUT_PATTERN), memory holds a block
    and the longest stretch of text without one. "reach": a custom pattern with a proved
    bound on how far a match looks (match_reach); memory holds a block. "whole": each
    file's text between special tokens is matched whole (`none`, whose chunk is that
    text, and any pattern without such a bound), so memory grows with the file.

    >>> [block_method(p) for p in ("gpt2", r"(?s)..?", r"\\w+|\\W", "none")]
    ['cuts', 'reach', 'whole', 'whole']
    """
    pattern = resolve_pattern(pattern)
    if not pattern:
        return "whole"
    if preset_name(pattern) is not None:
        return "cuts"
    reach = match_reach(pattern)
    return "reach" if reach is not None and reach[1] < LOOKBEHIND_CONTEXT else "whole"


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
            shown = line if len(line) <= 60 else f"{line[:57]}…"
            raise CorpusError(
                f"line {number} of the word-frequency table is {shown!r}; "
                "expected a word, a space and a whole number, e.g. 'hug 10'"
            )
        counts[word] = counts.get(word, 0) + _count(count, number)
    if not counts:
        raise CorpusError("the word-frequency table is empty; give one 'word count' a line")
    return counts


def _count(text: str, number: int) -> int:
    """A word's count, at most MAX_DIGITS digits (not Python's 4,300-digit advice)."""
    try:
        return whole_number(text, f"the count on line {number}", 0, 10**MAX_DIGITS - 1)
    except NumberError as exc:
        raise CorpusError(f"{exc} (a count of the word-frequency table)") from None


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
    safe cuts (explorer.training.parallel) is counted by one call; summed in order, the counts
    (and their first-appearance order) are those of the whole file.
    """
    pattern = resolve_pattern(pattern)
    size = (file_size(Path(path)) if end is None else end) - start
    counter = _ChunkCounter(pattern, special_tokens, match_budget(pattern, size))
    at_file_end = end is None
    for block, final in _read_blocks(Path(path), block_chars, start, end):
        counter.add_block(block, final and at_file_end)
    if not at_file_end:
        counter.finish_before(lookahead)
    return counter.counts


def _drop_from(chunks: list[str], end: int, cut: int) -> list[str]:
    """The chunks that start before `cut`, given chunks that end to end cover [0, end).

    Only the last few start at the cut or after it, so they are found from the end: a
    start for every chunk, in Python, was a third of counting's time beside the regex
    (CPU time counting tinyshakespeare: 0.18 s -> 0.13 s; linux_kernel_c: 0.50 s -> 0.40 s).

    >>> _drop_from(["ab", " cd", " e"], 7, 5)
    ['ab', ' cd']
    """
    keep = len(chunks)
    while keep and end - len(chunks[keep - 1]) >= cut:
        end -= len(chunks[keep - 1])
        keep -= 1
    del chunks[keep:]
    return chunks


class _ChunkCounter:
    """Accumulates chunk counts, carrying the unfinished end of each block into the next.

    What is counted before the end of a file is exactly what the whole text gives: a
    special token is taken once no longer one could start before the block's end, and
    the pattern's matches up to a place the method (`block_method`) proves exact.
    """

    def __init__(self, pattern: str, special_tokens: Iterable[str], budget: RegexBudget) -> None:
        self.compiled = compile_pattern(pattern)
        self.pattern = pattern
        self.budget = budget  # one for every match call: all segments, blocks and documents
        self.method = block_method(pattern)
        self.ahead = (match_reach(pattern) or (0, 0))[0] if self.method == "reach" else 0
        self.specials = list(special_tokens)
        self.splitter = special_splitter(self.specials)
        self.special_margin = max((len(s) for s in self.specials), default=1) - 1
        self.counts: Counter[str] = Counter()
        self.carry = ""  # text read but not counted: from where the next search starts
        self.context = ""  # counted text just before the carry, in the same segment
        self.waiting: list[str] = []  # blocks read since the carry was last looked at
        self.waiting_chars = 0

    def add_text(self, text: str) -> None:
        self.add_block(text, final=True)

    def add_block(self, block: str, final: bool) -> None:
        self.waiting.append(block)
        self.waiting_chars += len(block)
        # subtle: text with no exact cut is carried on; looking at it again after every
        # block would cost its length squared, so wait for as much new text as is carried
        if not final and self.waiting_chars < len(self.carry):
            return
        buffer = self.carry + "".join(self.waiting)
        self.carry, self.waiting, self.waiting_chars = "", [], 0
        pieces = list(split_specials(buffer, self.splitter))
        # A special token found before `limit` is the one the whole text has there;
        # from `limit` on, a longer one may yet start that the next block completes.
        limit = len(buffer) if final else self._first_possible_special(buffer)
        context, start = self.context, 0
        for index, (piece, is_special) in enumerate(pieces):
            end = start + len(piece)
            if is_special:
                settled = start < limit
            else:  # a whole segment when the file ends or a settled special follows it
                settled = final or (index + 1 < len(pieces) and end < limit)
            if not settled:
                break
            if not is_special:
                self._add(self._matches(piece, context))
            context, start = "", end  # a segment after a special token starts afresh
        else:
            # subtle: an empty non-final block (a character split across 1-byte reads)
            # settles nothing; the text before the carry is still what lookbehinds see
            self.context = "" if final else context
            return
        open_text = "" if pieces[index][1] else buffer[start : max(start, limit)]
        rest = buffer[start + len(open_text) :]
        self.carry = self._hold_back(open_text, context) + rest

    def finish_before(self, lookahead: str) -> None:
        """Count all the carried text, which ends at a safe cut that `lookahead` follows."""
        buffer = self.carry + "".join(self.waiting)
        self.carry, self.waiting, self.waiting_chars = "", [], 0
        pieces = list(split_specials(buffer, self.splitter))  # no special crosses a safe cut
        context = self.context
        for index, (piece, is_special) in enumerate(pieces):
            if is_special:
                pass
            elif index + 1 < len(pieces):
                self._add(self._matches(piece, context))
            else:
                self._add(self._matches_before(piece + lookahead, context, len(piece)))
            context = ""
        self.context = ""

    def _hold_back(self, text: str, context: str) -> str:
        """Count the open end of a segment as far as is exact; return the rest to carry."""
        if self.method == "cuts":
            cut = self._safe_cut(text)
            self._add(self._matches_before(text, context, cut))
            self.context = (context + text[:cut])[-LOOKBEHIND_CONTEXT:]
            return text[cut:]
        if self.method == "reach" and text:
            return self._count_reachable(text, context)
        self.context = context
        return text

    def _safe_cut(self, text: str) -> int:
        """The last safe cut in `text` with a character of `text` after it; 0 if none.

        Matches of the GPT patterns look ahead (`\\s++$`, o200k's `'re` suffix), so the
        end of a match is not a safe cut; SAFE_CUT_PATTERN's places are (see there).
        """
        found = CUT_POINT.search(text, 1, len(text))  # searches backwards: the last one
        return found.start() if found is not None else 0

    def _count_reachable(self, text: str, context: str) -> str:
        """Count the matches that start at least `ahead` characters before the end.

        Such a match attempt, like every failed one before it, read only text that is
        here (match_reach bounds it), so it is the one the whole text has.
        """
        assert self.compiled is not None
        source, offset = context + text, len(context)
        last_exact = len(source) - self.ahead  # the last start whose attempt is exact
        resume = offset
        try:
            with self.budget.match_call() as timeout:
                for match in self.compiled.finditer(source, pos=offset, timeout=timeout):
                    if match.start() > last_exact:
                        break
                    self._add((match.group(),))
                    resume = match.end()
        except BudgetSpent as spent:
            raise timed_out(self.compiled, spent) from None
        # Attempts up to last_exact failed wherever no match was found: skip them.
        resume = max(resume, min(last_exact + 1, len(source)))
        self.context = source[max(0, resume - LOOKBEHIND_CONTEXT) : resume]
        return source[resume:]

    def _matches_before(self, tail: str, context: str, cut: int) -> list[str]:
        """The matches that start before `cut`, with the text going on past it.

        subtle: matching `tail[:cut]` alone would put the end of the string at the cut,
        where `\\s++$` matches; one more character keeps `$` from matching there.
        """
        if cut == 0:
            return []
        text = tail[: cut + 1]
        chunks = self._contiguous_matches(text, context)
        if chunks is not None:
            return _drop_from(chunks, len(text), cut)
        chunks, starts = self._matches_with_starts(text, context)
        return [chunk for chunk, start in zip(chunks, starts) if start < cut]

    def _contiguous_matches(self, text: str, context: str) -> list[str] | None:
        """The matches in `text` when they cover it end to end (the presets' do), else None."""
        if self.compiled is None or self.compiled.groups:
            return None
        source = context + text
        try:
            with self.budget.match_call() as timeout:
                chunks = self.compiled.findall(source, pos=len(context), timeout=timeout)
        except BudgetSpent as spent:
            raise timed_out(self.compiled, spent) from None
        return chunks if sum(map(len, chunks)) == len(text) else None

    def _first_possible_special(self, text: str) -> int:
        """The first place near the end where a special token may begin; len(text) if none."""
        low = max(0, len(text) - self.special_margin)
        for p in range(low, len(text)):
            if any(special.startswith(text[p:]) for special in self.specials):
                return p
        return len(text)

    def _matches(self, text: str, context: str) -> list[str]:
        if self.compiled is None:
            return [text] if text else []
        if not context:
            return split_chunks(text, self.compiled, budget=self.budget)
        if self.compiled.groups == 0:
            try:
                with self.budget.match_call() as timeout:
                    return self.compiled.findall(context + text, pos=len(context), timeout=timeout)
            except BudgetSpent as spent:
                raise timed_out(self.compiled, spent) from None
        return self._matches_with_starts(text, context)[0]

    def _matches_with_starts(self, text: str, context: str) -> tuple[list[str], list[int]]:
        """Matches in `text` and where each starts; `context` is seen by lookbehinds only."""
        assert self.compiled is not None
        source, offset = context + text, len(context)
        try:
            with self.budget.match_call() as timeout:
                chunks = self.compiled.findall(source, pos=offset, timeout=timeout)
            if self.compiled.groups == 0 and sum(map(len, chunks)) == len(text):
                starts, position = [], 0
                for chunk in chunks:
                    starts.append(position)
                    position += len(chunk)
                return chunks, starts
            with self.budget.match_call() as timeout:
                found = list(self.compiled.finditer(source, pos=offset, timeout=timeout))
        except BudgetSpent as spent:
            raise timed_out(self.compiled, spent) from None
        return [m.group() for m in found], [m.start() - offset for m in found]

    def _add(self, chunks: Iterable[str]) -> None:
        self.counts.update(chunks)  # Counter keeps first-appearance order, as ties need

    def result(self) -> dict[bytes, int]:
        if self.carry or self.waiting:
            self.add_block("", final=True)
        return {
            chunk.encode("utf-8", "surrogatepass"): n for chunk, n in self.counts.items() if chunk
        }
