"""Tokens, encode step by step: what a step of an encoding trace says, in words and HTML.

Pure: no Streamlit. Steps are numbered through the whole text, from 1; step 0 is every
chunk as its bytes. Merges are numbered from 1 (merge k makes token 255 + k).

    >>> from explorer.encoding.encode_trace import trace_encoding
    >>> tok = Tokenizer([(99, 100), (97, 98)])  # merge 1: 'c' + 'd', merge 2: 'a' + 'b'
    >>> print(narration(tok, trace_encoding(tok, "abcd"), 1))  # doctest: +NORMALIZE_WHITESPACE
    Step 1 of 2, in 'abcd': 2 adjacent pairs have a merge: ('a', 'b') is merge 2 and
    ('c', 'd') is merge 1. The lowest number goes first: merge 1 fuses ('c', 'd') into
    token 256 'cd', 1 time. Reading order does not matter: ('a', 'b') comes first in the
    chunk, but training learned it later (merge 2).
"""

from __future__ import annotations

import html

from explorer import Tokenizer, render_token, tokens_to_html
from explorer.encoding.encode_trace import (
    Candidate,
    ChunkTrace,
    EncodeStep,
    EncodeTrace,
    fused_positions,
    fused_starts,
)
from explorer.html.render import TEXT_COLOR, TEXT_COLOR_DARK, token_color
from explorer.html.scheme import DARK_PAGE, LIGHT_PAGE, declare, light_dark
from ui.views.formatting import plural
from ui.views.token_text import pair_text, quoted, times

LISTED_CANDIDATES = 3  # more candidates than this are named by the chips, not the sentence
WHY_THIS_ORDER = (
    "Why this order? Encoding does not read left to right, and it does not count pairs in "
    "your text. Inside each chunk it applies, among the pairs present, the merge that "
    "training learned first (the lowest merge number), wherever it sits; then it looks "
    "again. A merge's number comes from how often its pair appeared in the training "
    "corpus when it was learned, so a pair at the end of a word can fuse before one at its "
    "start, and a pair seen once here can beat one seen three times."
)


def chunk_name(tokenizer: Tokenizer, chunk: ChunkTrace) -> str:
    """A chunk as the narration quotes it: `'·the'`."""
    return quoted(chunk.text.encode("utf-8", "surrogatepass"))


def narration(tokenizer: Tokenizer, trace: EncodeTrace, number: int) -> str:
    """What step `number` of the text did and why (0: the chunks as bytes)."""
    steps = trace.steps
    if number <= 0 or not steps:
        return start_sentence(trace, len(steps))
    found = steps[min(number, len(steps)) - 1]
    chunk = trace.chunks[found.chunk]
    step = found.step
    where = f"in {chunk_name(tokenizer, chunk)}"
    if len(trace.chunks) > 1:
        where = f"in chunk {found.chunk + 1} of {len(trace.chunks)}, {chunk_name(tokenizer, chunk)}"
    lead = "The lowest number goes first: merge" if len(step.candidates) > 1 else "So merge"
    sentences = [
        f"Step {found.number} of {len(steps)}, {where}: {candidates_sentence(tokenizer, step)}",
        f"{lead} {step.merge_number} fuses {pair_text(tokenizer, step.pair)} into token "
        f"{step.new_id} {quoted(tokenizer.token_bytes(step.new_id))}, "
        f"{times(len(fused_starts(step)))}.",
    ]
    reasons = order_sentence(tokenizer, step)
    if reasons:
        sentences.append(reasons)
    if found.index == len(chunk.steps) - 1:
        sentences.append(
            f"No pair in this chunk has a merge now: it ends as "
            f"{plural(len(step.ids_after), 'token')}."
        )
    if found.number == len(steps):
        sentences.append(
            f"That was the last merge: the text is {plural(len(trace.ids), 'token')}, "
            "exactly the ids encode gives."
        )
    return " ".join(sentences)


