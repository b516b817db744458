"""Compare's bend and held-out sections, and Train's held-out option, through AppTest."""

from __future__ import annotations

import json

import pandas as pd
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from explorer import train
from explorer.files.formats import model_text
from explorer.training.holdout import split_holdout
from tests.app_support import open_app, spelled, texts_of, token_views, use_run
from ui.compare.heldout import GAP_LINE, HELD_OUT
from ui.session import run_store
from ui.session.run_spec import RunKind, RunSpec, text_key
from ui.session.samples import SAMPLE_DIR, sample_text

HELD_OUT_RUN = "Shakespeare, 10 % held out · gpt4 · 2k"


def charts(app: AppTest) -> list[tuple[dict, list[pd.DataFrame]]]:
    """Every Vega-Lite chart of the page: its spec and its data tables."""
    found = []
    for element in app.get("vega_lite_chart"):
        proto = element.proto
        tables = [pa.ipc.open_stream(d.data.data).read_pandas() for d in proto.datasets]
        found.append((json.loads(proto.spec), tables))
    return found


def curve_chart(app: AppTest) -> tuple[dict, list[pd.DataFrame]]:
    return next(c for c in charts(app) if c[0]["title"]["text"].startswith("Bytes per token as"))


def markdown(app: AppTest) -> list[str]:
    return texts_of(app.markdown)


def train_held_out(app: AppTest, percent: int = 10) -> AppTest:
    """On Train: turn the option on, set the share, train the form's text."""
    app.checkbox(key="train_holdout").check().run()
    app.number_input(key="train_holdout_percent").set_value(percent).run()
    app.button(key="train_go").click().run()
    assert not app.exception, app.exception
    return app


# --- Train: the option ---------------------------------------------------------------------


def test_the_option_is_off_with_ten_percent_preset() -> None:
    app = open_app("train")
    box = app.checkbox(key="train_holdout")
    assert box.value is False and box.label == "Hold out text the tokenizer does not see"
    with pytest.raises(KeyError):  # the share shows only once the option is on
        app.number_input(key="train_holdout_percent")
    box.check().run()
    assert app.number_input(key="train_holdout_percent").value == 10
    assert any(c.startswith("Held out: 74 paragraphs of 741") for c in texts_of(app.caption))


def test_training_with_a_held_out_share_trains_on_the_rest() -> None:
    app = train_held_out(open_app("train"))
    spec = app.session_state["runs"][HELD_OUT_RUN]
    assert (
        spec.holdout_percent == 10 and spec.name == app.sidebar.selectbox(key="sidebar_run").value
    )
    corpus = sample_text("shakespeare")
    assert spec.text_key == text_key((corpus,))  # the session keeps the whole corpus
    split = split_holdout([corpus], 10)
    trained = sum(len(t.encode()) for t in split.training_texts())
    app.switch_page("pages/compare.py").run()
    curves = curve_chart(app)[1][0]
    training = curves[curves["Text"] == "Training corpus"]
    first = training[training["Vocab size"] == 256]["Tokens"].item()
    assert first == trained < len(corpus.encode())  # only the training part was trained on


def test_the_preview_shows_only_text_the_tokenizer_trained_on() -> None:
    app = train_held_out(open_app("train"))
    split = split_holdout([sample_text("shakespeare")], 10)
    [preview] = token_views(app)
    shown = spelled(preview).replace("·", " ").replace("↵", "")
    trained = "".join(split.training_texts())
    assert trained.startswith(shown) and len(shown) == 2_000
    assert not any(held[:200] in shown for held in split.heldout_texts())
    first_held_out = split.reassembled()[0].index(split.heldout_texts()[0])
    assert first_held_out < 2_000  # the corpus's own first 2,000 characters hold some out
    assert any(
        c.startswith("The first 2,000 characters it trained on (held-out text left out): ")
        for c in texts_of(app.caption)
    )


def test_a_worked_example_turns_the_held_out_option_off() -> None:
    app = open_app("train")
    app.checkbox(key="train_holdout").check().run()
    app.button(key="train_example_aaabdaaabac").click().run()
    assert not app.exception and not app.error
    assert app.checkbox(key="train_holdout").value is False
    name = app.sidebar.selectbox(key="sidebar_run").value
    assert app.session_state["runs"][name].holdout_percent == 0


def test_the_share_is_kept_on_disk_and_a_link_reopens_it(runs_folder) -> None:
    app = train_held_out(open_app("train"))
    spec = app.session_state["runs"][HELD_OUT_RUN]
    stored = run_store.load(run_store.config_from_env(), spec.store_key)
    assert stored is not None and stored.spec["holdout_percent"] == 10
    assert app.query_params["holdout"] == "10"
    linked = open_app("compare", {"run": spec.store_key})
    assert linked.session_state["runs"][HELD_OUT_RUN].holdout_percent == 10
    assert HELD_OUT in set(curve_chart(linked)[1][0]["Text"])


