r"""Bad input, page by page: a clear message, the session kept, never a traceback.

Each test gives the app one kind of bad input as a user would (AppTest), or, where AppTest
cannot (uploads), calls the function the page calls with the same bytes. Unless the row
says otherwise, every test also checks that the sidebar's tokenizer, the session's runs,
text typed on another page and the view size are all as they were, and that no exception
reached the page. Uploads through a real browser are in tests/browser/; `.tiktoken` files
belong to the importers and are not covered here.

#     Bad input                       Where             Expected
----  ------------------------------  ----------------  --------------------------------------------
1a    bytes that are not UTF-8        Train uploads,    "notes.txt is not UTF-8 text: byte 3 (0xe9)
                                      .model loader     cannot be decoded. Save it as UTF-8."
1b    an empty file                   Train uploads,    "notes.txt is empty: choose a file with some
                                      .model loader     text in it."
2     vocab size 255, or 50,001       Train             "… must be at least 256 …" / "The app trains
      (MAX_APP_VOCAB_SIZE + 1)                          up to 50,000 tokens … use the command line
                                                        …"; Train disabled
3     custom regex ( or [a-           Train             the engine's PatternError as a sentence:
                                                        "Invalid pre-tokenizer regex '(': missing )
                                                        at position 1. Fix the pattern or choose a
                                                        preset …"; Train disabled
4a    (a+)+$ on "a" * 3,000 + "b",    Train             "Training stopped: … took longer than 0.21 s
      (bound cut to 0.2 s)                              on this text (catastrophic backtracking?).
                                                        Simplify it or choose a preset."; then gpt4
                                                        trains
4b    that pattern's run, the same    Tokens, Animate   "This text / passage could not be encoded: …
      text to encode (bound cut to                      took longer than …"; the text kept
      0.2 s)
5a    .model: bad header, bad merge   .model loader     FormatError naming file and line:
      line, unknown id, truncated                       "bad.model, line 5: expected two token ids
      specials, special id                              …"
5b    merges JSON: not JSON, not an   .model loader     FormatError naming file and key: "bad.json:
      object, bad key, id out of                        merges JSON, key '(97,97)': …"
      order, unknown id
5c    a load that failed              Train             "This file cannot be loaded: …"; the loader
                                                        open
6a    the tokenizer's special         Tokens            one dark token each; an info names them;
      tokens, a near miss, another                      counts as the engine's
      tokenizer's
6b    training text holding the       Train             trains; no merge enters a special token; the
      declared special tokens                           preview shows each as one token
6c    a passage holding special       Animate           one dark token each, before and after the
      tokens                                            step
7a    NUL, ESC, zero-width space,     Train             trains; log and preview show \u0000, \u001b,
      CR, CRLF pasted and trained                       never the raw characters
7b    the same characters             Tokens            counts exact; escapes shown, no raw control
                                                        character in the HTML
7c    the same characters             Animate           "The passage as bytes · 14 tokens" (its
                                                        UTF-8 length); escapes
7d    a lone surrogate \ud800 (no     token_view,       counted as 3 bytes, shown as
      widget can send one: UTF-8      render helpers    <0xED><0xA0><0x80>
      only)
8a    a 5 MB paste                    Train             "1 document · 5,000,000 bytes"; trains in
                                                        seconds, the progress bar ends "Merging:
                                                        1,744 of 1,744 merges"
8b    a 1 MB text                     Tokens            counts cover all of it; "Showing the first
                                                        10,000 of … tokens; …"
9a    an empty or blank paste         Train             info "Paste some text to train on."; Train
                                                        disabled
9b    an empty word-count list        Train             info "Type one `word count` a line, such as
                                                        `hug 10`."; Train disabled
9c    a word-count line "hug ten"; a  Train             error naming line 1 and the line / "The word
      count too large to show                           list stands for … bytes of text, more than
                                                        the app can count …"; Train disabled
9d    an empty text                   Tokens            info "Type or paste some text above to see
                                                        its tokens."; no counts
9e    an empty text and an empty      Compare           infos "Type or load a text above …", "Type a
      passage                                           passage above …"
10    the view size at 256            Animate           info "… slide View at vocab size up …"; the
                                                        passage as bytes
11    a run that made no merges       Animate, Compare  infos "… no pair of adjacent tokens was left
                                                        to merge …" / "… 256 (bytes only) is its one
                                                        vocab size …"
12    a merge-log search for "²" (a   Train             no match, no exception
      digit int() refuses)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

import explorer.encoding.pretokenize
import ui.session.run_cache
from explorer import FormatError, Tokenizer, tokens_to_html, train
from explorer.analysis.compression.stats import counted_stats
from explorer.encoding.pretokenize import PatternError, compile_pattern
from explorer.files.formats import merges_json, model_text
from tests.app_support import (
    labels,
    open_app,
    open_compare,
    open_tab,
    pasted_name,
    texts_of,
    token_views,
    use_run,
)
from ui.animate import animation as anim
from ui.session import state as keys
from ui.session import train_inputs as form
from ui.session.run_spec import RunSpec, text_key
from ui.session.runs import MAX_APP_VOCAB_SIZE
from ui.session.samples import sample_text
from ui.train import progress
from ui.train import tokenizer_files as ts
from ui.views import formatting as fmt

EOT = "<|endoftext|>"
CONTROL = "a\x00b\x1bc\u200bd\re\r\nf"
TYPED = "Typed on another page: bad input elsewhere must not lose it."
VIEW = 1000  # the view size set before the bad input
SPECIAL_SPAN = re.compile(r'<span class="c-[0-9a-f]{6} s[ "]')  # a special token, drawn dark
SHAKESPEARE_MERGES = 1744  # the default run: Shakespeare, gpt4, vocab size 2,000

# --- the session a user had before the bad input ----------------------------------------------


def opened(page: str) -> AppTest:
    """The app on `page`, after typing on another page and moving the view size."""
    other, key = ("compare", "compare_passage") if page == "tokens" else ("tokens", "tokens_text")
    app = open_compare("One passage") if other == "compare" else open_app(other)
    app.text_area(key=key).input(TYPED).run()
    app.sidebar.slider(key=keys.SIDEBAR_VIEW_SIZE).set_value(VIEW).run()
    app.switch_page(f"pages/{page}.py").run()
    assert not app.exception, app.exception
    return app


def session(app: AppTest) -> dict[str, Any]:
    """What bad input must leave alone: the tokenizer, the runs, typed text, the view size."""
    state = app.session_state
    return {
        "tokenizer": app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value,
        "runs": dict(state[keys.RUNS]),
        "typed": {key: state[key] for key in ("tokens_text", "compare_passage") if key in state},
        "view": app.sidebar.slider(key=keys.SIDEBAR_VIEW_SIZE).value,
    }


def assert_kept(app: AppTest, before: dict[str, Any]) -> None:
    assert not app.exception, app.exception
    assert session(app) == before
    assert before["typed"] and TYPED in before["typed"].values()


def paste(app: AppTest, text: str, vocab_size: int | None = None) -> AppTest:
    app.radio(key="train_source").set_value("paste").run()
    app.text_area(key="train_paste").input(text)
    if vocab_size is not None:
        app.number_input(key="train_vocab").set_value(vocab_size)
    return app.run()


def use_regex(app: AppTest, pattern: str) -> AppTest:
    app.selectbox(key="train_pattern").set_value(form.CUSTOM).run()
    app.text_input(key="train_regex").input(pattern)
    return app.run()


def metric(app: AppTest, label: str) -> int:
    return int(next(str(m.value) for m in app.metric if m.label == label).replace(",", ""))


def token_html(app: AppTest) -> list[str]:
    """The coloured token views on the page."""
    return token_views(app)


def shown_run(app: AppTest) -> str:
    return str(app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value)


# --- 1. uploads that are not text (the functions the Train page calls) ------------------------


def upload_text(name: str, data: bytes) -> object:
    """What the Train page does with one uploaded text file."""
    return form.upload_corpus([("fine.txt", b"fine"), (name, data)])


def upload_tokenizer(name: str, data: bytes) -> object:
    """What the Train page's tokenizer loader does with one uploaded file."""
    return ts.tokenizer_uploads([(name, data)])


