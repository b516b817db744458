"""Pure helpers of the Animate page: a passage at a step and the narration of each merge.

Step k is the tokenizer of the first k merges (vocab size 256 + k); step 0 is raw bytes.

    >>> from explorer import train
    >>> result = train("aaabdaaabac", 259, pattern="none")
    >>> print(narration(result.history, 1, result.tokenizer))  # doctest: +NORMALIZE_WHITESPACE
    Step 1: ('a', 'a') was the most frequent pair (4 times), so it becomes token 256 'aa';
    the corpus shrinks from 11 to 9 tokens. Only 2 of the 4 could be merged: in runs such as
    'aaa' the pairs overlap, and a token joins one pair at a time.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from explorer import Encoding, MergeHistory, Tokenizer, render_token
from explorer.html.render import TEXT_COLOR, TEXT_COLOR_DARK, token_color
from explorer.html.scheme import declare, light_dark
from explorer.html.token_html import OUTLINE
from explorer.training.corpus import parse_word_counts
from explorer.training.history import MergeStep, StopReason
from explorer.training.pair_queue import MAX_TIES_RECORDED
from explorer.training.tie_rules import DEFAULT_TIE_RULE, TieRule
from ui.views.formatting import excerpt
from ui.views.token_text import pair_text, quoted, times

PASSAGE_CHARS = 600  # the default passage: about this much of the corpus
MAX_PASSAGE_CHARS = 5_000  # a typed passage; keeps one step's work small


# --- the passage at a step ---------------------------------------------------------


def words_passage(table: str, limit: int = PASSAGE_CHARS) -> str:
    """The words of a `word count` table, once each: the text its merges work on.

    >>> words_passage("hug 10\\npug 5\\n")
    'hug pug'
    """
    try:
        words = parse_word_counts(table)
    except ValueError:
        return excerpt(table, limit)
    return excerpt(" ".join(words), limit)


@dataclass(frozen=True)
class Frame:
    """A passage just before and just after one merge, and where the merge happened.

    pair_positions are the left and right tokens of every occurrence that fuses, as
    positions in `before`; fused_positions are the new tokens, as positions in `after`.
    """

    before: Encoding
    after: Encoding
    pair_positions: tuple[int, ...]
    fused_positions: tuple[int, ...]

    @property
    def occurrences(self) -> int:
        return len(self.fused_positions)


def passage_frame(before: Tokenizer, after: Tokenizer, passage: str, new_id: int | None) -> Frame:
    """Encode the passage with k - 1 and k merges and find the occurrences that fuse.

    The tokenizer of k merges is the one of k - 1 merges plus one pass of merge k, so a
    new token covers exactly the two tokens that were next to each other before. A pair
    that straddles two pre-token chunks never fuses, and so is not counted.

    >>> tok = Tokenizer([(97, 97)])
    >>> frame = passage_frame(tok.at_vocab_size(256), tok, "aaab", 256)
    >>> frame.after.ids, frame.pair_positions, frame.fused_positions
    ([256, 97, 98], (0, 1), (0,))
    """
    start = before.encode_with_spans(passage, allowed_special="all")
    end = start if after is before else after.encode_with_spans(passage, allowed_special="all")
    return frame_of(start, end, new_id)


def frame_of(start: Encoding, end: Encoding, new_id: int | None) -> Frame:
    """passage_frame from the passage's encodings with k - 1 and k merges, made elsewhere
    (stepping forward, the page reuses the last step's "after" as this step's "before")."""
    fused = tuple(i for i, token in enumerate(end.ids) if token == new_id)
    starts = {end.byte_spans[i][0] for i in fused}
    pair = tuple(
        position
        for i, (first_byte, _) in enumerate(start.byte_spans)
        if first_byte in starts
        for position in (i, i + 1)
    )
    return Frame(start, end, pair, fused)


def passage_caption(frame: Frame) -> str:
    """What the merge did to the passage, in one line.

    >>> tok = Tokenizer([(97, 97)])
    >>> passage_caption(passage_frame(tok.at_vocab_size(256), tok, "aaab", 256))
    'The pair fuses 1 time in this passage (outlined): 4 → 3 tokens.'
    """
    if not frame.occurrences:
        return (
            "The pair does not fuse anywhere in this passage: it was frequent elsewhere "
            "in the corpus."
        )
    return (
        f"The pair fuses {times(frame.occurrences)} in this passage (outlined): "
        f"{len(frame.before.ids):,} → {len(frame.after.ids):,} tokens."
    )


# --- the narration -----------------------------------------------------------------


def length_before(history: MergeHistory, step: int) -> int:
    """The corpus length in tokens just before merge `step` (1-based)."""
    return history.initial_length if step <= 1 else history.steps[step - 2].length_after


def narration(history: MergeHistory, step: int, tokenizer: Tokenizer) -> str:
    """One paragraph saying what step `step` did and why; tokenizer names the tokens."""
    if step <= 0:
        return (
            "Step 0: the starting point. Every byte is its own token (256 possible), so the "
            f"corpus of {history.initial_length:,} bytes is {history.initial_length:,} tokens. "
            "Each step fuses the most frequent pair of neighbouring tokens into a new token."
        )
    merge = history.steps[step - 1]
    sentences = [
        f"Step {step}: {pair_text(tokenizer, merge.pair)} was the most frequent pair "
        f"({times(merge.count)}), so it becomes token {merge.new_id} {quoted(merge.token)}; "
        f"the corpus shrinks from {length_before(history, step):,} to "
        f"{merge.length_after:,} tokens."
    ]
    if merge.merged < merge.count:
        sentences.append(
            f"Only {merge.merged:,} of the {merge.count:,} could be merged: in runs such as "
            "'aaa' the pairs overlap, and a token joins one pair at a time."
        )
    if merge.ties:
        sentences.append(tie_sentence(merge, tokenizer, history.tie_rule))
    if step == len(history.steps):
        reason = history.stop_reason.describe()
        sentences.append(f"This is the last merge: training stopped because {reason}.")
    return " ".join(sentences)


def no_steps_message(history: MergeHistory) -> str:
    """Why there is no step to show: the run made no merges, or the sidebar views none.

    >>> from explorer import train
    >>> print(no_steps_message(train("abc", 300, pattern=".").history))
    ... # doctest: +NORMALIZE_WHITESPACE
    This run made no merges (training stopped because no pair of adjacent tokens was left
    to merge), so there is nothing to animate. Train it on a longer text, or with another
    pre-tokenizer.
    """
    if history.steps:
        return (
            "The sidebar's view size is 256, the bytes alone, so no merge is shown: "
            "slide View at vocab size up to animate the merges."
        )
    reason = history.stop_reason.describe()
    advice = (
        "Train a larger vocab."
        if history.stop_reason is StopReason.VOCAB_SIZE_REACHED
        else "Train it on a longer text, or with another pre-tokenizer."
    )
    return (
        f"This run made no merges (training stopped because {reason}), so there is "
        f"nothing to animate. {advice}"
    )


def tie_sentence(
    merge: MergeStep, tokenizer: Tokenizer, tie_rule: TieRule = DEFAULT_TIE_RULE
) -> str:
    """Name the pairs that tied with the winner and the rule that broke the tie.

    Training records the first MAX_TIES_RECORDED tied pairs and stops looking, so with
    that many the true number is "at least" it.

    >>> from explorer import train
    >>> result = train("aaabdaaabac", 259, pattern="none", tie_rule="lowest-ids")
    >>> print(tie_sentence(result.history.steps[1], result.tokenizer, TieRule.LOWEST_IDS))
    ... # doctest: +NORMALIZE_WHITESPACE
    This step was decided by a tie: ('aa', 'a') was also seen 2 times. The rule: ('a', 'b')
    tied with 1 other pair at count 2; the tie went to the pair with the lowest ids (the
    textbook rule: the smallest left id wins, then the smallest right id).
    """
    names = [pair_text(tokenizer, pair) for pair in merge.ties]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    if len(names) >= MAX_TIES_RECORDED:
        tied = f"at least {len(names)} other pairs were also seen {times(merge.count)}, "
        tied += f"among them {listed}"
    else:
        tied = f"{listed} {'was' if len(names) == 1 else 'were'} also seen {times(merge.count)}"
    others = len(names)
    others_text = f"{'at least ' if others >= MAX_TIES_RECORDED else ''}{others} other pair"
    others_text += "" if others == 1 else "s"
    return (
        f"This step was decided by a tie: {tied}. The rule: {pair_text(tokenizer, merge.pair)} "
        f"tied with {others_text} at count {merge.count:,}; the tie went to "
        f"{tie_rule.winner_phrase} ({_RULE_DETAILS[tie_rule]})."
    )


_RULE_DETAILS = {
    TieRule.FIRST_OCCURRENCE: (
        "minbpe's rule: the pair whose first occurrence comes earliest in the corpus wins"
    ),
    TieRule.LOWEST_IDS: "the textbook rule: the smallest left id wins, then the smallest right id",
}


def merge_card_html(tokenizer: Tokenizer, merge: MergeStep) -> str:
    """Big chips for `left + right → new`: every token text escaped, coloured as in the passage."""

    def chip(token: int, kind: str) -> str:
        text = html.escape(render_token(tokenizer.token_bytes(token), visible_whitespace=True))
        color = token_color(tokenizer, token)  # the passage's colour: the same token looks the same
        style = declare("background", color)  # light or dark, as in explorer.html.scheme
        return f'<span class="am-chip am-{kind}" style="{style}">{text}</span>'

    return (
        f"<style>{_CARD_STYLE}</style><div class='am-card'>"
        f"{chip(merge.left, 'part')}<span class='am-op'>+</span>{chip(merge.right, 'part')}"
        f"<span class='am-op'>→</span>{chip(merge.new_id, 'new')}"
        f"<span class='am-id'>token {merge.new_id}</span></div>"
    )


_CARD_STYLE = (
    ".am-card{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:.25rem 0}"
    ".am-chip{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;"
    "font-size:1.6rem;padding:.1rem .55rem;border-radius:6px;white-space:pre;"
    f"{declare('color', TEXT_COLOR, TEXT_COLOR_DARK)}}}"
    f".am-part,.am-new{{outline:2px solid #000;outline:2px solid {light_dark('#000', '#FFF')}}}"
    ".am-op{font-size:1.5rem;opacity:.7}"
    ".am-id{font-size:.95rem;opacity:.75;margin-left:.25rem}"
)


STAGE_CARDS = "am-cards"  # the stage's shared token cards (explorer.html.token_cards)


def pane_html(label: str, tokens: int, passage: str, outlined: Sequence[int] = ()) -> str:
    """A passage under its label: "<b>After step 3</b> · 5 tokens"; `passage` is safe HTML
    (explorer.tokens_to_html's), its tokens at `outlined` positions outlined.

    The outlines are a stylesheet of the pane's own, not classes in the passage's HTML,
    so one passage's HTML serves every step (the same tokens, outlined differently).

    >>> pane = pane_html("After step 3", 5, "<div class='bpe'></div>", [1])
    >>> pane.split("<style>")[1].split("{")[0].split(" ", 1)[1]
    '.bpe>span:nth-of-type(2)'
    >>> pane.split("</style>")[1][:49]
    '<p class="am-label"><strong>After step 3</strong>'
    """
    pane = f"am-p{next(_PANES)}"
    rules = ",".join(f".{pane} .bpe>span:nth-of-type({index + 1})" for index in outlined)
    style = f"<style>{rules}{{{OUTLINE}}}</style>" if rules else ""
    return (
        f'<div class="am-pane {pane}">{style}<p class="am-label"><strong>{html.escape(label)}'
        f"</strong> · {tokens:,} tokens</p>{passage}</div>"
    )


_PANES = itertools.count()  # a class per pane drawn, so two panes' outlines never mix


def stage_html(panes: list[str], caption: str = "") -> str:
    """A step's passages side by side (stacked on a phone) and their caption, as one block.

    One element instead of seven (two columns, two labels, two passages, a caption):
    Streamlit's cost per element (a message, its hash, a wake-up of the event loop) was
    a large part of a step's server time. `panes` are safe HTML; `caption` is plain text.

    >>> stage_html([], "a & b")  # doctest: +ELLIPSIS
    '<style>...</style><div class="am-panes"></div><p class="am-caption">a &amp; b</p>'
    """
    note = f'<p class="am-caption">{html.escape(caption)}</p>' if caption else ""
    return f'<style>{_STAGE_STYLE}</style><div class="am-panes">{"".join(panes)}</div>{note}'


_STAGE_STYLE = (
    ".am-panes{display:grid;gap:.5rem 1.5rem;"
    "grid-template-columns:repeat(auto-fit,minmax(min(100%,20rem),1fr))}"
    ".am-label{margin:0 0 .35rem}"
    # Streamlit's caption: 14 px at 60 % of the text colour (#111: 5.2:1 on white;
    # the dark theme's #EDEBE8: 6.0:1 on its page)
    ".am-caption{margin:0;font-size:.875rem;"
    f"{declare('color', 'rgba(17,17,17,.6)', 'rgba(237,235,232,.6)')}}}"
)