def test_runs_without_a_share_keep_their_keys() -> None:
    spec = RunSpec("x", "Pasted text", "0123456789abcdef", 300, "gpt4")
    assert spec.settings == "text|0123456789abcdef|300|gpt4|()|1"
    assert "holdout_percent" not in spec.as_dict()
    assert RunSpec.from_dict(spec.as_dict()) == spec
    held = RunSpec("x", "Pasted text", "0123456789abcdef", 300, "gpt4", holdout_percent=10)
    assert held.store_key != spec.store_key and RunSpec.from_dict(held.as_dict()) == held
    app = open_app("compare")
    assert "holdout" not in app.query_params


def test_a_single_line_cannot_hold_anything_out() -> None:
    app = open_app("train")
    app.radio(key="train_source").set_value("paste").run()
    app.text_area(key="train_paste").input("one line of text with no breaks at all").run()
    app.checkbox(key="train_holdout").check().run()
    assert any(e.startswith("Nothing can be held out") for e in texts_of(app.error))
    assert app.button(key="train_go").disabled
    app.number_input(key="train_holdout_percent").set_value(50).run()
    assert app.button(key="train_go").disabled  # 50 % of one line is still nothing
    app.text_area(key="train_paste").input("first line\nsecond line").run()
    assert not app.error and not app.button(key="train_go").disabled  # 50 % of two: one


def test_blank_lines_alone_are_not_held_out() -> None:
    app = open_app("train")
    app.radio(key="train_source").set_value("paste").run()
    app.text_area(key="train_paste").input("text\n\n\n\n").run()
    app.checkbox(key="train_holdout").check().run()
    app.number_input(key="train_holdout_percent").set_value(50).run()
    assert any("only blank space" in e for e in texts_of(app.error))


def test_word_counts_cannot_hold_out() -> None:
    app = open_app("train")
    app.checkbox(key="train_holdout").check().run()
    app.radio(key="train_source").set_value("words").run()
    assert app.checkbox(key="train_holdout").disabled
    assert any("word-count list has no running text" in c for c in texts_of(app.caption))
    app.text_area(key="train_word_counts").input("hug 10\npug 5\npun 12").run()
    app.number_input(key="train_vocab").set_value(258).run()
    app.button(key="train_go").click().run()
    spec = app.session_state["runs"][app.sidebar.selectbox(key="sidebar_run").value]
    assert spec.kind is RunKind.WORD_COUNTS and spec.holdout_percent == 0


# --- Compare: where the curve bends ------------------------------------------------------------


def test_the_default_run_is_still_gaining_and_says_so() -> None:
    app = open_app("compare")
    lines = markdown(app)
    assert (
        "**Training corpus**: no bend yet: still gaining more than 5 % per doubling at 1,000 "
        "tokens (doubling to 2,000 gains 20 %). Train a larger vocabulary to find where it "
        "bends." in lines
    )
    assert any(
        c.startswith("Where the curve bends: the smallest vocab size N")
        for c in texts_of(app.caption)
    )
    marks = [layer["mark"]["type"] for layer in curve_chart(app)[0]["layer"]]
    assert marks == ["line", "circle", "rule", "text"]  # no bend: no bend rule


def test_a_text_the_merges_barely_fit_bends_and_is_marked() -> None:
    app = open_app("compare")
    vietnamese = (SAMPLE_DIR / "udhr" / "vi.txt").read_text(encoding="utf-8")
    app.text_area(key="compare_text").input(vietnamese).run()
    bend = next(line for line in markdown(app) if line.startswith("**Your text**"))
    assert bend.startswith("**Your text**: beyond about ")
    assert bend.endswith(" tokens, each doubling gains less than 5 % on this text.")
    size = int(bend.split("about ")[1].split(" tokens")[0].replace(",", ""))
    assert 256 < size < 1000
    spec, tables = curve_chart(app)
    rule = next(layer for layer in spec["layer"] if layer["mark"].get("strokeDash") == [2, 3])
    assert {t["title"] for t in rule["encoding"]["tooltip"] if "title" in t} >= {"Bends at"}
    marked = next(t for t in tables if "Bend" in t.columns)
    assert list(marked["Text"]) == ["Your text"] and list(marked["Vocab size"]) == [size]