LOADERS = pytest.mark.parametrize(
    ("load", "error"),
    [(upload_text, form.InputError), (upload_tokenizer, FormatError)],
    ids=["text", "model"],
)


@LOADERS
def test_1a_non_utf8_bytes_name_the_file_and_the_byte(
    load: Callable[[str, bytes], object], error: type[ValueError]
) -> None:
    with pytest.raises(error) as error_info:
        load("notes.txt", "café au lait".encode("latin-1"))
    assert str(error_info.value) == (
        "notes.txt is not UTF-8 text: byte 3 (0xe9) cannot be decoded. Save it as UTF-8."
    )


@LOADERS
def test_1b_an_empty_file_is_named(
    load: Callable[[str, bytes], object], error: type[ValueError]
) -> None:
    with pytest.raises(error) as error_info:
        load("notes.txt", b"")
    assert str(error_info.value) == "notes.txt is empty: choose a file with some text in it."


# --- 2, 3, 4. settings the engine refuses -----------------------------------------------------


@pytest.mark.parametrize(
    ("vocab_size", "message"),
    [
        (255, "The vocab size must be at least 256, one token for each byte (got 255)."),
        (
            MAX_APP_VOCAB_SIZE + 1,
            "The app trains up to 50,000 tokens (got 50,001); for more, use the command line",
        ),
    ],
    ids=["255", "50001"],
)
def test_2_a_vocab_size_out_of_range_is_refused(vocab_size: int, message: str) -> None:
    app = opened("train")
    before = session(app)
    paste(app, "low lower lowest " * 20, vocab_size)
    assert any(e.startswith(message) for e in texts_of(app.error)), texts_of(app.error)
    assert app.button(key="train_go").disabled
    assert_kept(app, before)


