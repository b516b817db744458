"""The Vocabulary page: the token table, search, filters, a token's lineage, and lengths."""

from __future__ import annotations

import pandas as pd
from streamlit.testing.v1 import AppTest

from explorer import Tokenizer
from explorer.files.formats import model_text
from tests.app_support import open_app, texts_of
from ui.session import state as keys
from ui.session.run_spec import RunSpec
from ui.vocabulary.charts import length_histogram
from ui.vocabulary.lineage import chips_html, code
from ui.vocabulary.view import default_token, select_rows

AAAB = {"sample": "aaabdaaabac", "vocab": "259", "pattern": "none"}


def table(app: AppTest) -> pd.DataFrame:
    return app.dataframe[0].value


def lineage_dot(app: AppTest) -> str:
    return app.get("graphviz_chart")[0].proto.spec


def metrics(app: AppTest) -> dict[str, str]:
    return {metric.label: metric.value for metric in app.metric}


def test_search_finds_a_token_with_its_parents_and_lineage() -> None:
    app = open_app(page="vocabulary", query=AAAB)
    app.text_input(key="vocab_query").input("aaab").run()
    rows = table(app)
    assert rows["id"].tolist() == [258]
    assert rows["parents"].tolist() == ["'aaa' + 'b'"]
    assert any("**1** of 259 tokens match" in text for text in texts_of(app.caption))
    assert app.selectbox(key="vocab_token").value == 258
    assert "was created at step 3 from `'aaa'` + `'b'` (count 2)." in texts_of(app.markdown)[0]
    dot = lineage_dot(app)
    for node in ('t258 [label="aaab\\n258"', "t257", "t256", "t97", "t98", "t257 -> t258"):
        assert node in dot


def test_a_parent_button_moves_down_the_lineage() -> None:
    app = open_app(page="vocabulary", query=AAAB)
    assert app.selectbox(key="vocab_token").value == 258  # the longest token by default
    app.button(key="vocab_go_left").click().run()
    assert app.selectbox(key="vocab_token").value == 257
    said = " ".join(texts_of(app.markdown))
    assert "from `'aa'` + `'a'` (count 2)" in said
    assert "**intermediate-only**" in said
    assert "1 token built from it" in said
    assert "t258" not in lineage_dot(app) and "t256" in lineage_dot(app)


def test_intermediate_only_filter_and_caption() -> None:
    app = open_app(page="vocabulary", query=AAAB)
    assert metrics(app)["Intermediate-only"] == "2"
    app.selectbox(key="vocab_filter").set_value("Intermediate-only").run()
    assert sorted(table(app)["id"]) == [256, 257]
    assert any("stepping stones" in text for text in texts_of(app.caption))
    app.selectbox(key="vocab_filter").set_value("Bytes").run()
    assert len(table(app)) == 256


def test_word_counts_run_hug_pug() -> None:
    app = open_app(page="vocabulary", query={"sample": "hug_pug", "vocab": "259"})
    app.text_input(key="vocab_query").input("hug").run()
    rows = table(app)
    assert rows["id"].iloc[0] == 258 and rows["parents"].iloc[0] == "'h' + 'ug'"
    assert "It appears **15** times" in " ".join(texts_of(app.markdown))


def test_no_match_says_what_to_do() -> None:
    app = open_app(page="vocabulary", query=AAAB)
    app.text_input(key="vocab_query").input("zzz").run()
    assert table(app).empty
    assert any("clear the search" in text for text in texts_of(app.info))
    assert not app.exception


def test_search_an_id_and_sort_on_the_default_run() -> None:
    app = open_app(page="vocabulary")
    assert len(table(app)) == 2000
    app.text_input(key="vocab_query").input("300").run()
    rows = table(app)
    assert rows["id"].iloc[0] == 300
    assert app.selectbox(key="vocab_token").value == 300
    app.text_input(key="vocab_query").input("").run()
    app.selectbox(key="vocab_sort").set_value("Length (longest first)").run()
    lengths = table(app)["length"]
    assert lengths.iloc[0] == lengths.max() > 5
    assert "t300" not in lineage_dot(app) or app.selectbox(key="vocab_token").value == 300


