"""The classic example, `aaabdaaabac`, merge by merge, as the front door plays it.

Animate's own pieces (ui/animate/animation.py): the merge card, the narration, the passage
before and after the merge; here on a loop of its four steps, step 0 (the bytes) to 3.

    >>> [step.tokens for step in example_steps()]
    [11, 9, 7, 5]
    >>> example_steps()[1].merge_text
    "'a' + 'a' → 'aa' (token 256)"
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from explorer import Tokenizer, tokens_to_html, train
from explorer.html.render import render_token
from ui.animate import animation as anim
from ui.views.token_text import paragraph_html

EXAMPLE = "aaabdaaabac"
EXAMPLE_MERGES = 3  # aa, aaa... as Wikipedia's article on BPE tells it: 11 bytes to 5 tokens


@dataclass(frozen=True)
class ExampleStep:
    """One step of the example: its HTML (safe), its tokens, and the merge in words."""

    html: str
    tokens: int
    merge_text: str


@functools.cache
def example_steps() -> tuple[ExampleStep, ...]:
    """Every step of the example, built once per process (a few kilobytes of HTML)."""
    result = train(EXAMPLE, 256 + EXAMPLE_MERGES, pattern="none")
    tokenizer, history = result.tokenizer, result.history
    steps = []
    for step in range(len(history.steps) + 1):
        after = tokenizer.at_vocab_size(256 + step)
        before = tokenizer.at_vocab_size(255 + step) if step else after
        new_id = history.steps[step - 1].new_id if step else None
        frame = anim.passage_frame(before, after, EXAMPLE, new_id)
        told = [paragraph_html(anim.narration(history, step, tokenizer))]
        label = f"After step {step}" if step else "The text as bytes"
        passage = tokens_to_html(after, frame.after.ids, visible_whitespace=True)
        pane = anim.pane_html(label, len(frame.after.ids), passage, frame.fused_positions)
        merge_text = ""
        if step:
            merge = history.steps[step - 1]
            told.insert(0, anim.merge_card_html(tokenizer, merge))
            merge_text = (
                f"{_shown(tokenizer, merge.left)} + {_shown(tokenizer, merge.right)} → "
                f"{_shown(tokenizer, merge.new_id)} (token {merge.new_id})"
            )
        stage = f'<div class="front-example">{anim.stage_html([pane])}</div>'
        html = "".join([f"<style>{_STYLE}</style>", *told, stage])
        steps.append(ExampleStep(html, len(frame.after.ids), merge_text))
    return tuple(steps)


_STYLE = ".front-example .bpe{font-size:1.6rem;line-height:2.2}"  # the passage, readable


def _shown(tokenizer: Tokenizer, token: int) -> str:
    return repr(render_token(tokenizer.token_bytes(token)))
