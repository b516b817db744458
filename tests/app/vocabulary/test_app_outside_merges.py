"""A tokenizer.json with words no merge makes (made by the real `tokenizers`): the check-up
counts and lists them, the table and the lineage say they have no merge, every page draws."""

from __future__ import annotations

import json

from tests.app.train.test_app_history_run import current, load_errors, upload
from tests.app.vocabulary.test_app_checkup import checkup_counts
from tests.app_support import open_app, plain, texts_of
from tests.engine.outside_vocabularies import OUTSIDE_WORDS, hf_document
from ui.session import state as keys


def test_tokens_outside_the_merges_are_counted_listed_and_called_so() -> None:
    app = open_app("train")
    document = hf_document(ignore_merges=True)
    upload(app, ("outside.tokenizer.json", json.dumps(document).encode()))
    assert not load_errors(app)
    assert current(app).startswith("outside")
    app.switch_page("pages/vocabulary.py").run()
    assert not app.exception, app.exception
    assert checkup_counts(app)["outside_merges"] == str(len(OUTSIDE_WORDS))
    [listed] = [
        frame.value
        for frame in app.dataframe
        if frame.value.columns[-1] == "Why" and len(frame.value) == len(OUTSIDE_WORDS)
    ]
    assert listed["Token"].tolist()[:2] == ["·zebra", "quokka"]
    assert listed["Why"].str.startswith("no merge makes it").all()
    outside_id = int(listed["Id"].iloc[0])
    app.session_state[keys.VOCAB_TOKEN] = outside_id
    app.run()
    assert not app.exception, app.exception
    said = " ".join([*texts_of(app.markdown), *texts_of(app.caption)])
    assert f"Token {outside_id}" in said and "has no merge" in said
    assert "No merge makes this token" in said
    tabs = [plain(tab.label) for tab in app.tabs]
    assert "Outside the merges" in tabs
    for page in ("tokens", "animate"):  # the pages that show encoded text draw too
        app.switch_page(f"pages/{page}.py").run()
        assert not app.exception, (page, app.exception)
