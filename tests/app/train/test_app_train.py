"""The Train page: worked examples, training from the form, bad input, the merge log, files."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

import explorer.encoding.pretokenize
import explorer.files.exports
import ui.session.run_cache
from explorer import FormatError, Tokenizer
from explorer.files.formats import model_text
from tests.app_support import open_app, pasted_name, texts_of
from ui.session import train_inputs as form
from ui.session.run_spec import RunSpec
from ui.train import merge_log as log
from ui.train import progress
from ui.train import tokenizer_files as ts

PAGES = "pages"  # the folder open_app switches into (tests/app_support.py)

# --- driving the page ------------------------------------------------------------------------


def shown_run(app: AppTest) -> str:
    """The tokenizer the page shows, from its heading."""
    headings = [h for h in texts_of(app.header) if h.startswith("Tokenizer: ")]
    assert headings, texts_of(app.header)
    return headings[0].removeprefix("Tokenizer: ").replace("\\", "")


def merge_log(app: AppTest):
    """The merge-log table as the page shows it (the last dataframe)."""
    return app.dataframe[-1].value


def errors(app: AppTest) -> list[str]:
    return texts_of(app.error)


def paste(app: AppTest, text: str, vocab_size: int = 300) -> AppTest:
    app.radio(key="train_source").set_value("paste").run()
    app.text_area(key="train_paste").input(text)
    app.number_input(key="train_vocab").set_value(vocab_size)
    return app.run()


def use_regex(app: AppTest, regex: str) -> AppTest:
    app.selectbox(key="train_pattern").set_value(form.CUSTOM).run()
    app.text_input(key="train_regex").input(regex)
    return app.run()


@pytest.fixture
def app() -> AppTest:
    return open_app("train")


# --- worked examples -------------------------------------------------------------------------


def test_the_hug_pug_example_learns_ug_un_hug(app: AppTest) -> None:
    app.button(key="train_example_hug_pug").click().run()
    assert shown_run(app) == "hug / pug / pun / bun word counts · none · 259"
    log = merge_log(app)
    assert list(log["token"]) == ["ug", "un", "hug"]
    assert list(log["count"]) == [20, 16, 15]
    words = app.dataframe[0].value
    assert list(words["word"]) == ["hug", "pug", "pun", "bun", "hugs"]
    assert list(words["tokens"][1]) == ["p", "ug"]


def test_the_aaabdaaabac_example_shows_its_encoding(app: AppTest) -> None:
    app.button(key="train_example_aaabdaaabac").click().run()
    assert "[258, 100, 258, 97, 99]" in texts_of(app.code)
    assert dict((m.label, m.value) for m in app.metric)["Merges learned"] == "3"
    assert list(merge_log(app)["token"]) == ["aa", "aaa", "aaab"]
    assert merge_log(app)["ties"][1] == "⚖ a + b"  # aaa won its tie with ab


def test_the_gpt2_example_shows_byte_symbols(app: AppTest) -> None:
    app.button(key="train_example_this_is").click().run()
    assert app.toggle(key="train_byte_symbols").value is True
    assert "Ġsome" in app.get("html")[0].proto.body
    assert "Ġt" in list(merge_log(app)["token"])
    app.toggle(key="train_byte_symbols").set_value(False).run()
    assert "·t" in list(merge_log(app)["token"])


def test_a_sample_run_is_shared_by_the_url(app: AppTest) -> None:
    app.button(key="train_example_aaabdaaabac").click().run()
    run = app.query_params.pop("run")
    assert app.query_params == {"sample": "aaabdaaabac", "vocab": "259", "pattern": "none"}
    paste(app, "no sample here, no sample at all").button(key="train_go").click().run()
    assert "sample" not in app.query_params and app.query_params["run"] not in ("", run)


# --- training from the form ------------------------------------------------------------------


def test_long_tokens_show_results_without_rebuilding_merges(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tokens of 20,000 bytes once made the export check take 38 s after a 0.03 s training:
    a trained tokenizer's downloads are offered without rebuilding its merges from ranks."""
    rebuilt: list[int] = []

    def counting(tokens, **kwargs):
        rebuilt.append(len(tokens))
        return real(tokens, **kwargs)

    real = explorer.files.exports.recover_merges
    monkeypatch.setattr(explorer.files.exports, "recover_merges", counting)
    paste(app, "a" * 20_000 + "b", vocab_size=300)
    app.selectbox(key="train_pattern").set_value("none").run()
    app.button(key="train_go").click().run()
    assert not app.exception and " · none · " in shown_run(app)
    assert not any(b.disabled for b in app.get("download_button"))
    assert rebuilt == []


