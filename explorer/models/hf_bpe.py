"""Hugging Face's BPE model replayed on one pre-token, every merge recorded.

A copy of `tokenizers`' `models/bpe/model.rs` (merge_word, tokenize) and `word.rs`
(merge_all), step for step, so that the merges it reports are the ones the library applies:

- a pre-token that is a whole vocabulary token is taken whole when `ignore_merges` is set;
- each character (with the continuing-subword prefix after the first, the end-of-word
  suffix on the last) is a vocabulary token, or its bytes as `<0xAB>` tokens with
  byte_fallback, or `unk` (runs of unknown characters fused into one with fuse_unk), or
  is dropped when there is no unk token;
- merges come off a heap one at a time, the lowest (rank, position) first, where position
  is the left symbol's place among the starting symbols; an entry whose pair has changed
  since it was pushed is skipped. (Not minbpe's "every occurrence of the best pair at
  once": with "aaa" and the merge a+a, the first two merge and the third stays.)

    >>> vocab = {"a": 0, "b": 1, "aa": 2, "ab": 3, "aab": 4}
    >>> table = MergeTable.from_lists([0, 0, 2], [0, 1, 1], [2, 3, 4])
    >>> run = replay("aaab", BpeModel(vocab, table, BpeOptions()))
    >>> run.start_ids, run.final_ids, [(s.merge.rank, s.position) for s in run.steps]
    ((0, 0, 0, 1), (2, 3), [(0, 0), (1, 1)])
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from explorer.models.hf_file import BpeOptions
from explorer.models.merge_table import MergeTable
from explorer.models.model import ModelMerge, TraceStep


@dataclass(frozen=True)
class BpeModel:
    """The parts of a tokenizer.json's BPE model that turn a pre-token into ids."""

    vocab: dict[str, int]
    merges: MergeTable
    options: BpeOptions


@dataclass(frozen=True)
class WordRun:
    """One pre-token: its starting ids, the merges applied in order, its final ids."""

    start_ids: tuple[int, ...]
    steps: tuple[TraceStep, ...]
    final_ids: tuple[int, ...]
    whole: bool = False


class WordCache:
    """Runs of pre-tokens met before (words repeat: "the", " of"), their steps numbered
    from 1; at most `size` words of at most 256 characters, as the library's own cache."""

    def __init__(self, size: int = 20_000) -> None:
        self.size = size
        self.runs: dict[str, WordRun] = {}

    def replay(self, word: str, model: BpeModel, first_step: int = 1) -> WordRun:
        """`replay(word, model, first_step)`, from the cache when the word was met."""
        run = self.runs.get(word)
        if run is None:
            run = replay(word, model)
            if len(word) <= 256 and len(self.runs) < self.size:
                self.runs[word] = run
        if first_step == 1 or not run.steps:
            return run
        shift = first_step - 1
        steps = tuple(TraceStep(s.step + shift, s.merge, s.position) for s in run.steps)
        return WordRun(run.start_ids, steps, run.final_ids, run.whole)


def replay(word: str, model: BpeModel, first_step: int = 1) -> WordRun:
    """The library's tokenize on one pre-token; steps are numbered from `first_step`."""
    if not word:
        return WordRun((), (), ())
    if model.options.ignore_merges and word in model.vocab:
        token_id = model.vocab[word]
        return WordRun((token_id,), (), (token_id,), whole=True)
    start = start_symbols(word, model)
    steps, final = merge_all(start, model.merges, first_step)
    return WordRun(tuple(start), tuple(steps), tuple(final))


def start_symbols(word: str, model: BpeModel) -> list[int]:
    """merge_word's first half: the ids a pre-token starts as, before any merge.

    >>> model = BpeModel({"<0xC3>": 7, "<0xA9>": 8, "<unk>": 9, "x": 1}, MergeTable.from_lists(
    ...     [], [], []), BpeOptions(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    >>> start_symbols("xé", model)
    [1, 7, 8]
    """
    options, vocab = model.options, model.vocab
    prefix, suffix = options.continuing_subword_prefix, options.end_of_word_suffix
    ids: list[int] = []
    unk: int | None = None  # subtle: a pending unk, added when a known symbol comes
    unk_id = vocab.get(options.unk_token) if options.unk_token is not None else None
    last = len(word) - 1
    for index, char in enumerate(word):
        symbol = (prefix if index else "") + char + (suffix if index == last else "")
        found = vocab.get(symbol)
        if found is not None:
            if unk is not None:
                ids.append(unk)
                unk = None
            ids.append(found)
            continue
        if options.byte_fallback:
            codes = [vocab.get(f"<0x{byte:02X}>") for byte in symbol.encode("utf-8")]
            if all(code is not None for code in codes):
                # subtle: as the library does, a pending unk is not flushed here
                ids.extend(code for code in codes if code is not None)
                continue
        if options.unk_token is not None and unk_id is not None:
            if unk is not None and not options.fuse_unk:
                ids.append(unk)
            unk = unk_id
    if unk is not None:
        ids.append(unk)
    return ids


def merge_all(
    start: list[int], merges: MergeTable, first_step: int = 1
) -> tuple[list[TraceStep], list[int]]:
    """word.rs's merge_all: the merges applied, in order, and the ids left."""
    symbols = list(start)
    count = len(symbols)
    ranks, results = merges.pair_ranks(), merges.result
    after = [*range(1, count), -1]
    before = list(range(-1, count - 1))
    alive = _AliveCount(count)
    heap = [
        (rank, pos, results[rank])
        for pos in range(count - 1)
        if (rank := ranks.get((symbols[pos] << 32) | symbols[pos + 1])) is not None
    ]
    heapq.heapify(heap)
    steps: list[TraceStep] = []
    while heap:
        rank, pos, made = heapq.heappop(heap)
        right = after[pos]
        if symbols[pos] < 0 or right < 0:
            continue  # removed, or the last symbol
        current = ranks.get((symbols[pos] << 32) | symbols[right])
        if current is None or results[current] != made:
            continue  # the pair changed since this entry was pushed
        merge = ModelMerge(rank, symbols[pos], symbols[right], made)
        steps.append(TraceStep(first_step + len(steps), merge, alive.before(pos)))
        symbols[pos], symbols[right] = made, -1
        alive.remove(right)
        after[pos] = after[right]
        if after[pos] >= 0:
            before[after[pos]] = pos
        for left in (before[pos], pos):
            if left >= 0 and after[left] >= 0:
                found = ranks.get((symbols[left] << 32) | symbols[after[left]])
                if found is not None:
                    heapq.heappush(heap, (found, left, results[found]))
    return steps, [symbol for symbol in symbols if symbol >= 0]


class _AliveCount:
    """How many symbols are still alive before a position (a Fenwick tree): a step's
    position in the current symbol list, in O(log n) on a pre-token of thousands."""

    def __init__(self, size: int) -> None:
        # every symbol alive: node i covers the lowest set bit of i's count of ones
        self.tree = [index & -index for index in range(size + 1)]

    def remove(self, pos: int) -> None:
        index = pos + 1
        while index < len(self.tree):
            self.tree[index] -= 1
            index += index & -index

    def before(self, pos: int) -> int:
        total, index = 0, pos
        while index > 0:
            total += self.tree[index]
            index -= index & -index
        return total