def test_short_flat_and_stopped_curves_say_so_plainly() -> None:
    app = open_app("train")
    app.number_input(key="train_vocab").set_value(400).run()
    app.button(key="train_go").click().run()
    app.switch_page("pages/compare.py").run()
    assert any(
        "**Training corpus**: too short to tell: the curve ends at 400 tokens" in line
        for line in markdown(app)
    )
    app.text_area(key="compare_text").input("ж").run()
    assert (
        "**Your text**: no merge shortens this text, so its curve is flat: there is no bend."
        in markdown(app)
    )
    app.switch_page("pages/train.py").run()
    app.radio(key="train_source").set_value("paste").run()
    app.text_area(key="train_paste").input("low lower lowest newer newest\n" * 40).run()
    app.number_input(key="train_vocab").set_value(5000).run()
    app.button(key="train_go").click().run()
    app.switch_page("pages/compare.py").run()
    line = next(t for t in markdown(app) if t.startswith("**Training corpus**"))
    assert "Training stopped at" in line or "beyond about" in line or "too short" in line


# --- Compare: the held-out text --------------------------------------------------------------


def test_compare_draws_training_and_held_out_together() -> None:
    app = train_held_out(open_app("train"))
    app.switch_page("pages/compare.py").run()
    spec, tables = curve_chart(app)
    assert spec["layer"][0]["encoding"]["color"]["scale"]["domain"] == [
        "Training corpus",
        "Your text",
        HELD_OUT,
    ]
    assert set(tables[0]["Text"]) == {"Training corpus", "Your text", HELD_OUT}
    assert GAP_LINE in markdown(app)
    assert any(line.startswith("**Held-out text**: ") for line in markdown(app))
    labels = [m.label for m in app.metric]
    assert "Held-out text at vocab size 2,000" in labels
    assert "Characters never seen in training" in labels
    assert "Held-out bytes as single-byte tokens at 2,000" in labels
    share = next(m for m in app.metric if m.label.startswith("Held-out bytes as"))
    assert 0 < float(str(share.value).rstrip("%")) < 100
    fallback = next(c for c in charts(app) if c[0]["title"]["text"].startswith("Held-out bytes"))
    rows = fallback[1][0]
    assert rows["Share of bytes"].iloc[0] == 1.0  # bytes only: every byte is its own token
    assert rows["Share of bytes"].is_monotonic_decreasing
    assert fallback[0]["layer"][0]["encoding"]["y"]["title"] == "Single-byte share"
    app.sidebar.slider(key="sidebar_view_size").set_value(256).run()
    share = next(m for m in app.metric if m.label.startswith("Held-out bytes as"))
    assert share.value == "100.0%"
    assert app.success  # Shakespeare's held-out paragraphs use no new character


def test_characters_training_never_saw_are_listed_with_counts() -> None:
    paragraphs = [f"Paragraph {i} is plain.\n\n" for i in range(1, 10)]
    paragraphs.append("The tenth says Ωmega, Ωhm and ñ.\n")
    app = open_app("train")
    app.radio(key="train_source").set_value("paste").run()
    app.text_area(key="train_paste").input("".join(paragraphs)).run()
    app.number_input(key="train_vocab").set_value(300).run()
    train_held_out(app)
    app.switch_page("pages/compare.py").run()
    table = app.dataframe[0].value
    assert list(table.columns) == ["Character", "Code point", "Name", "Count"]
    rows = {row["Code point"]: (row["Character"], row["Count"]) for _, row in table.iterrows()}
    assert rows["U+03A9"] == ("Ω", 2) and rows["U+00F1"] == ("ñ", 1)
    assert any(line.startswith("**Characters never seen in training**") for line in markdown(app))


@pytest.mark.parametrize("kind", ["default", "model", "words"])
def test_runs_without_held_out_text_say_why(kind: str) -> None:
    app = open_app("compare")
    if kind == "model":
        model = model_text(train(sample_text("shakespeare")[:20_000], 300).tokenizer)
        spec = RunSpec("loaded", "a.model", text_key((model,)), 300, "", kind="model")
        use_run(app, spec, (model,))
        expected = "no training corpus to hold text out of"
    elif kind == "words":
        table = "hug 10\npug 5\npun 12"
        spec = RunSpec("words", "Word counts", text_key((table,)), 258, "none", kind="word_counts")
        use_run(app, spec, (table,))
        expected = "word-count list, which has no running text to hold out"
    else:
        expected = "trained on all of its text"
    assert any(expected in info for info in texts_of(app.info)), texts_of(app.info)
    assert HELD_OUT not in set(curve_chart(app)[1][0]["Text"])
    assert GAP_LINE not in markdown(app)


def test_a_link_to_a_held_out_run_opens_the_form_on_its_share() -> None:
    app = open_app(
        "train", {"sample": "shakespeare", "vocab": "2000", "pattern": "gpt4", "holdout": "15"}
    )
    assert not app.exception
    assert (
        app.sidebar.selectbox(key="sidebar_run").value == "Shakespeare, 15 % held out · gpt4 · 2k"
    )
    assert app.checkbox(key="train_holdout").value is True
    assert app.number_input(key="train_holdout_percent").value == 15