def test_pasted_text_trains_a_new_current_run(app: AppTest) -> None:
    paste(app, "low lower lowest " * 50, vocab_size=270)
    assert "1 document · 850 bytes" in texts_of(app.caption)
    app.button(key="train_go").click().run()
    assert not app.exception
    assert shown_run(app) == "“low lower lowest low…” · gpt4 · 263"  # asked 270: it says 263
    assert "“low lower lowest low…” · gpt4 · 263" in app.session_state["runs"]
    assert "low" in list(merge_log(app)["token"])


def test_the_sidebar_offers_the_new_run(app: AppTest) -> None:
    paste(app, "low lower lowest " * 50, vocab_size=270).button(key="train_go").click().run()
    assert app.sidebar.selectbox(key="sidebar_run").value == "“low lower lowest low…” · gpt4 · 263"


def test_a_word_count_list_trains_on_words(app: AppTest) -> None:
    app.radio(key="train_source").set_value("words").run()
    assert app.selectbox(key="train_pattern").disabled
    app.text_area(key="train_word_counts").input("hug ten\npug 5").run()
    assert any("line 1" in e for e in errors(app))
    app.text_area(key="train_word_counts").input("hug 10\npug 5\npun 12\nbun 4\nhugs 5").run()
    app.number_input(key="train_vocab").set_value(258).run()
    app.button(key="train_go").click().run()
    assert shown_run(app) == "words “hug pug pun bun hugs” · none · 258"
    assert list(merge_log(app)["count"]) == [20, 16]


def test_a_vocab_size_below_256_is_refused(app: AppTest) -> None:
    before = shown_run(app)
    app.number_input(key="train_vocab").set_value(100).run()
    assert any("at least 256" in e for e in errors(app))
    assert app.button(key="train_go").disabled  # a browser cannot click it
    assert shown_run(app) == before
    assert len(app.session_state["runs"]) == 1


def test_an_invalid_regex_is_refused(app: AppTest) -> None:
    before = shown_run(app)
    use_regex(app, "(")
    assert any("Invalid pre-tokenizer regex" in e for e in errors(app))
    assert app.button(key="train_go").disabled
    assert shown_run(app) == before and not app.exception


def test_a_catastrophic_regex_stops_in_time(app: AppTest, monkeypatch) -> None:
    monkeypatch.setattr(explorer.encoding.pretokenize, "CUSTOM_TIMEOUT_SECONDS", 0.2)
    # a custom regex trains in a child Python, which would not see the bound set here
    monkeypatch.setattr(ui.session.run_cache, "trains_here", lambda *_: True)
    before = shown_run(app)
    paste(app, "a" * 3000 + "b")
    use_regex(app, "(a+)+$").button(key="train_go").click().run()
    assert any("took longer" in e for e in errors(app)), errors(app)
    assert shown_run(app) == before and len(app.session_state["runs"]) == 1
    app.selectbox(key="train_pattern").set_value("gpt4").run()
    app.button(key="train_go").click().run()  # the app keeps working
    assert shown_run(app) == pasted_name("a" * 3000 + "b", 274)  # asked 300


def test_the_form_survives_a_visit_to_another_page(app: AppTest) -> None:
    paste(app, "keep this text", vocab_size=400)
    app.switch_page(f"{PAGES}/tokens.py").run()
    app.switch_page(f"{PAGES}/train.py").run()
    assert app.radio(key="train_source").value == "paste"
    assert app.text_area(key="train_paste").value == "keep this text"
    assert app.number_input(key="train_vocab").value == 400


def test_an_empty_paste_asks_for_text(app: AppTest) -> None:
    app.radio(key="train_source").set_value("paste").run()
    assert "Paste some text to train on." in texts_of(app.info)
    assert app.button(key="train_go").disabled


# --- the merge log ---------------------------------------------------------------------------


def test_the_log_and_metrics_describe_the_run(app: AppTest) -> None:
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["Merges learned"] == "1,744"
    assert metrics["Corpus bytes"] == "99,843"
    assert metrics["Tokens at 2,000"] == "29,283"
    assert metrics["Bytes per token"] == "3.41"
    assert "Training stopped because the target vocab size was reached." in texts_of(app.caption)
    log = merge_log(app)
    assert len(log) == 1000 and list(log["id"][:3]) == [256, 257, 258]  # page 1 of 1,744
    assert log["token"][0] == "·t"  # visible whitespace


def test_the_log_follows_the_sidebar_view_size() -> None:
    app = open_app("train")  # Train has its own address: "/" is the front door
    app.sidebar.slider(key="sidebar_view_size").set_value(300).run()
    assert len(merge_log(app)) == 44
    assert "Showing 44 merges, up to vocab size 300." in texts_of(app.caption)
    assert "Tokens at 300" in [m.label for m in app.metric]