@pytest.mark.parametrize("pattern", ["(", "[a-"])
def test_3_an_invalid_regex_shows_the_engines_message(pattern: str) -> None:
    with pytest.raises(PatternError) as engine:
        compile_pattern(pattern)
    app = opened("train")
    before = session(app)
    use_regex(paste(app, "low lower lowest " * 20), pattern)
    assert fmt.sentence(str(engine.value)) in texts_of(app.error)
    assert "Fix the pattern or choose a preset" in str(engine.value)
    assert app.button(key="train_go").disabled
    assert_kept(app, before)


def test_4a_a_catastrophic_regex_stops_with_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    # the bound is the engine's (regex's own timeout); a small one keeps this test quick
    monkeypatch.setattr(explorer.encoding.pretokenize, "CUSTOM_TIMEOUT_SECONDS", 0.2)
    # a custom regex trains in a child Python, which would not see the bound set here
    monkeypatch.setattr(ui.session.run_cache, "trains_here", lambda *_: True)
    app = opened("train")
    before = session(app)
    use_regex(paste(app, "a" * 3_000 + "b", 300), "(a+)+$")
    app.button(key="train_go").click().run()
    assert (
        "Training stopped: the pre-tokenizer regex '(a+)+$' took longer than 0.21 s on this text "
        "(catastrophic backtracking?). Simplify it or choose a preset."
    ) in texts_of(app.error)
    assert_kept(app, before)
    app.selectbox(key="train_pattern").set_value("gpt4").run()
    app.button(key="train_go").click().run()  # the app still answers
    assert not app.exception and shown_run(app) == pasted_name("a" * 3_000 + "b", 274)  # asked 300


