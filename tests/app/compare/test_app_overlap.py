"""Compare: how much of your vocabulary GPT-2, GPT-4 and GPT-4o already have."""

from __future__ import annotations

import json

import pandas as pd
import pyarrow as pa
from streamlit.testing.v1 import AppTest

from explorer import Tokenizer, load_bundled, train
from explorer.analysis.vocabulary.vocab_overlap import vocabulary_bytes
from explorer.files.formats import model_text
from tests.app_support import open_compare, texts_of, use_run
from ui.compare.overlap import MISSING_COLUMNS, OVERLAP_TITLE
from ui.session.run_spec import RunSpec, text_key
from ui.session.runs import bundled_spec
from ui.session.samples import sample_text


def overlap_chart(app: AppTest) -> tuple[dict, pd.DataFrame] | None:
    for element in app.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        if spec.get("title", {}).get("text") == OVERLAP_TITLE:
            (data,) = element.proto.datasets
            return spec, pa.ipc.open_stream(data.data.data).read_pandas()
    return None


def shares(app: AppTest) -> dict[str, str]:
    return {m.label: str(m.value) for m in app.metric if m.label.startswith("In ")}


def missing_tables(app: AppTest) -> list[pd.DataFrame]:
    return [d.value for d in app.dataframe if list(d.value.columns) == MISSING_COLUMNS]


def test_the_shares_and_the_longest_missing_tokens() -> None:
    app = open_compare("GPT overlap")
    spec, frame = overlap_chart(app)
    encoding = spec["encoding"]
    assert encoding["x"]["title"] == "Share of your merged tokens"
    assert encoding["y"]["title"] == "GPT vocabulary"
    assert {t["field"] for t in encoding["tooltip"]} == {"Vocabulary", "Share", "Shared", "Missing"}
    assert list(frame["Vocabulary"]) == ["GPT-2", "GPT-4", "GPT-4o"]
    assert set(frame["Yours"]) == {1744}  # Shakespeare at 2,000: 1,744 merges, all distinct
    # the numbers are real: GPT-4's share computed here from the same tokenizer
    yours = train(sample_text("shakespeare"), 2000, pattern="gpt4").tokenizer
    gpt4 = vocabulary_bytes(load_bundled("cl100k_base"))
    shared = sum(yours.vocab[i] in gpt4 for i in range(256, 2000))
    assert frame.set_index("Vocabulary").loc["GPT-4", "Shared"] == shared
    assert shares(app)["In GPT-4's vocabulary"] == f"{shared / 1744:.0%}"
    tables = missing_tables(app)
    assert len(tables) == 3 and all(len(t) == 10 for t in tables)
    lengths = list(tables[1]["Length in bytes"])
    assert lengths == sorted(lengths, reverse=True)
    first = tables[1].iloc[0]
    data = yours.vocab[255 + int(first["Merge"])]
    assert first["Hex"] == data.hex(" ") and data not in gpt4
    assert any("256 single bytes" in text for text in texts_of(app.caption))


def test_the_view_size_decides_which_tokens_count() -> None:
    app = open_compare("GPT overlap")
    app.sidebar.slider(key="sidebar_view_size").set_value(300).run()
    _, frame = overlap_chart(app)
    assert set(frame["Yours"]) == {44}
    app.sidebar.slider(key="sidebar_view_size").set_value(256).run()
    assert not app.exception
    assert overlap_chart(app) is None
    assert any("only the 256 single bytes" in text for text in texts_of(app.info))


def test_a_run_with_no_merges_gets_a_message() -> None:
    app = open_compare("GPT overlap")
    model = model_text(Tokenizer(pattern=""))
    use_run(app, RunSpec("bytes", "b.model", text_key((model,)), 256, "", kind="model"), (model,))
    assert overlap_chart(app) is None and not shares(app)
    assert any("only the 256 single bytes" in text for text in texts_of(app.info))


def test_a_bundled_vocabulary_is_not_compared_with_itself() -> None:
    app = open_compare("GPT overlap")
    use_run(app, bundled_spec("cl100k_base"))
    assert any("GPT-4's own vocabulary" in text for text in texts_of(app.info))
    _, frame = overlap_chart(app)
    assert list(frame["Vocabulary"]) == ["GPT-2", "GPT-4o"]
    assert set(shares(app)) == {"In GPT-2's vocabulary", "In GPT-4o's vocabulary"}
    assert len(missing_tables(app)) == 2
