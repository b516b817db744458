"""Compare's "Every run on one text": the chosen runs on one chart from one encode each, the
measures, the table and its best marks, the example, and bad combinations said in words.

The section runs alone (AppTest.from_function), as the Compare page draws it, so the tests
do not wait for the page's other sections.
"""

from __future__ import annotations

import json

import pandas as pd
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from explorer import load_bundled
from explorer.analysis.compression.metrics import size_metrics
from tests.app_support import texts_of
from ui.session import state as keys
from ui.session.run_spec import RunKind, RunSpec
from ui.session.samples import udhr_texts

GPT4 = "GPT-4 · cl100k_base"
ENGLISH = udhr_texts()["English"]


def overlay_page() -> None:
    from ui.compare.overlay.section import overlay_section
    from ui.session.opening import init_session
    from ui.session.runs import current_run

    init_session()
    overlay_section(current_run())


def open_overlay() -> AppTest:
    app = AppTest.from_function(overlay_page, default_timeout=60).run()
    assert not app.exception, app.exception
    return app


def chart(app: AppTest) -> tuple[dict, pd.DataFrame]:
    """The overlay's Vega-Lite spec and its lines' data."""
    [element] = app.get("vega_lite_chart")
    tables = [pa.ipc.open_stream(d.data.data).read_pandas() for d in element.proto.datasets]
    return json.loads(element.proto.spec), next(t for t in tables if "Run" in t.columns)


def bytes_per_token(tokenizer, size: int, text: str) -> float:
    """Re-encoding at one size: the figure one encode must match."""
    return len(text.encode()) / len(tokenizer.at_vocab_size(size).encode_ordinary(text))


def test_every_chosen_run_is_drawn_at_every_size_from_one_encode() -> None:
    app = open_overlay()
    [ours, gpt4] = app.multiselect(key=keys.COMPARE_OVERLAY_RUNS).value
    assert gpt4 == GPT4 and ours.startswith("Shakespeare")
    spec, lines = chart(app)
    assert spec["layer"][0]["encoding"]["y"]["title"] == "Bytes per token"
    assert spec["layer"][0]["encoding"]["x"]["title"] == "Vocab size (log scale)"
    assert spec["layer"][0]["encoding"]["color"]["scale"]["domain"] == [ours, GPT4]
    tooltip = [t["field"] for t in spec["layer"][1]["encoding"]["tooltip"]]
    assert tooltip == ["Run", "Vocab size", "Value"]
    assert lines.groupby("Run")["Vocab size"].max().to_dict() == {ours: 2000, GPT4: 100_256}
    cl100k = load_bundled("cl100k_base")
    at_full = lines[(lines["Run"] == GPT4) & (lines["Vocab size"] == 100_256)]["Value"]
    whole = len(ENGLISH.encode()) / len(cl100k.encode_ordinary(ENGLISH))
    assert at_full.tolist() == [pytest.approx(whole)]
    table = app.dataframe[0].value.set_index("Run")
    assert list(table.columns) == ["1,000", "2,000", "5,000", "10,000", "20,000"]
    assert table.loc[GPT4, "5,000"] == f"{bytes_per_token(cl100k, 5000, ENGLISH):.2f}"
    assert table.loc[ours, "5,000"] == "–"  # a run of 2,000 has no size 5,000, and no star
    stars = [run for run in table.index if table.loc[run, "1,000"].endswith("★")]
    values = {run: float(table.loc[run, "1,000"].split()[0]) for run in table.index}
    assert stars == [max(values, key=values.get)]
    [sentence] = [t for t in texts_of(app.markdown) if t.startswith("At vocab size")]
    assert sentence.startswith("At vocab size 2,000, on the UDHR in English: **")
    assert "is best by bytes per token" in sentence
    measures = app.dataframe[1].value
    assert list(measures.columns)[1:6] == [
        "Bytes per token",
        "Fertility",
        "Continued words",
        "Rényi efficiency",
        "Vocabulary used",
    ]
    assert app.get("download_button")


def test_another_measure_redraws_and_ranks_the_other_way() -> None:
    app = open_overlay()
    app.radio(key=keys.COMPARE_OVERLAY_METRIC).set_value("fertility").run()
    assert not app.exception
    spec, lines = chart(app)
    assert spec["layer"][0]["encoding"]["y"]["title"] == "Fertility"
    expected = size_metrics(load_bundled("cl100k_base"), ENGLISH, [2000])[0].fertility
    gpt4 = lines[(lines["Run"] == GPT4) & (lines["Vocab size"] == 2000)]["Value"]
    assert gpt4.iloc[0] == pytest.approx(expected)
    table = app.dataframe[0].value.set_index("Run")
    values = {run: float(table.loc[run, "2,000"].split()[0]) for run in table.index}
    starred = [run for run in table.index if table.loc[run, "2,000"].endswith("★")]
    assert starred == [min(values, key=values.get)]  # fewer tokens per word is better