@pytest.mark.parametrize(
    ("page", "key", "message"),
    [
        ("tokens", "tokens_text", "This text could not be encoded: the pre-tokenizer regex"),
        ("animate", "animate_passage", "This passage could not be encoded: the pre-tokenizer"),
    ],
)
def test_4b_a_catastrophic_pattern_on_a_text_to_encode(
    page: str, key: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(explorer.encoding.pretokenize, "CUSTOM_TIMEOUT_SECONDS", 0.2)
    app = opened(page)
    texts = ("a cat sat on a mat",)
    use_run(app, RunSpec("slow regex", "cats", text_key(texts), 260, "(a+)+$"), texts)
    slow = "a" * 3000 + "b"
    app.text_area(key=key).input(slow).run()
    assert not app.exception
    shown = [e for e in texts_of(app.error) if e.startswith(message)]
    assert shown and "took longer than" in shown[0], texts_of(app.error)
    assert app.text_area(key=key).value == slow  # kept, to be edited
    app.text_area(key=key).input("a cat").run()  # the page still answers
    assert not app.exception and not app.error


# --- 5. files that are not what they claim -----------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"bpe v2\n\n0\n97 97\n", "bad.model: expected 'minbpe v1' or 'bpe v1' on line 1, got"),
        (b"minbpe v1\n\n0\n97 97\n97 x\n", "bad.model, line 5: expected two token ids"),
        (
            b"minbpe v1\n\n0\n97 97\n256 300\n",
            "bad.model, line 5: merge 2 (256, 300) uses id 300, which does not exist yet",
        ),
        (
            b"minbpe v1\n\n2\n<|a|> 256\n",
            "bad.model, line 5: expected special token 2 of 2 as 'TOKEN ID', "
            "but the file ends after line 4",
        ),
        (
            b"minbpe v1\n\n1\n<|a|> 256\n97 97\n",
            "bad.model, line 4: special token '<|a|>' has id 256, but ids below 257 belong",
        ),
    ],
    ids=["header", "merge-line", "unknown-id", "truncated-specials", "special-id"],
)
def test_5a_a_malformed_model_names_the_file_and_line(data: bytes, message: str) -> None:
    with pytest.raises(FormatError) as error:
        upload_tokenizer("bad.model", data)
    assert str(error.value).startswith(message), str(error.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"(97,97)": 256,', "bad.json: merges JSON, line 1, column 17: not valid JSON"),
        ("[[97, 97]]", "bad.json: merges JSON: expected a JSON object {...}, got list"),
        ('{"97 97": 256}', "bad.json: merges JSON, key '97 97': expected a pair like \"(97,98)\""),
        ('{"(97,97)": 257}', "bad.json: merges JSON, key '(97,97)': expected id 256"),
        ('{"(97,300)": 256}', "bad.json: merges JSON, key '(97,300)': merge 1 (97, 300) uses"),
    ],
    ids=["not-json", "not-object", "bad-key", "id-order", "unknown-id"],
)
def test_5b_a_malformed_merges_json_names_the_file_and_key(text: str, message: str) -> None:
    with pytest.raises(FormatError) as error:
        upload_tokenizer("bad.json", text.encode())
    assert str(error.value).startswith(message), str(error.value)


def test_5b_a_merges_json_loads_as_a_tokenizer_without_a_pattern() -> None:
    tokenizer = train("aaabdaaabac", 259, pattern="none").tokenizer
    (loaded,) = ts.tokenizer_uploads([("classic.json", merges_json(tokenizer).encode())])
    spec, text = loaded.spec, loaded.texts[0]
    assert spec.kind == "model" and spec.pattern == "none" and spec.vocab_size == 259
    assert spec.name == "classic · none · 259" and spec.source == "classic.json"
    assert text == model_text(tokenizer)  # the run keeps .model text, as a .model does


