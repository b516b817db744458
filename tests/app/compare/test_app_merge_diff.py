"""Compare's "Two tokenizers, merge by merge": the merge comparison and where two
tokenizers split the passage differently, checked against the engine."""

from __future__ import annotations

import json
from functools import cache

import pyarrow as pa
from streamlit.testing.v1 import AppTest

from explorer import Tokenizer, load_bundled, train
from explorer.analysis.diffs.merge_diff import MergeDiff, merge_diff, merge_tokens
from explorer.analysis.diffs.split_diff import differing_spans, token_boundaries
from tests.app_support import open_compare, texts_of
from ui.session.run_spec import RunSpec, text_key

TEXT = "the cat sat on the mat; the hat that the rat ate, and then the bat sat. " * 30
PASSAGE = "The rat sat on that mat, then the cat ate the hat."
SAMPLE = "Shakespeare · gpt4 · 2k"
GPT4 = "GPT-4 · cl100k_base"


@cache
def trained(pattern: str) -> Tokenizer:
    """What the app trains for TEXT at vocab size 300 (training is deterministic)."""
    return train(TEXT, 300, pattern=pattern).tokenizer


def spec_of(pattern: str) -> RunSpec:
    return RunSpec(f"cats · {pattern} · 300", "cats", text_key((TEXT,)), 300, pattern)


def with_runs(*patterns: str) -> AppTest:
    """The Compare page with runs trained on TEXT added (as Train adds them)."""
    app = open_compare("Two tokenizers")
    specs = {spec.name: spec for spec in map(spec_of, patterns)}
    app.session_state["runs"] = {**app.session_state["runs"], **specs}
    app.session_state["texts"] = {**app.session_state["texts"], text_key((TEXT,)): (TEXT,)}
    app.run()
    assert not app.exception, app.exception
    return app


def pick(app: AppTest, a: str, b: str) -> None:
    app.selectbox(key="compare_pair_a").set_value(a)
    app.selectbox(key="compare_pair_b").set_value(b).run()
    assert not app.exception, app.exception


def metric_values(app: AppTest) -> dict[str, str]:
    names = ("Merges both learned", "Only A learned", "Only B learned", "First divergence")
    return {m.label: str(m.value) for m in app.metric if m.label in names}


def expected_metrics(diff: MergeDiff) -> dict[str, str]:
    first = diff.first_divergence
    return {
        "Merges both learned": f"{len(diff.shared):,}",
        "Only A learned": f"{len(diff.only_a):,}",
        "Only B learned": f"{len(diff.only_b):,}",
        "First divergence": "none" if first is None else f"merge {first:,}",
    }


def scatter(app: AppTest) -> tuple[dict, list]:
    """The scatter's Vega-Lite spec and data (the chart titled for shared merges)."""
    for chart in app.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        if spec.get("title", {}).get("text", "").startswith("When each shared merge"):
            tables = [pa.ipc.open_stream(d.data.data).read_pandas() for d in chart.proto.datasets]
            return spec, tables
    raise AssertionError("no scatter of shared merges on the page")


def lone_tables(app: AppTest) -> list:
    """The tables of merges only A and only B learned (other sections have tables too);
    a side with none has a caption instead."""
    columns = ["Merge", "Token", "Bytes (hex)", "Length"]
    return [frame.value for frame in app.dataframe if list(frame.value.columns) == columns]


def split_views(app: AppTest) -> list[str]:
    return [h.proto.body for h in app.get("html") if 'class="sd-view"' in h.proto.body]


def test_a_new_session_compares_its_run_with_gpt4() -> None:
    app = open_compare("Two tokenizers")
    assert app.selectbox(key="compare_pair_a").value == SAMPLE
    assert app.selectbox(key="compare_pair_b").value == GPT4
    assert "A at vocab size 2,000: 1,744 merges, all of them · B at vocab size 2,000: " in " ".join(
        texts_of(app.caption)
    )
    values = metric_values(app)
    shared, only_a, only_b = (
        int(values[k].replace(",", ""))
        for k in ("Merges both learned", "Only A learned", "Only B learned")
    )
    assert shared + only_a == shared + only_b == 1_744 and 0 < shared < 1_744
    spec, tables = scatter(app)
    points = spec["layer"][1]["encoding"]
    assert points["x"]["title"] == f"Merge number in A ({SAMPLE})"
    assert points["y"]["title"] == f"Merge number in B ({GPT4})"
    assert [t["field"] for t in points["tooltip"]] == [
        "Token",
        "Bytes (hex)",
        "Merge in A",
        "Merge in B",
    ]
    data = next(t for t in tables if "Token" in t.columns)
    assert len(data) == shared and data["Merge in A"].min() >= 1  # numbered from 1
    assert "·t" in set(data["Token"])  # " t": spaces shown as ·
    assert len(app.get("download_button")) >= 2


def test_none_against_gpt4_on_one_text_matches_the_engine() -> None:
    app = with_runs("none", "gpt4")
    pick(app, spec_of("none").name, spec_of("gpt4").name)
    diff = merge_diff(merge_tokens(trained("none")), merge_tokens(trained("gpt4")))
    assert metric_values(app) == expected_metrics(diff)
    assert diff.first_divergence is not None and diff.only_a and diff.only_b
    only_a, only_b = lone_tables(app)
    assert list(only_a.columns) == ["Merge", "Token", "Bytes (hex)", "Length"]
    assert list(only_a["Merge"]) == [m.merge for m in diff.only_a]
    assert list(only_b["Merge"]) == [m.merge for m in diff.only_b]
    # swapping A and B swaps the answer
    pick(app, spec_of("gpt4").name, spec_of("none").name)
    swapped = expected_metrics(
        merge_diff(merge_tokens(trained("gpt4")), merge_tokens(trained("none")))
    )
    assert metric_values(app) == swapped
    assert swapped["Only A learned"] == expected_metrics(diff)["Only B learned"]


