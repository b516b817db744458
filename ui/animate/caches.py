"""Animate's shared caches: a passage encoded at a step, the step's frame, its tokens' HTML and
the run's two charts, each built once and read by every session (never changed in place).

A step forward finds its "before" here, the last step's "after": half of a step's encoding.
"""

from __future__ import annotations

from typing import Any

from explorer import Encoding, MergeHistory, Tokenizer, tokens_to_html
from explorer.html.token_cards import shared_cards_html
from ui.animate import animation as anim
from ui.animate import charts as anim_charts
from ui.server.lru import SharedLru

_encodings = SharedLru(max_entries=256, max_weight=50_000_000)  # bytes, ~200 a token


def encoding_cached(tokenizer: Tokenizer, run_key: str, vocab_size: int, passage: str) -> Encoding:
    """The passage encoded at one size of a run, shared read-only: a step forward finds
    its "before" here, the last step's "after" (half of a step's encoding)."""
    return _encodings.get_or_make(
        (run_key, vocab_size, passage),
        lambda: tokenizer.encode_with_spans(passage, allowed_special="all"),
        lambda encoding: 200 * len(encoding.ids),
    )


def frame_cached(
    before: Tokenizer, after: Tokenizer, run_key: str, step: int, passage: str
) -> anim.Frame:
    """The passage just before and after merge `step` (step 0: bytes, twice)."""
    end = encoding_cached(after, run_key, 256 + step, passage)
    start = encoding_cached(before, run_key, 255 + step, passage) if step else end
    return anim.frame_of(start, end, 255 + step if step else None)


_passages = SharedLru(max_entries=256, max_weight=64_000_000)  # ~170 KB a default passage
_charts = SharedLru(max_entries=64)  # one per run on screen in any session


def charts_cached(
    history: MergeHistory, tokenizer: Tokenizer, run_key: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The run's two charts as Vega-Lite (thinned for long histories), built once; shared
    read-only (`anim_charts.marked` copies what it changes)."""

    return _charts.get_or_make(
        run_key, lambda: anim_charts.run_charts(history, tokenizer), lambda _: 0
    )


def passage_html(
    tokenizer: Tokenizer,
    run_key: str,
    passage: str,
    ids: list[int],
    *,
    show_ids: bool,
    titles: bool,
) -> str:
    """The passage's tokens at the tokenizer's size, built once and shared (read only);
    their cards are the stage's (`cards_html`), one block for both passages."""
    return _passages.get_or_make(
        (run_key, tokenizer.vocab_size, passage, show_ids, titles),
        lambda: tokens_to_html(
            tokenizer,
            ids,
            visible_whitespace=True,
            show_ids=show_ids,
            titles=titles,
            cards=anim.STAGE_CARDS,
        ),
        len,  # bytes, near enough: the HTML is mostly ASCII
    )


def cards_html(after: Tokenizer, run_key: str, passage: str, frame: anim.Frame) -> str:
    """The cards of every token in the step's passages (before and after), one each, for
    the stage's `passage_html`s; built once per step and shared (read only)."""
    tokens = dict.fromkeys([*frame.before.ids, *frame.after.ids])
    return _passages.get_or_make(
        (run_key, after.vocab_size, passage, anim.STAGE_CARDS),
        lambda: shared_cards_html(after, tokens, anim.STAGE_CARDS),
        len,
    )
