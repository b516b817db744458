"""Interoperability in the app: OpenAI's vocabularies beside yours, and files made elsewhere.

Compare sets the current tokenizer against GPT-2, GPT-4 and GPT-4o on a passage and on the
UDHR in 26 languages; Vocabulary browses a bundled vocabulary's lineage; the Train page's
loader reads .tiktoken, tokenizer.json and GPT-2's two files, and offers them as downloads.
The bundled vocabularies load once per test process (o200k_base takes about 2 s).
"""

from __future__ import annotations

import json

import pandas as pd
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from explorer import FormatError, Tokenizer, load_bundled, train
from explorer.analysis.vocabulary.lineage import parents
from explorer.files.exports import encoder_json, tiktoken_text, tokenizer_json, vocab_bpe
from explorer.files.formats import model_text
from tests.app_support import open_app, open_compare, texts_of
from ui.compare.language_chart import language_rows
from ui.session.run_spec import RunSpec
from ui.session.runs import MAX_RUNS, bundled_spec
from ui.session.samples import UDHR_LANGUAGES, sample_text, udhr_texts
from ui.train import tokenizer_files as ts

PASSAGE = "We hold these truths to be self-evident, that all men are created equal."


def metrics(app: AppTest) -> dict[str, str]:
    return {str(metric.label): str(metric.value) for metric in app.metric}


def count(value: str) -> int:
    return int(value.replace(",", ""))


def chart_named(app: AppTest, title: str) -> tuple[dict, pd.DataFrame]:
    """The Vega-Lite spec with this title, and its one data table."""
    for element in app.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        if spec.get("title", {}).get("text") == title:
            (data,) = element.proto.datasets
            return spec, pa.ipc.open_stream(data.data.data).read_pandas()
    raise AssertionError(f"no chart titled {title!r}")


def add_runs(app: AppTest, *runs: tuple[RunSpec, tuple[str, ...]]) -> None:
    """Keep runs in the session as the pages do; the last becomes current."""
    for spec, texts in runs:
        app.session_state["runs"] = {**app.session_state["runs"], spec.name: spec}
        if texts:
            app.session_state["texts"] = {**app.session_state["texts"], spec.text_key: texts}
    app.session_state["pending_run"] = runs[-1][0].name
    app.run()
    assert not app.exception, app.exception


# --- Compare ---------------------------------------------------------------------------------


def test_compare_sets_yours_beside_gpt2_gpt4_and_gpt4o() -> None:
    app = open_compare("One passage")
    app.text_area(key="compare_passage").input(PASSAGE).run()
    assert not app.exception, app.exception
    shown = metrics(app)
    labels = ["Tokens · yours", "Tokens · GPT-2", "Tokens · GPT-4", "Tokens · GPT-4o"]
    assert [label for label in shown if label.startswith("Tokens · ")] == labels
    for label, name in zip(labels[1:], ("gpt2", "cl100k_base", "o200k_base")):
        assert count(shown[label]) == len(load_bundled(name).encode(PASSAGE)), label
    full = [count(m.value) for m in app.metric if m.label == "Tokens"][-1]
    assert count(shown["Tokens · yours"]) == full  # the sidebar's view is the full 2,000
    per_token = f"{len(PASSAGE) / len(load_bundled('cl100k_base').encode(PASSAGE)):.2f}"
    assert any(text.startswith(f"{per_token} bytes per token") for text in texts_of(app.caption))
    assert "**GPT-4o:** o200k_base" in texts_of(app.markdown)


