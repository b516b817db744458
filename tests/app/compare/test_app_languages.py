"""Compare: the cost of 26 languages at every vocab size (heatmap) and the token tax."""

from __future__ import annotations

import json

import pandas as pd
import pyarrow as pa
from streamlit.testing.v1 import AppTest

from explorer import Tokenizer, train
from explorer.files.formats import model_text
from tests.app_support import open_compare, texts_of, use_run
from ui.compare.languages import HEATMAP_TITLE, TAX_TITLE
from ui.session.run_spec import RunSpec, text_key
from ui.session.runs import bundled_spec
from ui.session.samples import UDHR_LANGUAGES, sample_text, udhr_texts

LANGUAGES = list(UDHR_LANGUAGES.values())


def chart_named(app: AppTest, title: str) -> tuple[dict, list[pd.DataFrame]]:
    """The Vega-Lite spec with this title, and its data tables, largest first."""
    for element in app.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        if spec.get("title", {}).get("text") == title:
            tables = [pa.ipc.open_stream(d.data.data).read_pandas() for d in element.proto.datasets]
            return spec, sorted(tables, key=len, reverse=True)
    raise AssertionError(f"no chart titled {title!r}")


def labels(elements) -> list[str]:
    return [element.proto.label for element in elements]


def tax_table(app: AppTest) -> pd.DataFrame:
    return next(d.value for d in app.dataframe if "Tokens per English token" in d.value.columns)


def test_the_heatmap_has_every_language_at_every_sampled_size() -> None:
    app = open_compare("Languages")
    spec, (cells, view) = chart_named(app, HEATMAP_TITLE)
    encoding = spec["layer"][0]["encoding"]
    assert encoding["x"]["title"] == "Vocab size"
    assert encoding["y"]["title"] == "Language"
    assert encoding["color"]["title"] == "Bytes per token"
    assert [t["field"] for t in encoding["tooltip"]] == [
        "Language",
        "Vocab size",
        "Bytes per token",
        "Tokens",
    ]
    assert list(dict.fromkeys(cells["Language"])) == LANGUAGES
    sizes = sorted(set(cells["Vocab size"]))
    assert sizes[0] == 256 and sizes[-1] == 2000 and 20 <= len(sizes) <= 33
    assert len(cells) == len(LANGUAGES) * len(sizes)
    assert set(view["Vocab size"]) == {2000} and len(view) == len(LANGUAGES)  # outlined
    # the numbers are the tokenizer's own: one language checked against a real encode
    english = cells[(cells["Language"] == "English") & (cells["Vocab size"] == 2000)].iloc[0]
    tokenizer = train(sample_text("shakespeare"), 2000, pattern="gpt4").tokenizer
    assert english["Tokens"] == len(tokenizer.encode_ordinary(udhr_texts()["English"]))
    at_bytes = cells[cells["Vocab size"] == 256]
    assert (at_bytes["Bytes per token"] == 1.0).all()
    assert any("26 encodes" in text for text in texts_of(app.caption))


def test_the_token_tax_follows_the_view_size() -> None:
    app = open_compare("Languages")
    table = tax_table(app)
    assert list(table.columns) == [
        "Language",
        "Tokens per English token",
        "Bytes per token",
        "Tokens",
        "Bytes",
    ]
    assert set(table["Language"]) == set(LANGUAGES)
    assert table["Tokens per English token"].is_monotonic_decreasing
    assert table.set_index("Language").loc["English", "Tokens per English token"] == 1.0
    spec, (_, rule) = chart_named(app, TAX_TITLE)
    assert spec["layer"][0]["encoding"]["x"]["title"] == "Tokens per English token"
    assert list(rule["Tokens per English token"]) == [1.0]
    assert "Download the token tax at 2,000 (CSV)" in labels(app.get("download_button"))
    at_2000 = table.set_index("Language")["Tokens"]
    app.sidebar.slider(key="sidebar_view_size").set_value(500).run()
    assert not app.exception
    at_500 = tax_table(app).set_index("Language")["Tokens"].reindex(at_2000.index)
    assert (at_500 >= at_2000).all() and (at_500 > at_2000).any()
    _, (_, view) = chart_named(app, HEATMAP_TITLE)
    assert set(view["Vocab size"]) == {500}  # a column for the view size, outlined
    assert "Download the token tax at 500 (CSV)" in labels(app.get("download_button"))


def test_a_run_with_no_merges_gets_a_message_not_a_heatmap() -> None:
    app = open_compare("Languages")
    model = model_text(Tokenizer(pattern=""))
    use_run(
        app, RunSpec("bytes", "bytes.model", text_key((model,)), 256, "", kind="model"), (model,)
    )
    assert any("made no merges" in text for text in texts_of(app.info))
    titles = [
        json.loads(c.proto.spec).get("title", {}).get("text") for c in app.get("vega_lite_chart")
    ]
    assert HEATMAP_TITLE not in titles and TAX_TITLE not in titles


def test_a_bundled_vocabulary_is_costed_at_every_size() -> None:
    app = open_compare("Languages")
    use_run(app, bundled_spec("gpt2"))
    _, (cells, _) = chart_named(app, HEATMAP_TITLE)
    assert cells["Vocab size"].max() == 50_256  # 256 bytes and 50,000 merges
    table = tax_table(app).set_index("Language")
    assert table.loc["Burmese", "Tokens per English token"] > 5  # GPT-2 barely merged it
