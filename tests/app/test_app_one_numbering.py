"""One numbering on every page: merge k makes id 255 + k, and step k is after k merges.

A walk through the pages for one token of the worked example, as a teacher would take it.
"""

from __future__ import annotations

import re

from tests.app_support import narration, open_app, texts_of

AAAB = {"sample": "aaabdaaabac", "vocab": "259", "pattern": "none"}
TOKEN, MERGE = 258, 3  # 'aaab', the third merge


def test_one_token_has_the_same_merge_number_on_every_page() -> None:
    app = open_app("animate", {**AAAB, "animate_step": str(MERGE)})
    said = narration(app)
    assert re.search(rf"Step {MERGE}: .* becomes token {TOKEN} 'aaab'", said), said

    app.switch_page("pages/vocabulary.py").run()
    assert app.selectbox(key="vocab_token").value == TOKEN
    assert f"Token {TOKEN} `'aaab'` was created at step {MERGE} " in texts_of(app.markdown)[0]
    assert app.dataframe[0].value.set_index("id").loc[TOKEN, "step"] == MERGE

    app.switch_page("pages/train.py").run()
    log = app.dataframe[-1].value
    assert list(log.columns[:2]) == ["merge", "id"]
    assert log.set_index("merge").loc[MERGE, "id"] == TOKEN

    app.switch_page("pages/tokens.py").run()
    tokens = app.get("html")[0].proto.body
    assert f"id {TOKEN}: 'aaab'\nbytes 61 61 61 62\nmerge {MERGE}: 'aaa' + 'b'" in tokens
    assert not app.exception