def test_the_tables_filter_by_text_or_hex() -> None:
    app = with_runs("none", "gpt4")
    pick(app, spec_of("none").name, spec_of("gpt4").name)
    app.text_input(key="compare_only_a_query").input("t·").run()
    rows = lone_tables(app)[0]
    assert len(rows) and all("t·" in token for token in rows["Token"])
    assert any(
        text.endswith("merges match.") or text.endswith("merge match.")
        for text in texts_of(app.caption)
    )
    app.text_input(key="compare_only_a_query").input("20").run()  # hex of a space
    assert all(
        "20" in h.replace(" ", "") or "20" in t
        for h, t in zip(lone_tables(app)[0]["Bytes (hex)"], lone_tables(app)[0]["Token"])
    )
    app.text_input(key="compare_only_a_query").input("no such token").run()
    assert len(lone_tables(app)[0]) == 0
    assert "0 merges match." in texts_of(app.caption)


def test_a_run_compared_with_itself_says_so() -> None:
    app = open_compare("Two tokenizers")
    pick(app, SAMPLE, SAMPLE)
    infos = texts_of(app.info)
    assert any("A and B are the same tokenizer" in text and "every merge" in text for text in infos)
    assert any("they split every passage alike" in text for text in infos)
    assert not metric_values(app) and not split_views(app)


def test_a_run_with_no_merges_says_so() -> None:
    app = open_compare("Two tokenizers")
    app.sidebar.slider(key="sidebar_view_size").set_value(256).run()
    both = f"A ({SAMPLE}) and B ({GPT4}) have no merges at vocab size 256"  # GPT-4 is cut to A
    assert any(both in text for text in texts_of(app.info))
    app.toggle(key="compare_pair_full").set_value(True).run()
    assert any(f"A ({SAMPLE}) has no merges" in text for text in texts_of(app.info))
    assert not metric_values(app)
    assert "A at vocab size 256: 0 merges, of 1,744" in " ".join(texts_of(app.caption))


def test_openai_in_full_or_cut_to_the_other_side() -> None:
    app = with_runs("gpt4")
    pick(app, spec_of("gpt4").name, "GPT-4o · o200k_base")
    size = trained("gpt4").vocab_size  # training stops early on so repetitive a text
    gpt4o = load_bundled("o200k_base").vocab_size
    captions = " ".join(texts_of(app.caption))
    assert f"B at vocab size {size}: {size - 256} merges, of {gpt4o - 256:,}" in captions
    app.toggle(key="compare_pair_full").set_value(True).run()
    full = f"B at vocab size {gpt4o:,}: {gpt4o - 256:,} merges, all of them"
    assert full in " ".join(texts_of(app.caption))
    diff = merge_diff(merge_tokens(trained("gpt4")), merge_tokens(load_bundled("o200k_base")))
    assert metric_values(app) == expected_metrics(diff)
    assert any("the first 5,000 are shown" in text for text in texts_of(app.caption))
    assert any("None: the other tokenizer learned every one" in t for t in texts_of(app.caption))
    assert [len(table) for table in lone_tables(app)] == [5_000]  # only B's


def test_the_splits_differ_where_the_engine_says() -> None:
    app = with_runs("none", "gpt4")
    app.text_area(key="compare_passage").input(PASSAGE).run()
    pick(app, spec_of("none").name, spec_of("gpt4").name)
    encodings = [trained(p).encode_with_spans(PASSAGE) for p in ("none", "gpt4")]
    spans = differing_spans(PASSAGE, *(token_boundaries(e.byte_spans) for e in encodings))
    assert len(spans) > 1
    assert f"### {len(spans)} places where the splits differ" in texts_of(app.markdown)
    views = split_views(app)
    assert len(views) == 2 and all(v.count('<mark class="sd-place"') == len(spans) for v in views)
    pick(app, spec_of("gpt4").name, spec_of("gpt4").name)
    assert not split_views(app)


def test_an_empty_passage_and_markup_in_it() -> None:
    app = open_compare("Two tokenizers")
    app.text_area(key="compare_passage").input("").run()
    assert any(
        "Type a passage" in text and "see where A and B split it" in text
        for text in texts_of(app.info)
    )
    app.text_area(key="compare_passage").input("<img src=x onerror=alert(1)> naïve 😀").run()
    views = split_views(app)
    assert len(views) == 2 and all("<img" not in view and "&lt;" in view for view in views)


def test_the_example_trains_none_beside_gpt4_and_compares_them() -> None:
    app = open_compare("Two tokenizers")
    app.button(key="compare_pair_example").click().run()
    assert not app.exception, app.exception
    none = "Shakespeare · none · 2k"
    assert app.sidebar.selectbox(key="sidebar_run").value == none
    assert app.selectbox(key="compare_pair_a").value == none
    assert app.selectbox(key="compare_pair_b").value == SAMPLE  # the run it replaced
    assert metric_values(app)["First divergence"] == "merge 1"
    only_none = set(lone_tables(app)[0]["Token"])
    assert {"e·", ",·"} <= only_none  # tokens that end in a space: `gpt4` never makes them
    assert not {"e·", ",·"} & set(lone_tables(app)[1]["Token"])
