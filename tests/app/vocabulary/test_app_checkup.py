"""The Vocabulary page's check-up: counts, a table and a CSV per kind, for any tokenizer."""

from __future__ import annotations

import csv
import io

import pytest
from streamlit.testing.v1 import AppTest

from explorer import Tokenizer
from explorer.analysis.vocabulary.checkup import check_up
from tests.app_support import open_app, plain, texts_of
from ui.server.heavy_work import in_a_child
from ui.vocabulary import checkup as checkup_view
from ui.vocabulary.checkup import csv_bytes

AAAB = {"sample": "aaabdaaabac", "vocab": "259", "pattern": "none"}
LABELS = {
    "Unreachable": "unreachable",
    "Partial characters": "partial_character",
    "Outside the merges": "outside_merges",
    "Intermediate-only": "intermediate_only",
    "Special": "special",
    "Whitespace only": "whitespace_only",
    "Digits only": "digits_only",
}


def checkup_counts(app: AppTest) -> dict[str, str]:
    """The check-up's metrics by kind (the page's own four figures come first)."""
    shown = [(plain(metric.label), metric.value) for metric in app.metric][-len(LABELS) :]
    return {LABELS[label]: value for label, value in shown}


def test_a_trained_run_has_every_count_and_its_intermediate_tokens() -> None:
    app = open_app(page="vocabulary", query=AAAB)
    assert "Check-up" in texts_of(app.header)
    assert checkup_counts(app) == {
        "unreachable": "0",
        "partial_character": "128",
        "outside_merges": "0",
        "intermediate_only": "2",  # 'aa' and 'aaa' live on only inside 'aaab'
        "special": "0",
        "whitespace_only": "6",
        "digits_only": "10",
    }
    tabs = [plain(tab.label) for tab in app.tabs]
    assert tabs[-len(LABELS) :] == list(LABELS)
    assert "No unreachable tokens." in texts_of(app.success)
    kinds = [frame.value for frame in app.dataframe if frame.value.columns[-1] == "Why"]
    partial, intermediate, whitespace, digits = kinds  # the kinds with tokens, in tab order
    assert intermediate["Token"].tolist() == ["aa", "aaa"]
    assert whitespace["Token"].tolist()[:2] == ["→", "↵"] and len(digits) == 10
    assert partial["Hex"].tolist()[:2] == ["80", "81"] and partial["Token"][0] == "<0x80>"


def test_a_published_vocabulary_shows_its_counts_and_tells_what_is_unknown() -> None:
    app = open_app(page="vocabulary", query=AAAB)
    app.button(key="vocab_browse_gpt2").click().run()
    assert not app.exception, app.exception
    counts = checkup_counts(app)
    assert counts["partial_character"] == "344" and counts["special"] == "1"
    assert counts["intermediate_only"] == "unknown"
    assert any("known only for a tokenizer trained here" in text for text in texts_of(app.info))
    said = " ".join(texts_of(app.caption))
    assert "Tokens by length in characters (length: tokens): 1: 10, 2: 100, 3: 777" in said


def test_the_csv_holds_each_token_whole_and_why() -> None:
    tokenizer = Tokenizer([(98, 99), (97, 98), (257, 99), *((258 + k, 97) for k in range(70))])
    data = csv_bytes(tokenizer, check_up(tokenizer), "unreachable").decode("utf-8")
    rows = list(csv.DictReader(io.StringIO(data)))
    assert rows[0] == {
        "id": "258",
        "token": "abc",
        "hex": "61 62 63",
        "length": "3",
        "why": "merges of lower rank take it apart: its text encodes as 97 + 256 ('a' + 'bc')",
    }
    assert rows[-1]["token"] == "abc" + "a" * 70  # whole, where the table cuts at 60


def test_a_large_vocabulary_is_checked_when_asked_in_a_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(checkup_view, "CHECK_HERE_MAX_TOKENS", 100)  # AAAB's 259 count as large
    sent: list[int] = []

    def child(function, tokenizer, history):  # in_a_child, and which sizes went to it
        sent.append(tokenizer.vocab_size)
        return in_a_child(function, tokenizer, history)

    monkeypatch.setattr(checkup_view, "in_a_child", child)
    checkup_view.checkup_cached.clear()  # not the check-up another test kept
    app = open_app(page="vocabulary", query=AAAB)
    assert app.toggle(key="vocab_checkup_large").value is False
    assert "Unreachable" not in [plain(metric.label) for metric in app.metric]
    app.toggle(key="vocab_checkup_large").set_value(True).run()
    assert not app.exception, app.exception
    assert checkup_counts(app)["intermediate_only"] == "2"  # the history went to the child too
    assert sent == [259]