def test_5c_a_failed_load_is_shown_and_the_runs_kept() -> None:
    with pytest.raises(FormatError) as error:
        upload_tokenizer("bad.model", b"minbpe v1\n\n0\n97 x\n")
    app = opened("train")
    before = session(app)
    app.session_state["train_model_error"] = str(error.value)  # what the loader keeps
    app.run()
    assert f"This file cannot be loaded: {error.value}" in texts_of(app.error)
    loader = next(e for e in app.expander if e.label.startswith("Load a saved tokenizer"))
    assert loader.proto.expanded  # the loader opens on its message
    assert_kept(app, before)


# --- 6. special tokens in the text --------------------------------------------------------------


def test_6a_special_tokens_in_the_tokens_text() -> None:
    texts = (sample_text("python"),)
    app = opened("tokens")
    use_run(
        app,
        RunSpec("with specials", "Python", text_key(texts), 300, "gpt4", (EOT, "<|pad|>")),
        texts,
    )
    text = f"def f():{EOT}pass<|pad|>{EOT}<|endoftext <|im_start|>"
    app.text_area(key="tokens_text").input(text).run()
    assert not app.exception
    tokenizer = train(texts[0], 300, pattern="gpt4", special_tokens=(EOT, "<|pad|>")).tokenizer
    assert metric(app, "Tokens") == len(tokenizer.encode(text, allowed_special="all"))
    assert metric(app, "Characters") == len(text)
    page = app.get("html")[0].proto.body
    assert len(SPECIAL_SPAN.findall(page)) == 3  # two EOT and one pad, each one token
    assert any("<|endoftext|>, <|pad|>" in info for info in texts_of(app.info))


def test_6b_training_text_with_special_tokens() -> None:
    app = opened("train")
    paste(app, f"hello world{EOT}goodbye world{EOT}" * 30, 300)
    app.text_input(key="train_specials").input(f"{EOT}, {EOT}").run()
    app.button(key="train_go").click().run()
    assert not app.exception
    assert shown_run(app) == pasted_name(f"hello world{EOT}goodbye world{EOT}", 271)  # asked 300
    assert app.session_state[keys.RUNS][shown_run(app)].special_tokens == (EOT,)
    tokens = list(app.dataframe[-1].value["token"])  # the merge log sends its shown columns
    assert tokens and not any("<" in t or "|" in t or ">" in t for t in tokens)
    preview = app.get("html")[0].proto.body
    assert len(SPECIAL_SPAN.findall(preview)) == 60
    assert "&lt;|endoftext|&gt;</span>" in preview


def test_6c_special_tokens_in_the_animate_passage() -> None:
    texts = (f"hello world{EOT}goodbye world{EOT}" * 30,)
    app = opened("animate")
    use_run(app, RunSpec("eot", "eot", text_key(texts), 270, "gpt4", (EOT,)), texts)
    app.text_area(key="animate_passage").input(f"hello{EOT}world").run()
    app.slider(key="animate_step").set_value(1).run()
    assert not app.exception
    views = token_html(app)
    assert len(views) == 2
    assert all(len(SPECIAL_SPAN.findall(v)) == 1 for v in views)
    assert all("&lt;|endoftext|&gt;</span>" in v for v in views)


# --- 7. control characters ----------------------------------------------------------------------


def test_7a_control_characters_pasted_and_trained() -> None:
    app = opened("train")
    text = CONTROL * 40
    paste(app, text, 270)
    assert f"1 document · {len(text.encode()):,} bytes" in texts_of(app.caption)
    app.button(key="train_go").click().run()
    assert not app.exception and shown_run(app) == pasted_name(text, 263)  # asked 270
    log = " ".join(app.dataframe[-1].value["token"])
    preview = app.get("html")[0].proto.body
    for raw, escape in [("\x00", "\\u0000"), ("\x1b", "\\u001b")]:
        assert escape in log and escape in preview
        assert raw not in log and raw not in preview


