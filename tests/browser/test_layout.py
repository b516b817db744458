"""Layout in a real browser: passages wrap between words; the presenter view and a phone
show what a step needs on the first screen.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from explorer import train
from explorer.render import tokens_to_html

PASSAGE = "The pair of pears paired up. Then the pair of pairs paired again, and again. " * 6

# The places where a line changes between two letters of one word (visible whitespace
# symbols count as spaces), as "a|b"; card and id text is left out.
MID_WORD_BREAKS = r"""() => {
  const found = [], range = document.createRange(), letter = /[^\s·↵→]/;
  const walker = document.createTreeWalker(document.querySelector('.bpe'),
    NodeFilter.SHOW_TEXT, {acceptNode: node => node.parentElement.closest('.d, sub')
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  let previous = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getClientRects()[0];
      if (!box) continue;
      const char = node.data[i];
      if (previous && box.top > previous.top + 2 && letter.test(previous.char)
          && letter.test(char)) found.push(previous.char + '|' + char);
      previous = {top: box.top, char};
    }
  }
  return found;
}"""


@pytest.mark.parametrize("visible_whitespace", [True, False])
@pytest.mark.parametrize("width", [160, 230, 330])
def test_passages_wrap_between_words_never_inside_one(
    page: Page, width: int, visible_whitespace: bool
) -> None:
    tokenizer = train(PASSAGE, 270, pattern="gpt4").tokenizer
    ids = tokenizer.encode(PASSAGE)
    pieces = [tokenizer.decode([token]) for token in ids]
    inside_words = [
        a + "|" + b for a, b in zip(pieces, pieces[1:]) if a[-1].isalpha() and b[0].isalpha()
    ]
    assert len(inside_words) > 50  # words of several tokens, such as " p|air"
    body = tokens_to_html(tokenizer, ids, visible_whitespace=visible_whitespace)
    page.set_content(f"<!doctype html><body style='font-size:18px;width:{width}px'>{body}")
    lines = page.evaluate("() => document.querySelector('.bpe').getClientRects()[0].height")
    assert lines > 5 * 18  # it wraps
    assert page.evaluate(MID_WORD_BREAKS) == []