def test_the_udhr_chart_has_26_languages_for_4_tokenizers() -> None:
    app = open_compare("Languages")
    spec, frame = chart_named(app, "Bytes per token in 26 languages")
    assert len(frame) == 26 * 4
    assert list(dict.fromkeys(frame["Language"])) == list(UDHR_LANGUAGES.values())
    series = list(dict.fromkeys(frame["Tokenizer"]))
    assert series == ["Yours: Shakespeare · gpt4 · 2k", "GPT-2", "GPT-4", "GPT-4o"]
    encoding = spec["encoding"]
    assert (encoding["x"]["title"], encoding["y"]["title"]) == ("Language", "Bytes per token")
    assert encoding["xOffset"]["field"] == "Tokenizer"
    assert encoding["color"]["scale"]["domain"] == series and "legend" in encoding["color"]
    formats = {tip["field"]: tip.get("format") for tip in encoding["tooltip"]}
    assert formats["Bytes per token"] == ".2f" and formats["Tokens"] == ",d"
    english = udhr_texts()["English"]
    gpt4 = frame[(frame["Language"] == "English") & (frame["Tokenizer"] == "GPT-4")].iloc[0]
    assert gpt4["Tokens"] == len(load_bundled("cl100k_base").encode(english))
    # a tokenizer trained on Shakespeare compresses English far better than Thai
    yours = frame[frame["Tokenizer"] == series[0]].set_index("Language")["Bytes per token"]
    assert yours["English"] > 2 * yours["Thai"]


def test_language_rows_count_bytes_and_tokens() -> None:
    rows = language_rows("bytes only", Tokenizer(), {"Greek": "αβγ"})
    assert rows == [
        {
            "Language": "Greek",
            "Tokenizer": "bytes only",
            "Bytes": 6,
            "Tokens": 6,
            "Bytes per token": 1.0,
        }
    ]


# --- Vocabulary ------------------------------------------------------------------------------


def test_the_vocabulary_page_browses_gpt4_and_builds_indivisible() -> None:
    app = open_app("vocabulary")
    app.button(key="vocab_browse_cl100k_base").click().run()
    assert not app.exception, app.exception
    assert app.sidebar.selectbox(key="sidebar_run").value == "GPT-4 · cl100k_base"
    assert "Shakespeare · gpt4 · 2k" in app.sidebar.selectbox(key="sidebar_run").options
    assert any("published by OpenAI (cl100k_base)" in text for text in texts_of(app.info))
    assert len(app.dataframe[0].value) == 10_000  # of 100,261: the first rows only
    assert "descendants" not in app.dataframe[0].value  # counted only when asked
    app.text_input(key="vocab_query").input("indivisible").run()
    tokenizer = load_bundled("cl100k_base")
    ids = tokenizer.encode(" indivisible")
    assert [tokenizer.token_bytes(i) for i in ids] == [b" indiv", b"isible"]
    assert any(
        text.startswith("**How it writes `'·indivisible'`:** 2 tokens")
        for text in texts_of(app.markdown)
    )
    build = app.get("graphviz_chart")[0].proto.spec
    for token_id in ids:
        assert f"t{token_id} -> text;" in build
        left, right = parents(tokenizer, token_id)
        assert f"t{left} -> t{token_id};" in build and f"t{right} -> t{token_id};" in build
    assert app.selectbox(key="vocab_token").value == ids[0]  # its lineage below, to the bytes
    assert f"t{ids[0]} [label=" in app.get("graphviz_chart")[1].proto.spec


def test_descendants_of_a_large_vocabulary_are_counted_when_asked() -> None:
    app = open_app("vocabulary")
    add_runs(app, (bundled_spec("gpt2"), ()))  # 50,257 tokens: counted at once
    assert "descendants" in app.dataframe[0].value
    add_runs(app, (bundled_spec("cl100k_base"), ()))
    assert "descendants" not in app.dataframe[0].value
    app.selectbox(key="vocab_sort").set_value("Descendants (most first)").run()
    rows = app.dataframe[0].value
    assert rows["descendants"].is_monotonic_decreasing and rows["descendants"].iloc[0] > 40_000


# --- loading and saving files ----------------------------------------------------------------


@pytest.fixture(scope="module")
def small() -> Tokenizer:
    return train(sample_text("shakespeare")[:20_000], 300, pattern="gpt4").tokenizer