def set_view_size(app: AppTest, size: int) -> None:
    """Move the sidebar's "View at vocab size" slider."""
    app.sidebar.slider(key=keys.SIDEBAR_VIEW_SIZE).set_value(size).run()


def test_the_view_size_cuts_the_table_and_hides_usage() -> None:
    app = open_app(page="vocabulary")
    set_view_size(app, 300)
    rows = table(app)
    assert len(rows) == 300 and rows["id"].max() == 299
    assert "uses" not in rows.columns and "count" in rows.columns
    assert any("known only for the full tokenizer" in text for text in texts_of(app.info))
    assert metrics(app)["Intermediate-only"] == "unknown"
    app.button(key="vocab_view_full").click().run()
    assert app.session_state[keys.SIDEBAR_VIEW_SIZE] == 2000
    assert len(table(app)) == 2000


def test_a_loaded_model_with_a_special_token() -> None:
    app = open_app(page="vocabulary", query=AAAB)
    text = model_text(Tokenizer([(97, 97), (256, 97), (257, 98)], special_tokens=["<|end|>"]))
    spec = RunSpec("loaded", "a .model file", "model-key", 259, "", kind="model")
    app.session_state["runs"] = {**app.session_state["runs"], "loaded": spec}
    app.session_state["texts"] = {**app.session_state["texts"], "model-key": (text,)}
    app.session_state["pending_run"] = "loaded"
    app.run()
    assert not app.exception
    assert any("loaded from a .model file" in text for text in texts_of(app.info))
    rows = table(app)
    assert len(rows) == 260 and "count" not in rows.columns
    assert metrics(app)["Tokens"] == "259"
    assert next(m for m in app.metric if m.label == "Tokens").proto.delta == "+ 1 special"
    assert "created at step 3 from `'aaa'` + `'b'`." in texts_of(app.markdown)[0]
    app.selectbox(key="vocab_filter").set_value("Special tokens").run()
    assert table(app)["token"].tolist() == ["<|end|>"]
    assert app.selectbox(key="vocab_token").value == 259


def test_select_rows_puts_exact_matches_first() -> None:
    frame = pd.DataFrame(
        {
            "id": [104, 256, 257, 258],
            "token": ["h", "·the", "the", "other"],
            "plain": ["h", " the", "the", "other"],
            "length": [1, 4, 3, 5],
            "kind": ["byte", "merge", "merge", "merge"],
            "intermediate": pd.array([False, True, False, None], dtype="boolean"),
        }
    )
    rows = select_rows(frame, "the", "All tokens", "Length (longest first)")
    assert rows["id"].tolist() == [257, 258, 256]
    assert select_rows(frame, " the", "All tokens", "Id")["id"].tolist() == [256]
    assert select_rows(frame, "·THE", "All tokens", "Id")["id"].tolist() == [256]
    assert select_rows(frame, "104", "All tokens", "Id")["id"].tolist() == [104]
    assert select_rows(frame, "", "Intermediate-only", "Id")["id"].tolist() == [256]
    assert default_token(select_rows(frame, "", "All tokens", "Id"), "") == 258


def test_token_text_is_escaped() -> None:
    chips = chips_html(Tokenizer([(60, 98)]), [256, 62])
    assert '"vchip">&lt;b<sub>256</sub>' in chips and '"vchip">&gt;<sub>62</sub>' in chips
    assert code("a`b") == "`` a`b ``" and code("x") == "`x`"


def test_the_length_legend_names_only_the_kinds_there_are() -> None:
    rows = {"id": [97, 256, 257, 258], "length": [1, 2, 3, 5], "kind": ["byte", *["merge"] * 3]}
    merges_only = length_histogram(pd.DataFrame(rows)).to_dict()
    assert merges_only["encoding"]["color"]["scale"]["domain"] == ["merged"]
    rows = {
        key: [*value, {"id": 259, "length": 7, "kind": "special"}[key]]
        for key, value in rows.items()
    }
    both = length_histogram(pd.DataFrame(rows)).to_dict()
    assert both["encoding"]["color"]["scale"]["domain"] == ["merged", "special"]
