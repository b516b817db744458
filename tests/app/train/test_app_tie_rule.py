"""The tie rule in the app: Train's selectbox and textbook example, the run's key and link,
and the Animate narration of a tied step."""

from __future__ import annotations

import hashlib

from streamlit.testing.v1 import AppTest

from tests.app_support import narration, open_app, texts_of
from ui.session import state as keys
from ui.session.run_spec import RunSpec
from ui.train.tie_rule_form import TEXTBOOK_EXAMPLE

TEXTBOOK_BUTTON = f"{keys.TRAIN_EXAMPLE}_{TEXTBOOK_EXAMPLE.key}"
TEXTBOOK_URL = {"sample": "aaabdaaabac", "vocab": "259", "pattern": "none"}


def shown_run(app: AppTest) -> str:
    headings = [h for h in texts_of(app.header) if h.startswith("Tokenizer: ")]
    return headings[0].removeprefix("Tokenizer: ").replace("\\", "")


def log_tokens(app: AppTest) -> list[str]:
    return list(app.dataframe[-1].value["token"])


def test_the_selectbox_offers_both_rules_with_help() -> None:
    app = open_app("train")
    box = app.selectbox(key=keys.TRAIN_TIE_RULE)
    assert box.label == "Tie rule"
    assert box.options == [
        "First occurrence (minbpe's, the default)",
        "Lowest ids (the textbook example)",
    ]
    assert box.value == "first-occurrence"
    assert "occurs first in the text" in box.help and "lowest ids wins" in box.help


def test_training_with_the_lowest_ids_rule_from_the_form() -> None:
    app = open_app("train")
    app.radio(key=keys.TRAIN_SOURCE).set_value("paste").run()
    app.text_area(key=keys.TRAIN_PASTE).input("aaabdaaabac")
    app.number_input(key=keys.TRAIN_VOCAB).set_value(259)
    app.selectbox(key=keys.TRAIN_PATTERN).set_value("none")
    app.selectbox(key=keys.TRAIN_TIE_RULE).set_value("lowest-ids").run()
    app.button(key=keys.TRAIN_GO).click().run()
    assert not app.exception and not app.error
    assert shown_run(app) == "“aaabdaaabac” · none · lowest-ids · 259"
    assert log_tokens(app) == ["aa", "ab", "aaab"]
    assert app.dataframe[-1].value["ties"][1] == "⚖ aa + a"  # aa + a lost to the lower ids
    assert "the tie went to the pair with the lowest ids (tie rule lowest-ids)" in " ".join(
        texts_of(app.caption)
    )
    # the same text with the default rule is another run, with minbpe's merges
    app.selectbox(key=keys.TRAIN_TIE_RULE).set_value("first-occurrence").run()
    app.button(key=keys.TRAIN_GO).click().run()
    assert shown_run(app) == "“aaabdaaabac” · none · 259"
    assert log_tokens(app) == ["aa", "aaa", "aaab"]


def test_the_textbook_example_button() -> None:
    app = open_app("train")
    button = app.button(key=TEXTBOOK_BUTTON)
    assert button.label == "aaabdaaabac, textbook tie rule"
    button.click().run()
    assert not app.exception
    assert shown_run(app) == "aaabdaaabac · none · lowest-ids · 259"
    assert log_tokens(app) == ["aa", "ab", "aaab"]
    assert app.selectbox(key=keys.TRAIN_TIE_RULE).value == "lowest-ids"
    assert app.query_params["tie_rule"] == "lowest-ids"
    assert "tie rule `lowest-ids`" in " ".join(texts_of(app.sidebar.caption))
    # today's example still trains with minbpe's rule, and sets the form back to it
    app.button(key=f"{keys.TRAIN_EXAMPLE}_aaabdaaabac").click().run()
    assert log_tokens(app) == ["aa", "aaa", "aaab"]
    assert app.selectbox(key=keys.TRAIN_TIE_RULE).value == "first-occurrence"
    assert "tie_rule" not in app.query_params


def test_a_default_run_keeps_the_key_and_link_it_always_had() -> None:
    """Old links must keep working: the default rule adds nothing to key or URL."""
    spec = RunSpec("x", "src", "abc123", 300, "gpt4", ("<|e|>",), 2)
    old_settings = "text|abc123|300|gpt4|('<|e|>',)|2"
    assert spec.settings == old_settings
    assert spec.store_key == hashlib.sha256(old_settings.encode()).hexdigest()[:16]
    assert "tie_rule" not in spec.as_dict()
    lowest = RunSpec("x", "src", "abc123", 300, "gpt4", ("<|e|>",), 2, tie_rule="lowest-ids")
    assert lowest.settings == old_settings + "|lowest-ids"
    assert lowest.store_key != spec.store_key
    assert RunSpec.from_dict(lowest.as_dict()) == lowest
    assert RunSpec.from_dict(spec.as_dict()) == spec


def test_a_textbook_link_opens_the_textbook_run() -> None:
    app = open_app("train", {**TEXTBOOK_URL, "tie_rule": "lowest-ids"})
    assert shown_run(app) == "aaabdaaabac · none · lowest-ids · 259"
    assert log_tokens(app) == ["aa", "ab", "aaab"]
    plain = open_app("train", TEXTBOOK_URL)
    assert log_tokens(plain) == ["aa", "aaa", "aaab"]


def test_the_narration_says_which_rule_broke_the_tie() -> None:
    app = open_app("animate", {**TEXTBOOK_URL, "tie_rule": "lowest-ids", "animate_step": "2"})
    told = narration(app)
    assert told.startswith("Step 2: ('a', 'b') was the most frequent pair (2 times)")
    assert "('a', 'b') tied with 1 other pair at count 2" in told
    assert "the tie went to the pair with the lowest ids" in told
    minbpe = open_app("animate", {**TEXTBOOK_URL, "animate_step": "2"})
    assert "the tie went to the pair seen first in the text" in narration(minbpe)
