"""The Compare page: the compression chart, one passage at several sizes, two tokenizers."""

from __future__ import annotations

import json
import re

import pandas as pd
import pyarrow as pa
from streamlit.testing.v1 import AppTest

from explorer import train
from explorer.files.formats import model_text
from tests.app_support import open_app, open_compare, open_tab, texts_of
from ui.session.run_spec import RunSpec, text_key
from ui.session.samples import SAMPLE_DIR, sample_text


def chart(app: AppTest) -> tuple[dict, list[pd.DataFrame]]:
    """The Vega-Lite spec of the page's chart and its data tables."""
    proto = app.get("vega_lite_chart")[0].proto
    tables = [pa.ipc.open_stream(d.data.data).read_pandas() for d in proto.datasets]
    return json.loads(proto.spec), tables


def token_counts(app: AppTest) -> list[int]:
    return [int(str(m.value).replace(",", "")) for m in app.metric if m.label == "Tokens"]


def add_run(app: AppTest, spec: RunSpec, texts: tuple[str, ...], *, current: bool) -> None:
    """Keep another run in the session (the sidebar's choice when current), as Train does."""
    app.session_state["runs"] = {**app.session_state["runs"], spec.name: spec}
    app.session_state["texts"] = {**app.session_state["texts"], spec.text_key: texts}
    if current:
        app.session_state["pending_run"] = spec.name
    app.run()
    assert not app.exception, app.exception


def test_the_chart_draws_both_texts_and_marks_the_view_size() -> None:
    app = open_app("compare")
    app.sidebar.slider(key="sidebar_view_size").set_value(1000).run()
    spec, tables = chart(app)
    assert spec["title"]["text"] == "Bytes per token as the vocabulary grows"
    line = spec["layer"][0]["encoding"]
    assert line["x"]["title"] == "Vocab size" and line["y"]["title"] == "Bytes per token"
    assert line["color"]["scale"]["domain"] == ["Training corpus", "Your text"]
    tooltips = {t["field"]: t.get("format") for t in spec["layer"][1]["encoding"]["tooltip"]}
    assert tooltips == {"Text": None, "Vocab size": ",d", "Bytes per token": ".2f", "Tokens": ",d"}
    curves, marker = tables
    assert set(curves["Text"]) == {"Training corpus", "Your text"}
    assert curves["Vocab size"].min() == 256 and curves["Vocab size"].max() == 2000
    assert list(marker["label"]) == ["viewing 1,000"]
    labels = [m.label for m in app.metric]
    assert "Training corpus at vocab size 1,000" in labels
    assert "Your text at vocab size 1,000" in labels


def test_the_curve_follows_the_text() -> None:
    app = open_app("compare")
    app.text_area(key="compare_text").input(sample_text("shakespeare")[:5000]).run()
    ours = next(m for m in app.metric if m.label.startswith("Your text"))
    assert float(str(ours.value).split()[0]) > 3  # the training text compresses well
    app.text_area(key="compare_text").input("").run()
    assert set(chart(app)[1][0]["Text"]) == {"Training corpus"}
    assert any("Type or load a text" in text for text in texts_of(app.info))


def test_the_passage_shrinks_as_the_vocabulary_grows() -> None:
    app = open_compare("One passage")
    assert app.multiselect(key="compare_sizes").value == [256, 512, 2000]
    app.text_area(key="compare_passage").input("Before we proceed any further, hear me").run()
    counts = token_counts(app)
    assert counts[0] == len("Before we proceed any further, hear me")  # bytes only
    assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]
    app.multiselect(key="compare_sizes").set_value([2000, 300, 1000, 512]).run()
    counts = token_counts(app)
    assert len(counts) == 4 and counts == sorted(counts, reverse=True)
    app.multiselect(key="compare_sizes").set_value([512]).run()
    assert any("two to four" in text for text in texts_of(app.info))