def test_7b_control_characters_on_the_tokens_page() -> None:
    app = opened("tokens")
    before = session(app)
    app.text_area(key="tokens_text").input(CONTROL).run()
    assert metric(app, "Characters") == len(CONTROL) == 12
    assert metric(app, "Bytes (UTF-8)") == len(CONTROL.encode()) == 14
    tokenizer = train(sample_text("shakespeare"), VIEW, pattern="gpt4").tokenizer
    assert metric(app, "Tokens") == len(tokenizer.encode(CONTROL))
    page = app.get("html")[0].proto.body
    assert "\\u0000" in page and "\\u001b" in page and "\\u000d" in page
    assert not re.search("[\x00\x1b\u200b\r]", page)
    before["typed"] = {**before["typed"], "tokens_text": CONTROL}
    assert_kept(app, before)


def test_7c_control_characters_in_the_animate_passage() -> None:
    app = opened("animate")
    before = session(app)
    app.text_area(key="animate_passage").input(CONTROL).run()
    app.slider(key="animate_step").set_value(0).run()
    assert f"The passage as bytes · {len(CONTROL.encode())} tokens" in labels(app)
    view = token_html(app)[0]
    assert "\\u0000" in view and "\\u001b" in view
    assert not re.search("[\x00\x1b]", view)
    assert_kept(app, before)


def test_7d_a_lone_surrogate_is_encoded_as_tiktoken_does() -> None:
    text = "a\ud800b"  # no widget can send this: the protocol and browsers carry UTF-8 only
    tokenizer = Tokenizer([(97, 98)])
    ids = tokenizer.encode(text)
    assert ids == [97, 0xEF, 0xBF, 0xBD, 98]  # U+FFFD's bytes, never a surrogate's
    assert counted_stats(text, len(ids)).bytes == 5
    frame = anim.passage_frame(tokenizer, tokenizer, text, None)
    assert frame.after.ids == ids
    html_text = tokens_to_html(tokenizer, ids)
    assert "\ud800" not in html_text
    assert len(text_key((text,))) == 16


# --- 8. huge texts --------------------------------------------------------------------------------


def test_8a_a_5mb_paste_trains_with_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[tuple[float, str]] = []
    real = progress.progress_reporter

    def recording(show, **options):
        def both(fraction: float, text: str) -> None:
            shown.append((fraction, text))
            show(fraction, text)

        return real(both, **options)

    monkeypatch.setattr(progress, "progress_reporter", recording)
    text = (sample_text("shakespeare") * 60)[:5_000_000]
    app = opened("train")
    paste(app, text, 2000)
    assert "1 document · 5,000,000 bytes" in texts_of(app.caption)
    app.button(key="train_go").click().run()
    assert not app.exception
    assert shown_run(app) == pasted_name(text, 2000)
    assert app.session_state["tokens_text"] == TYPED
    assert shown[0][0] < 1.0  # the bar moved while merging, and ends full
    assert shown[-1] == (1.0, f"Merging: {SHAKESPEARE_MERGES:,} of {SHAKESPEARE_MERGES:,} merges")
    assert any(c.startswith("Its first 2,000 characters") for c in texts_of(app.caption))


def test_8b_a_1mb_text_is_counted_whole_and_drawn_in_part() -> None:
    # past 512K characters the page draws the start and a child counts the whole text
    # (ui/tokens/whole_text.py)
    app = opened("tokens")
    text = (sample_text("shakespeare") * 11)[:1_000_000]
    app.text_area(key="tokens_text").input(text).run()
    assert not app.exception
    tokens = metric(app, "Tokens")
    assert metric(app, "Characters") == 1_000_000 and tokens > 200_000
    drawn = app.get("html")[0].proto.body
    assert drawn.count('<span class="c-') == 10_000  # token spans, not their cards
    captions = " ".join(texts_of(app.caption))
    assert "Showing the first 10,000 tokens, from the first " in captions
    assert "of 1,000,000 characters" in captions
    assert "The counts cover the whole text, which stays whole in its box." in captions
    assert app.text_area(key="tokens_text").value == text  # nothing lost


