"""A lesson file's content: a run's first N merges on a passage, step by step, as data.

Everything the file shows is computed here with the Animate page's own helpers, so it
says what the app says: the narration (`narration`), the merge card (`merge_card_html`),
the passage before and after each merge (`passage_frame`, coloured by token_html), the
pair table of the training corpus (explorer.analysis.pairs.pair_table) and the two charts' values.
ui/animate/lesson/page.py turns it into one self-contained HTML page.

The passage is sent once, as its bytes' ids, and each step as the positions where its
merge fused (left token, in the sequence before it): the page replays them, so a step
costs a few numbers, not a rendering.

    >>> from explorer import train
    >>> result = train("aaabdaaabac", 259, pattern="none")
    >>> data = lesson_data(result.history, result.tokenizer, "aaabdaaabac", steps=30)
    >>> data["steps"], data["start"][:4], data["fusions"]
    (3, [97, 97, 97, 98], [[0, 5], [0, 4], [0, 3]])
    >>> replay(data["start"], data["fusions"][:1], 256)
    [256, 97, 98, 100, 256, 97, 98, 97, 99]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from explorer import Encoding, MergeHistory, Tokenizer, tokens_to_html
from explorer.analysis.pairs.pair_table import (
    PairTable,
    describe_tie,
    pair_table,
    tables_along,
)
from explorer.html.token_html import token_title
from ui.animate import animation as anim
from ui.animate import charts as charts

DEFAULT_LESSON_STEPS = 30
MAX_LESSON_STEPS = 500  # a step costs two encodes of the passage and a pair table
TABLE_ROWS = 10
NO_CORPUS_NOTE = (
    "No pair table: this tokenizer's training corpus is not in the app, so its pair "
    "counts cannot be recounted. The narration and charts come from its merge history."
)
MISMATCH_NOTE = (
    "No pair table: recounting the corpus did not choose this run's merges (its tie "
    "rule is not one the table knows), so a table would contradict the narration."
)


class LessonError(ValueError):
    """A lesson that cannot be made, with what to do instead."""


def lesson_steps(history: MergeHistory, requested: int) -> int:
    """How many merges a lesson can hold: the number asked, capped by the run's merges.

    >>> from explorer import train
    >>> lesson_steps(train("aaabdaaabac", 259, pattern="none").history, 30)
    3
    """
    if not history.steps:
        raise LessonError(anim.no_steps_message(history))
    if type(requested) is not int or requested < 1:
        raise LessonError(
            f"the number of merges must be a whole number of at least 1 ({requested!r})"
        )
    return min(requested, len(history.steps), MAX_LESSON_STEPS)


def replay(start: Sequence[int], fusions: Sequence[Sequence[int]], first_id: int) -> list[int]:
    """The passage after the given steps: each fuses the pairs at its left positions.

    What the lesson page's script does, here to test the data against the encoder.

    >>> replay([97, 97, 97], [[0]], 256)
    [256, 97]
    """
    ids = list(start)
    for offset, lefts in enumerate(fusions):
        for shift, left in enumerate(lefts):
            at = left - shift  # each earlier fusion in this step shortened the list by one
            ids[at : at + 2] = [first_id + offset]
    return ids


def lesson_data(
    history: MergeHistory,
    tokenizer: Tokenizer,
    passage: str,
    *,
    steps: int = DEFAULT_LESSON_STEPS,
    chunk_counts: Mapping[bytes, int] | None = None,
    tie_rule: str | None = None,
    title: str = "BPE lesson",
) -> dict[str, Any]:
    """Everything the lesson page shows, as JSON-ready values (text not yet escaped).

    ValueError (LessonError, or the encoder's) when there is nothing to show.
    """
    last = lesson_steps(history, steps)
    frames = _passage_steps(tokenizer, passage, last)
    data: dict[str, Any] = {
        "title": title,
        "steps": last,
        "merges": len(history.steps),
        "passage_chars": len(passage),
        "start": frames[0].after.ids,
        "fusions": [list(frame.pair_positions[::2]) for frame in frames[1:]],
        "narration": [anim.narration(history, k, tokenizer) for k in range(last + 1)],
        "captions": [""] + [anim.passage_caption(frame) for frame in frames[1:]],
        "cards": [""] + [_card_body(tokenizer, history, k) for k in range(1, last + 1)],
        "chart": _chart_values(history, tokenizer, last),
    }
    rule = str(tie_rule or history.tie_rule)  # the run's own rule, unless told another
    tables, note = _tables(history, chunk_counts, last, rule)
    data["tables"], data["table_note"] = tables, note
    used = _used_tokens(frames, history, tables, last)
    data["palette"] = used
    data["tokens"] = {str(t): _token_entry(tokenizer, t) for t in used}
    return data


def palette_html(tokenizer: Tokenizer, used: Sequence[int], *, show_ids: bool) -> str:
    """One chip per used token, rendered by token_html as the app renders a passage.

    The page clones these chips; their stylesheet colours every chip on the page.
    """
    return tokens_to_html(
        tokenizer, list(used), visible_whitespace=True, show_ids=show_ids, titles=False
    )


def card_style(tokenizer: Tokenizer, history: MergeHistory) -> str:
    """The merge card's stylesheet (the same for every card), sent once."""
    style, _ = _split_style(anim.merge_card_html(tokenizer, history.steps[0]))
    return style


# --- the pieces --------------------------------------------------------------------


def _passage_steps(tokenizer: Tokenizer, passage: str, last: int) -> list[anim.Frame]:
    """Step 0 (bytes) and the passage before and after each merge 1..last.

    As passage_frame, without its spans: one encode a step, since the passage after
    merge k - 1 is the one before merge k. Merge k fuses neighbours only, so its j-th
    new token stands where the pair's left token was, less the j earlier fusions.
    """
    before = tokenizer.at_vocab_size(256).encode(passage, allowed_special="all")
    frames = [_frame(before, before, ())]
    for step in range(1, last + 1):
        after = tokenizer.at_vocab_size(256 + step).encode(passage, allowed_special="all")
        fused = tuple(i for i, token in enumerate(after) if token == 255 + step)
        frames.append(_frame(before, after, fused))
        before = after
    return frames


def _frame(before: list[int], after: list[int], fused: tuple[int, ...]) -> anim.Frame:
    lefts = [position + shift for shift, position in enumerate(fused)]
    pairs = tuple(p for left in lefts for p in (left, left + 1))
    return anim.Frame(Encoding(before, [], []), Encoding(after, [], []), pairs, fused)


def _split_style(card: str) -> tuple[str, str]:
    """`<style>s</style>body` -> (s, body): merge_card_html's layout."""
    style, _, body = card.partition("</style>")
    return style.removeprefix("<style>"), body


def _card_body(tokenizer: Tokenizer, history: MergeHistory, step: int) -> str:
    return _split_style(anim.merge_card_html(tokenizer, history.steps[step - 1]))[1]


def _chart_values(history: MergeHistory, tokenizer: Tokenizer, last: int) -> dict[str, list[Any]]:
    """Per step 0..last: the merged pair's count (none at 0), corpus tokens, the merge."""
    rows = [charts.step_row(history, step, tokenizer) for step in range(last + 1)]
    return {key: [row[key] for row in rows] for key in ("count", "tokens", "merge")}


def _tables(
    history: MergeHistory, chunk_counts: Mapping[bytes, int] | None, last: int, tie_rule: str
) -> tuple[list[dict[str, Any]] | None, str]:
    """The pair table at each step 0..last (after k merges: it picks merge k + 1), as the
    Animate page shows it beside step k; or None and why.

    After the run's very last merge the table is what training would have merged next.
    """
    if chunk_counts is None:
        return None, NO_CORPUS_NOTE
    tables = []
    merges = history.merges[: last + 1]  # the merge each table picks, when there is one
    for table, merge in zip(
        tables_along(chunk_counts, merges, top=TABLE_ROWS, tie_rule=tie_rule), merges
    ):
        if table.winner is None or table.winner.pair != merge:
            return None, MISMATCH_NOTE
        tables.append(_table_entry(table))
    if len(tables) == last:  # the run's last merge: nothing of the log to check against
        final = pair_table(chunk_counts, history.merges, last, top=TABLE_ROWS, tie_rule=tie_rule)
        tables.append(_table_entry(final))
    return tables, ""


def _table_entry(table: PairTable) -> dict[str, Any]:
    """Rows as [left, right, count, winner, tied], the tie sentence, pairs not shown."""
    rows = [[r.left, r.right, r.count, r.winner, r.tied] for r in table.rows[:TABLE_ROWS]]
    return {
        "rows": rows,
        "tie": describe_tie(table),
        "distinct": table.distinct_pairs,
        "more_tied": max(0, len(table.rows) - TABLE_ROWS),
    }


def _used_tokens(
    frames: Sequence[anim.Frame],
    history: MergeHistory,
    tables: list[dict[str, Any]] | None,
    last: int,
) -> list[int]:
    """Every token the page shows, in order of first use: passage, merges, tables."""
    used: dict[int, None] = {}
    for frame in frames:
        used.update(dict.fromkeys(frame.after.ids))
    for step in history.steps[:last]:
        used.update(dict.fromkeys((step.left, step.right, step.new_id)))
    for table in tables or ():
        for left, right, *_ in table["rows"]:
            used.update(dict.fromkeys((left, right)))
    return list(used)


def _token_entry(tokenizer: Tokenizer, token: int) -> list[Any]:
    """[hover title, a line may break before it, after it] (as token_html breaks lines)."""
    data = tokenizer.token_bytes(token)
    special = token in tokenizer.special_by_id
    return [
        token_title(tokenizer, token),
        special or data[:1].isspace(),
        special or data[-1:].isspace(),
    ]