def test_a_long_passage_is_set_side_by_side_from_its_start() -> None:
    # issue 35 §2: a 20 MB passage was encoded whole on the interpreter every page shares
    app = open_compare("One passage")
    passage = "Before we proceed any further, hear me speak. " * 2_000  # 92,000 characters
    app.text_area(key="compare_passage").input(passage).run()
    assert not app.exception
    assert (
        "Side by side shows the first 20,000 characters of this 92,000-character passage"
        in " ".join(texts_of(app.caption))
    )
    assert token_counts(app)[0] <= 20_000  # bytes only: at most the drawn characters
    assert app.text_area(key="compare_passage").value == passage  # nothing lost


def test_two_tokenizers_side_by_side() -> None:
    app = open_compare("One passage")
    assert any("Train another" in text for text in texts_of(app.info))
    assert app.get("page_link")
    texts = (sample_text("python"),)
    spec = RunSpec("Python · gpt4 · 300", "Python source", text_key(texts), 300, "gpt4")
    add_run(app, spec, texts, current=False)
    left, right = app.selectbox(key="compare_left"), app.selectbox(key="compare_right")
    assert left.value.startswith("Shakespeare") and right.value == spec.name
    shakespeare_sizes, (shakespeare, python) = token_counts(app)[:-2], token_counts(app)[-2:]
    assert shakespeare == shakespeare_sizes[-1]  # the full tokenizer, as at its full size
    assert python > shakespeare  # 44 merges of code lose on prose to 1,744 of prose
    assert "Vocab size 300 · trained on Python source" in texts_of(app.caption)
    right.set_value(left.value).run()
    assert token_counts(app)[-1] == token_counts(app)[-2]
    same = [m for m in app.metric if m.label == "Tokens"][-1]
    assert same.delta == "same count"  # not "+0 tokens" in red with an arrow up
    assert same.proto.color == same.proto.MetricColor.GRAY
    # the same tokenizer twice is the same cached view twice: its ids are renamed, not repeated
    ids = [i for e in app.html for i in re.findall(r' id="([^"]+)"', str(e.value))]
    assert len(ids) == len(set(ids)) > 0


def test_a_loaded_model_draws_only_your_text() -> None:
    app = open_app("compare")
    model = model_text(train(sample_text("shakespeare")[:20_000], 300, pattern="gpt4").tokenizer)
    spec = RunSpec("loaded", "shakespeare.model", text_key((model,)), 300, "", kind="model")
    add_run(app, spec, (model,), current=True)
    assert any(".model file" in text for text in texts_of(app.info))
    assert set(chart(app)[1][0]["Text"]) == {"Your text"}
    open_tab(app, "One passage")
    assert app.multiselect(key="compare_sizes").value == [256, 300]
    assert len(token_counts(app)) >= 2


def test_your_text_is_one_language_and_named() -> None:
    app = open_app("compare")
    english = (SAMPLE_DIR / "udhr" / "en.txt").read_text(encoding="utf-8")
    assert app.text_area(key="compare_text").value == english
    assert any(
        "Your text is the Universal Declaration of Human Rights in English" in caption
        for caption in texts_of(app.caption)
    )
    yours = next(m for m in app.metric if m.label.startswith("Your text at"))
    assert -0.3 < float(str(yours.delta).split("%")[0].replace("−", "-")) / 100 < 0


def test_another_run_brings_its_own_texts_unless_the_user_typed() -> None:
    app = open_app("compare")
    texts = (sample_text("udhr"),)
    spec = RunSpec(
        name="udhr", source="udhr", text_key=text_key(texts), vocab_size=300, pattern="gpt4"
    )
    add_run(app, spec, texts, current=True)
    your_text = app.text_area(key="compare_text").value  # the UDHR trained it: Shakespeare
    assert your_text.startswith("First Citizen") and len(your_text) <= 20_000
    assert (
        open_tab(app, "One passage")
        .text_area(key="compare_passage")
        .value.startswith(
            "Preamble"  # its corpus
        )
    )
    open_tab(app, "Compression").text_area(key="compare_text").input("my own words").run()
    app.sidebar.selectbox(key="sidebar_run").set_value("Shakespeare · gpt4 · 2k").run()
    assert app.text_area(key="compare_text").value == "my own words"  # kept in another tab
    assert (
        open_tab(app, "One passage")
        .text_area(key="compare_passage")
        .value.startswith("First Citizen")
    )