def start_sentence(trace: EncodeTrace, step_count: int) -> str:
    """Step 0: the chunks pre-tokenisation made, each as its bytes."""
    byte_count = sum(len(chunk.start_ids) for chunk in trace.chunks)
    chunks = plural(len(trace.chunks), "chunk")
    if step_count == 0:
        return (
            f"Pre-tokenisation cut the text into {chunks}; no adjacent pair in any of them "
            f"has a merge, so its {plural(byte_count, 'token')} stay as they are."
        ) + outside_sentence(trace)
    each = "it starts" if len(trace.chunks) == 1 else "each starts"
    return (
        f"Step 0 of {step_count}: pre-tokenisation cut the text into {chunks}, and {each} "
        f"as its bytes ({plural(byte_count, 'token')} in all). Merges never cross a "
        "chunk's edge. Each step takes one chunk, finds every adjacent pair that has a "
        "merge, and fuses the one with the lowest merge number."
    ) + outside_sentence(trace)


def outside_sentence(trace: EncodeTrace) -> str:
    """For chunks taken whole as a token no merge makes: which, and why ("" when none).

    >>> from explorer.encoding.encode_trace import trace_encoding
    >>> tok = Tokenizer(pattern=r"\\w+|\\W", outside_merges={256: b"xyz"})
    >>> outside_sentence(trace_encoding(tok, "xyz xyzw"))[-58:]
    "encoding takes it whole, with no merge: 'xyz' (token 256)."
    """
    whole = [chunk for chunk in trace.chunks if chunk.outside]
    if not whole:
        return ""
    named = ", ".join(
        f"{quoted(c.text.encode('utf-8', 'surrogatepass'))} (token {c.start_ids[0]})"
        for c in whole[:LISTED_CANDIDATES]
    )
    more = f" and {len(whole) - LISTED_CANDIDATES} more" if len(whole) > LISTED_CANDIDATES else ""
    return (
        f" {plural(len(whole), 'chunk')} {'is' if len(whole) == 1 else 'are'} exactly a "
        "token that no merge makes (outside the merge path, listed by the file), so "
        f"encoding takes {'it' if len(whole) == 1 else 'each'} whole, with no merge: "
        f"{named}{more}."
    )


def candidates_sentence(tokenizer: Tokenizer, step: EncodeStep) -> str:
    """`2 adjacent pairs have a merge: ('a', 'b') is merge 3 and ...`."""
    parts = [f"{pair_text(tokenizer, c.pair)} is merge {c.merge_number}" for c in step.candidates]
    if len(parts) == 1:
        return f"1 adjacent pair has a merge: {parts[0]}."
    if len(parts) > LISTED_CANDIDATES:  # the chips list them; a sentence of six is a wall
        numbers = sorted(c.merge_number for c in step.candidates)
        return (
            f"{len(parts)} adjacent pairs have a merge, numbered {numbers[0]} to "
            f"{numbers[-1]} (listed below)."
        )
    listed = ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{len(parts)} adjacent pairs have a merge: {listed}."


def order_sentence(tokenizer: Tokenizer, step: EncodeStep) -> str:
    """Why the winner is not the first pair read, nor the most frequent pair here."""
    first = step.candidates[0]
    sentences = []
    if first is not step.chosen:
        sentences.append(
            f"Reading order does not matter: {pair_text(tokenizer, first.pair)} comes first "
            f"in the chunk, but training learned it later (merge {first.merge_number})."
        )
    commonest = max(step.candidates, key=lambda c: len(c.positions))
    if len(commonest.positions) > len(step.chosen.positions):
        sentences.append(
            f"Nor does frequency here: {pair_text(tokenizer, commonest.pair)} appears "
            f"{times(len(commonest.positions))} in this chunk, yet merge "
            f"{commonest.merge_number} comes later."
        )
    return " ".join(sentences)


# --- HTML ------------------------------------------------------------------------------