# --- 9. empty inputs ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "  \n\t "])
def test_9a_an_empty_paste_asks_for_text(text: str) -> None:
    app = opened("train")
    before = session(app)
    paste(app, "something first")
    paste(app, text)
    assert "Paste some text to train on." in texts_of(app.info)
    assert app.button(key="train_go").disabled
    assert_kept(app, before)


def test_9b_an_empty_word_list_asks_for_words() -> None:
    app = opened("train")
    before = session(app)
    app.radio(key="train_source").set_value("words").run()
    app.text_area(key="train_word_counts").input("\n \n").run()
    assert "Type one `word count` a line, such as `hug 10`." in texts_of(app.info)
    assert app.button(key="train_go").disabled
    assert_kept(app, before)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            "hug ten\npug 5",
            "The word list cannot be read: line 1 of the word-frequency table is 'hug ten'; "
            "expected a word, a space and a whole number, e.g. 'hug 10'.",
        ),
        (
            "hug 10\npug " + "9" * 30,
            "The word list cannot be read: the count on line 2 has 30 digits",
        ),
    ],
    ids=["not-a-number", "too-large"],
)
def test_9c_a_bad_word_list_line_is_named(table: str, message: str) -> None:
    app = opened("train")
    before = session(app)
    app.radio(key="train_source").set_value("words").run()
    app.text_area(key="train_word_counts").input(table).run()
    assert any(e.startswith(message) for e in texts_of(app.error)), texts_of(app.error)
    assert app.button(key="train_go").disabled
    assert_kept(app, before)


def test_9d_an_empty_tokens_text_says_what_to_do() -> None:
    app = opened("tokens")
    before = session(app)
    app.text_area(key="tokens_text").input("").run()
    assert "Type or paste some text above to see its tokens." in texts_of(app.info)
    assert not app.metric and not token_html(app)
    before["typed"] = {**before["typed"], "tokens_text": ""}
    assert_kept(app, before)


def test_9e_empty_compare_texts_say_what_to_do() -> None:
    app = opened("compare")
    before = session(app)
    app.text_area(key="compare_text").input("").run()
    infos = texts_of(app.info)
    assert "Type or load a text above to draw its curve beside the training corpus." in infos
    open_tab(app, "One passage").text_area(key="compare_passage").input("").run()
    assert "Type a passage above to see it side by side." in texts_of(app.info)
    before["typed"] = {**before["typed"], "compare_passage": ""}
    assert_kept(app, before)


# --- 10-12. found while writing this catalogue ---------------------------------------------------


def test_10_animate_at_view_size_256_shows_the_bytes() -> None:
    app = opened("animate")
    app.sidebar.slider(key=keys.SIDEBAR_VIEW_SIZE).set_value(256).run()
    assert not app.exception
    assert any("slide View at vocab size up" in i for i in texts_of(app.info))
    assert not [s for s in app.slider if s.key == keys.ANIMATE_STEP]
    assert any("The passage at vocab size 256" in m for m in texts_of(app.markdown))


def test_11_a_run_without_merges_says_why() -> None:
    texts = ("ab",)  # one pair, seen once: a pattern of single characters leaves none
    app = opened("animate")
    use_run(app, RunSpec("no merges", "ab", text_key(texts), 300, "."), texts)
    assert any(
        "no pair of adjacent tokens was left to merge" in i and "longer text" in i
        for i in texts_of(app.info)
    )
    app.switch_page("pages/compare.py").run()
    open_tab(app, "One passage")
    assert any("256 (bytes only) is its one vocab size" in i for i in texts_of(app.info))


def test_12_a_merge_log_search_for_a_superscript_digit() -> None:
    app = opened("train")
    app.text_input(key="train_log_query").input("²").run()
    assert not app.exception
    assert "Showing 0 of 744 merges, up to vocab size 1,000." in texts_of(app.caption)