def test_search_filters_the_log(app: AppTest) -> None:
    app.text_input(key="train_log_query").input("the").run()
    log = merge_log(app)
    assert 0 < len(log) < 1744
    assert all("the" in text.casefold() for text in log["token"])
    assert any(f"Showing {len(log):,} of 1,744 merges" in c for c in texts_of(app.caption))
    app.text_input(key="train_log_query").input("256").run()
    log = merge_log(app)
    assert 256 in set(log["id"])
    rows = zip(log["id"], log["left"], log["right"])  # the table sends what it shows
    assert all(i == 256 or "·t" in (left, right) for i, left, right in rows)  # 256 is ·t


def test_a_loaded_model_shows_its_merges_without_history(app: AppTest) -> None:
    text = model_text(Tokenizer([(97, 97), (256, 98)]))
    (loaded,) = ts.tokenizer_uploads([("mine.model", text.encode())])
    spec = loaded.spec
    app.session_state["runs"][spec.name] = spec
    app.session_state["texts"][spec.text_key] = (text,)
    app.session_state["pending_run"] = spec.name
    app.run()
    assert shown_run(app) == "mine · none · 258"
    assert any("no merge history" in i for i in texts_of(app.info))
    log = merge_log(app)
    assert list(log["token"]) == ["aa", "aab"] and "count" not in log


# --- the page's helpers ----------------------------------------------------------------------


def test_uploads_decode_as_utf8_without_newline_translation() -> None:
    corpus = form.upload_corpus([("a.txt", b"one\r\ntwo\n"), ("b.md", "é".encode())])
    assert corpus.texts == ("one\r\ntwo\n", "é")
    assert corpus.source == "a.txt + 1 more"


@pytest.mark.parametrize(
    ("data", "message"),
    [(b"", "notes.csv is empty"), (b"ok \xff", "notes.csv is not UTF-8 text: byte 3 (0xff)")],
)
def test_a_bad_upload_names_the_file(data: bytes, message: str) -> None:
    with pytest.raises(form.InputError, match=re.escape(message)):
        form.upload_corpus([("fine.txt", b"fine"), ("notes.csv", data)])


def test_a_malformed_model_names_the_line() -> None:
    with pytest.raises(FormatError, match=re.escape("bad.model, line 4: expected two token ids")):
        ts.tokenizer_uploads([("bad.model", b"minbpe v1\n\n0\n97 x\n")])


def test_a_model_upload_becomes_a_model_run() -> None:
    tokenizer = Tokenizer([(97, 97)], pattern=explorer.encoding.pretokenize.GPT4_PATTERN)
    (loaded,) = ts.tokenizer_uploads([("t.model", model_text(tokenizer).encode())])
    spec, text = loaded.spec, loaded.texts[0]
    assert spec == RunSpec(
        name="t · gpt4 · 257",
        source="t.model",
        text_key=spec.text_key,
        vocab_size=257,
        pattern="gpt4",
        kind="model",
    )
    assert text == model_text(tokenizer)


def test_settings_are_read_as_people_type_them() -> None:
    assert form.parse_special_tokens(" <|a|>,<|b|>\n<|a|>, ") == ("<|a|>", "<|b|>")
    assert "up to 50,000 tokens (got 60,000)" in form.vocab_size_problem(60_000)
    assert form.vocab_size_problem(256) == ""
    assert form.chosen_pattern("gpt2", "ignored") == "gpt2"
    with pytest.raises(form.InputError, match="Type a custom regex"):
        form.chosen_pattern(form.CUSTOM, "")
    assert form.pattern_choice(explorer.encoding.pretokenize.GPT2_PATTERN) == ("gpt2", "")
    assert form.pattern_choice(r"\w+") == (form.CUSTOM, r"\w+")


def test_the_log_csv_keeps_ids_and_bytes() -> None:
    frame = log.merge_log(Tokenizer([(32, 116), (256, 104)]), None)
    assert log.log_csv(frame).splitlines() == [  # merges numbered from 1: merge k makes 255 + k
        "merge,id,left_id,right_id,left,right,token,hex",
        "1,256,32,116,·,t,·t,20 74",
        "2,257,256,104,·t,h,·th,20 74 68",
    ]


def test_progress_is_throttled_but_ends_full() -> None:
    shown: list[tuple[float, str]] = []
    report = progress.progress_reporter(lambda fraction, text: shown.append((fraction, text)))
    for done in range(1, 1001):
        report("merging", done, 1000)
    assert len(shown) < 20
    assert shown[-1] == (1.0, "Merging: 1,000 of 1,000 merges")


def test_a_pattern_that_matches_little_says_how_much(app: AppTest) -> None:
    paste(app, "ab ab ab " + "x" * 391)  # 400 bytes, of which [ab]+ matches 6
    use_regex(app, "[ab]+").button(key="train_go").click().run()
    assert not app.exception
    said = " ".join(texts_of(app.warning))
    assert "The pattern matched 2% of the text (6 of 400 bytes)" in said
    assert "text it does not match is dropped" in said
    use_regex(app, r"\S+|\s+").button(key="train_go").click().run()
    assert "The pattern matched" not in " ".join(texts_of(app.warning))