_STYLE = (
    ".es-list{display:flex;flex-wrap:wrap;gap:.4rem;margin:.2rem 0 .4rem 0!important;"
    "padding:0!important;list-style:none}"
    ".es-list>li{margin:0!important}"
    # every colour light and dark (explorer.html.scheme); the lowest pair's chip is
    # #3D3413 under light text on a dark page (11:1)
    ".es-tok{padding:0 .15rem;border-radius:3px;box-shadow:inset 0 0 0 1px rgba(0,0,0,.2);"
    f"box-shadow:inset 0 0 0 1px {light_dark('rgba(0,0,0,.2)', 'rgba(255,255,255,.3)')}}}"
    ".es-cand{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;"
    "padding:.15rem .5rem;border-radius:6px;border:1px solid #8A8F98;"
    f"{declare('background', LIGHT_PAGE, DARK_PAGE)};"
    f"{declare('color', TEXT_COLOR, TEXT_COLOR_DARK)};white-space:pre}}"
    f".es-low{{border:3px solid #000;border-color:{light_dark('#000', '#FFF')};font-weight:700;"
    f"{declare('background', '#FFF3B0', '#3D3413')}}}"
    ".es-num{font-family:sans-serif;font-size:.85em;margin-left:.35rem}"
    ".es-big .es-cand{font-size:1.6rem}"
)


def candidates_html(tokenizer: Tokenizer, step: EncodeStep, *, large: bool = False) -> str:
    """The candidate pairs as chips in reading order, each with its merge number; the
    lowest (the one that fuses) is marked in words as well as by its border."""
    items = "".join(
        _candidate_chip(tokenizer, candidate, candidate is step.chosen)
        for candidate in step.candidates
    )
    size = " es-big" if large else ""
    return (
        f"<style>{_STYLE}</style><div class='es{size}'>"
        f"<ul class='es-list' aria-label='Pairs that have a merge'>{items}</ul></div>"
    )


def _candidate_chip(tokenizer: Tokenizer, candidate: Candidate, lowest: bool) -> str:
    left, right = (_pair_part(tokenizer, token) for token in candidate.pair)
    count = len(candidate.positions)
    seen = f" ×{count}" if count > 1 else ""
    mark = " · lowest: fuses now" if lowest else ""
    css = "es-cand es-low" if lowest else "es-cand"
    return (
        f"<li class='{css}' data-merge='{candidate.merge_number}'>{left} + {right}"
        f"<span class='es-num'>merge {candidate.merge_number}{seen}{mark}</span></li>"
    )


def _pair_part(tokenizer: Tokenizer, token: int) -> str:
    """One side of a pair, escaped, in the colour it has in the chunk above."""
    text = html.escape(render_token(tokenizer.token_bytes(token), visible_whitespace=True))
    style = declare("background", token_color(tokenizer, token))
    return f"<span class='es-tok' style='{style}'>{text}</span>"


# a chunk has no spaces, so tokens_to_html's lines would break inside a token; as
# inline blocks, its tokens wrap between each other instead
_CHUNK_STYLE = "<style>.es-chunk .bpe>span{display:inline-block}</style>"


def chunk_html(tokenizer: Tokenizer, ids: tuple[int, ...], marked: tuple[int, ...]) -> str:
    """A chunk's tokens as the page's coloured chips (escaped), with ids, `marked` outlined."""
    tokens = tokens_to_html(
        tokenizer, ids, visible_whitespace=True, show_ids=True, highlight=set(marked)
    )
    return f"{_CHUNK_STYLE}<div class='es-chunk'>{tokens}</div>"


def step_positions(step: EncodeStep) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The tokens that fuse, in ids_before, and the new tokens, in ids_after."""
    before = tuple(p for start in fused_starts(step) for p in (start, start + 1))
    return before, fused_positions(step)


def text_html(tokenizer: Tokenizer, trace: EncodeTrace, number: int, chunk: int = -1) -> str:
    """The whole text after `number` steps: every chunk's tokens, in order; the tokens of
    chunk number `chunk` (from 0) outlined."""
    ids: list[int] = []
    marked: list[int] = []
    for index, chunk_ids in enumerate(trace.ids_at(number)):
        if index == chunk:
            marked += range(len(ids), len(ids) + len(chunk_ids))
        ids += chunk_ids
    return tokens_to_html(
        tokenizer, ids, visible_whitespace=True, titles=False, highlight=set(marked)
    )