def test_bad_combinations_are_said_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    app = open_overlay()
    ours = app.multiselect(key=keys.COMPARE_OVERLAY_RUNS).value[0]
    app.multiselect(key=keys.COMPARE_OVERLAY_RUNS).set_value([ours]).run()
    assert any(t.startswith("One tokenizer is drawn alone") for t in texts_of(app.info))
    app.multiselect(key=keys.COMPARE_OVERLAY_RUNS).set_value([]).run()
    assert any("Choose one or more tokenizers" in t for t in texts_of(app.info))
    app.multiselect(key=keys.COMPARE_OVERLAY_RUNS).set_value([ours, GPT4]).run()
    app.radio(key=keys.COMPARE_OVERLAY_SOURCE).set_value("yours").run()
    assert any(t.startswith("Type or paste a text") for t in texts_of(app.info))
    app.text_area(key=keys.COMPARE_OVERLAY_TEXT).input(" \n ").run()
    assert any("only whitespace" in t for t in texts_of(app.info))
    monkeypatch.setattr("ui.compare.overlay.texts.MAX_TEXT_BYTES", 1024)
    app.text_area(key=keys.COMPARE_OVERLAY_TEXT).input("long words " * 100).run()
    [error] = texts_of(app.error)
    assert error.startswith("This text is 1,100 bytes") and "at most 0 MB (1,024 bytes)" in error
    app.radio(key=keys.COMPARE_OVERLAY_SOURCE).set_value("heldout").run()
    assert any("holds text out" in t for t in texts_of(app.info))
    gone = RunSpec("gone.model · 300", "gone.model", "missing", 300, "gpt4", kind=RunKind.MODEL)
    app.session_state[keys.RUNS] = {**app.session_state[keys.RUNS], gone.name: gone}
    app.radio(key=keys.COMPARE_OVERLAY_SOURCE).set_value("udhr").run()
    app.multiselect(key=keys.COMPARE_OVERLAY_RUNS).set_value([gone.name, ours]).run()
    assert not app.exception
    [warning] = texts_of(app.warning)
    assert warning.startswith("gone.model · 300 is left out: the file of")
    assert "no longer in this session" in warning
    assert chart(app)[1]["Run"].unique().tolist() == [ours]


def test_the_example_trains_four_patterns_and_compares_them_on_held_out_text() -> None:
    app = open_overlay()
    app.button(key=keys.COMPARE_OVERLAY_EXAMPLE).click().run()
    assert not app.exception, app.exception
    names = app.multiselect(key=keys.COMPARE_OVERLAY_RUNS).value
    assert [name.split(" · ")[1] for name in names] == ["none", "gpt2", "gpt4", "o200k"]
    assert app.radio(key=keys.COMPARE_OVERLAY_SOURCE).value == "heldout"
    spec, lines = chart(app)
    assert spec["layer"][0]["encoding"]["color"]["scale"]["domain"] == names
    assert set(lines.groupby("Run")["Vocab size"].max()) == {4000}
    [sentence] = [t for t in texts_of(app.markdown) if t.startswith("At vocab size")]
    assert "on the held-out 10 % of Shakespeare" in sentence and "is best by" in sentence


def fairness_page() -> None:
    from ui.compare.fairness import fairness_section
    from ui.session.opening import init_session
    from ui.session.runs import current_run

    init_session()
    fairness_section(current_run())


def test_premiums_and_gini_are_drawn_at_every_size_for_the_run_and_openai() -> None:
    app = AppTest.from_function(fairness_page, default_timeout=120).run()
    assert not app.exception, app.exception
    gini, premiums = app.get("vega_lite_chart")
    table = pa.ipc.open_stream(gini.proto.datasets[0].data.data).read_pandas()
    ours = next(name for name in table["Tokenizer"].unique() if name.startswith("Shakespeare"))
    assert set(table["Tokenizer"]) == {ours, "GPT-2 · gpt2", GPT4, "GPT-4o · o200k_base"}
    gpt2 = load_bundled("gpt2")
    costs = {
        language: len(gpt2.encode_ordinary(text)) / len(text.encode())
        for language, text in udhr_texts().items()
    }
    values = list(costs.values())  # the Gini, by its definition over all pairs
    pairs = sum(abs(a - b) for a in values for b in values)
    expected = pairs / (2 * len(values) ** 2 * (sum(values) / len(values)))
    at_full = table[(table["Tokenizer"] == "GPT-2 · gpt2") & (table["Vocab size"] == 50_256)]
    assert at_full["Gini"].tolist() == [pytest.approx(expected)]
    lines = pa.ipc.open_stream(premiums.proto.datasets[0].data.data).read_pandas()
    assert lines["Language"].nunique() == 26
    english = lines[lines["Language"] == "English"]["Premium"]
    assert set(english) == {1.0}
    [caption] = [t for t in texts_of(app.caption) if "At vocab size" in t]
    assert "for every English token; its Gini is" in caption


def test_a_long_text_is_encoded_in_a_child_with_the_same_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ui.compare.overlay import results
    from ui.server.lru import SharedLru

    app = open_overlay()
    here = app.dataframe[1].value
    monkeypatch.setattr(results, "ENCODE_HERE_MAX_CHARS", 0)  # every text counts as long
    monkeypatch.setattr(results, "_counts", SharedLru(8))  # and none is kept yet
    children: list[str] = []

    def counted(function, tokenizer, text, **kwargs):
        children.append(function.__name__)
        return in_a_child(function, tokenizer, text, **kwargs)

    in_a_child = results.in_a_child
    monkeypatch.setattr(results, "in_a_child", counted)
    app.radio(key=keys.COMPARE_OVERLAY_METRIC).set_value("fertility").run()
    assert not app.exception and not app.warning
    assert children == ["counts_in_blocks", "counts_in_blocks"]  # one child per run
    pd.testing.assert_frame_equal(app.dataframe[1].value, here)