def test_every_format_loads_back_as_the_same_tokenizer(small: Tokenizer) -> None:
    files = [
        ("small.tiktoken", tiktoken_text(small).encode()),
        ("tokenizer.json", tokenizer_json(small).encode()),
        ("vocab.bpe", vocab_bpe(small).encode()),  # GPT-2's pair, in either order
        ("encoder.json", encoder_json(small).encode()),
        ("small.model", model_text(small).encode()),
    ]
    loaded = ts.tokenizer_uploads(files, tiktoken_pattern="gpt4")
    kinds = [(item.spec.kind, item.spec.source) for item in loaded]
    assert kinds == [
        ("imported", "small.tiktoken"),
        ("imported", "tokenizer.json"),
        ("model", "small.model"),
        ("imported", "encoder.json + vocab.bpe"),
    ]
    text = sample_text("shakespeare")[20_000:21_000]
    for item in loaded[:3]:
        assert item.tokenizer.encode(text) == small.encode(text), item.spec.source
        assert item.spec.vocab_size == 300 and item.spec.pattern == "gpt4"
    assert loaded[3].spec.pattern == "gpt2"  # GPT-2's files hold no pattern: GPT-2's own


def test_a_failed_load_is_shown_and_the_session_kept() -> None:
    with pytest.raises(FormatError) as error:
        ts.tokenizer_uploads([("bad.tiktoken", b"YQ== 0\nnot a line\n")])
    app = open_app("train")
    runs = dict(app.session_state["runs"])
    app.session_state["train_model_error"] = str(error.value)  # what the loader keeps
    app.run()
    assert f"This file cannot be loaded: {error.value}" in texts_of(app.error)
    assert dict(app.session_state["runs"]) == runs


def test_a_tokenizer_in_gpt2s_byte_order_offers_every_format_but_model() -> None:
    byte_ids = load_bundled("gpt2").byte_ids  # byte b has id byte_ids[b], not b
    a, b = byte_ids[ord("a")], byte_ids[ord("b")]
    shuffled = Tokenizer([(a, b), (256, a)], byte_ids=byte_ids)
    (loaded,) = ts.tokenizer_uploads(
        [
            ("encoder.json", encoder_json(shuffled).encode()),
            ("vocab.bpe", vocab_bpe(shuffled).encode()),
        ]
    )
    assert loaded.tokenizer.byte_ids == byte_ids and loaded.tokenizer.encode("aba") == [257]
    app = open_app("train")
    add_runs(app, (loaded.spec, loaded.texts))
    assert any("imported from encoder.json + vocab.bpe" in text for text in texts_of(app.info))
    buttons = {b.proto.label: b.proto.disabled for b in app.get("download_button")}
    assert buttons == {
        "Merge log (.csv)": False,
        "Tokenizer (.model)": True,
        "Vocabulary (.vocab)": False,
        "Hugging Face (tokenizer.json)": False,
        "tiktoken (.tiktoken)": False,
    }
    assert any(
        text.startswith("No .model download: this tokenizer numbers the bytes in GPT-2's order")
        for text in texts_of(app.caption)
    )


def test_bundled_runs_do_not_push_out_trained_ones() -> None:
    app = open_app("vocabulary")
    more = [RunSpec(f"run {n}", "Pasted text", f"key{n}", 256, "none") for n in range(MAX_RUNS - 1)]
    add_runs(app, *[(spec, ("abc",)) for spec in more])
    trained = list(app.session_state["runs"])
    assert len(trained) == MAX_RUNS
    app.button(key="vocab_browse_gpt2").click().run()
    assert list(app.session_state["runs"]) == [*trained, "GPT-2 · gpt2"]
    assert app.sidebar.selectbox(key="sidebar_run").value == "GPT-2 · gpt2"
    assert "gpt2" not in app.session_state["texts"]  # a bundled run keeps nothing
