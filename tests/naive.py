"""Slow, obviously correct references to test the fast paths against.

The trainer is minbpe's algorithm, step for step: recount every pair of every chunk,
take `max` over a dict filled in text order (ties go to the earliest first occurrence),
replace the pair left to right. With tie_rule="lowest-ids" it takes the smallest pair
among those of the highest count instead, as the lexicographic rule proposed for minbpe.
"""

from __future__ import annotations

import regex


def get_stats(ids: list[int], counts: dict[tuple[int, int], int]) -> None:
    """[1, 2, 3, 1, 2] -> {(1, 2): 2, (2, 3): 1, (3, 1): 1}"""
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1


def merge(ids: list[int], pair: tuple[int, int], idx: int) -> list[int]:
    """[1, 1, 1], (1, 1), 9 -> [9, 1]"""
    out, i = [], 0
    while i < len(ids):
        if i < len(ids) - 1 and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def split_text(text: str, pattern: str, specials: list[str] = ()) -> list[str]:
    """Chunks in text order: cut out specials, then findall (or the whole segment)."""
    segments = [text]
    if specials:
        alternatives = "|".join(regex.escape(s) for s in sorted(specials, key=len, reverse=True))
        segments = [s for s in regex.split(alternatives, text) if s]
    if not pattern:
        return [s for s in segments if s]
    compiled = regex.compile(pattern)
    return [m.group() for s in segments for m in compiled.finditer(s) if m.group()]


def naive_train(
    chunks: list[str], num_merges: int, min_count: int = 1, tie_rule: str = "first-occurrence"
) -> list[dict]:
    """minbpe's RegexTokenizer.train, recording what our MergeStep records."""
    ids = [list(chunk.encode("utf-8")) for chunk in chunks]
    steps = []
    for i in range(num_merges):
        stats: dict[tuple[int, int], int] = {}
        for chunk_ids in ids:
            get_stats(chunk_ids, stats)
        if not stats:
            break
        if tie_rule == "lowest-ids":
            top = max(stats.values())
            tied = sorted(p for p, c in stats.items() if c == top)
            pair = tied[0]
        else:
            pair = max(stats, key=stats.get)
            tied = [p for p, c in stats.items() if c == stats[pair]]
        if stats[pair] < min_count:
            break
        before = sum(map(len, ids))
        ids = [merge(chunk_ids, pair, 256 + i) for chunk_ids in ids]
        after = sum(map(len, ids))
        ties = [p for p in tied if p != pair][:5]
        steps.append(
            {
                "pair": pair,
                "count": stats[pair],
                "merged": before - after,
                "length_after": after,
                "ties": tuple(ties),
            }
        )
    return steps


def fast_steps(history) -> list[dict]:
    """Our MergeHistory in naive_train's shape."""
    return [
        {
            "pair": s.pair,
            "count": s.count,
            "merged": s.merged,
            "length_after": s.length_after,
            "ties": s.ties,
        }
        for s in history.steps
    ]


def naive_encode(
    text_chunks: list[str], merges: list[tuple[int, int]], byte_ids: list[int] | None = None
) -> list[int]:
    """minbpe's encode_chunk over each chunk: lowest-rank pair first.

    byte_ids[b] is byte b's id where the bytes are not ids 0-255 in order (GPT-2's).
    """
    ranks = {pair: 256 + i for i, pair in enumerate(merges)}
    out: list[int] = []
    for chunk in text_chunks:
        ids = list(chunk.encode("utf-8"))
        if byte_ids is not None:
            ids = [byte_ids[b] for b in ids]
        while len(ids) >= 2:
            stats: dict[tuple[int, int], int] = {}
            get_stats(ids, stats)
            pair = min(stats, key=lambda p: ranks.get(p, float("inf")))
            if pair not in ranks:
                break
            ids = merge(ids, pair, ranks[pair])
        out.extend(ids)
    return out
