"""Compare's "Real models" tab (ui/compare/models/): two to six tokenizers — the session's,
GPT's bundled ones, Hub names from huggingface_hub's offline cache — on 26 languages, side
by side on a passage, and their overlap; the link (hub=, with=) reproduces the comparison.

Every token count the chart shows is held to the reference library's: `tokenizers` for a
tokenizer.json, tiktoken for GPT's vocabularies. The models are the real files of
../shared/reference/open-weight/ in a Hub cache (harness/hub_cache.py); without ../shared the
tests skip.
"""

from __future__ import annotations

import json
import re

import pandas as pd
import pyarrow as pa
import pytest
import tiktoken
from streamlit.testing.v1 import AppTest
from tokenizers import Tokenizer as HfTokenizer

from harness.hub_cache import HubCache, model_file
from tests.app_support import APP, TIMEOUT, open_app, texts_of
from tests.engine.official_vocabularies import official_spec
from ui.compare.models.languages import MODELS_CHART_TITLE
from ui.compare.models.section import TAB
from ui.session import state as keys
from ui.session.samples import udhr_texts

LLAMA3, QWEN3, DEEPSEEK, GEMMA3 = (
    "meta-llama/Meta-Llama-3-8B",
    "Qwen/Qwen3-0.6B",
    "deepseek-ai/DeepSeek-V3",
    "google/gemma-3-1b-it",
)


@pytest.fixture(autouse=True)
def offline_hub(hub_cache: HubCache) -> HubCache:
    """The offline Hub cache (tests/conftest.py), for every test here; skipped without
    ../shared."""
    return hub_cache


def linked(query: dict[str, str], page: str = "compare") -> AppTest:
    """A new session whose first request is the link `/<page>?<query>`, as a browser's is
    (tests.app_support.open_app first runs the root, whose run writes Train's own link)."""
    app = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for name, value in query.items():
        app.query_params[name] = value
    app.switch_page(f"pages/{page}.py").run()
    assert not app.exception, app.exception
    return app


def models_chart(app: AppTest) -> pd.DataFrame:
    """The data of the real models' chart."""
    for element in app.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        if spec.get("title", {}).get("text") == MODELS_CHART_TITLE:
            tables = [pa.ipc.open_stream(d.data.data).read_pandas() for d in element.proto.datasets]
            return max(tables, key=len)
    raise AssertionError("no chart of the real models")


def reference_counts(repo: str) -> dict[str, int]:
    """The `tokenizers` package's own count of each UDHR text, no BOS or EOS."""
    library = HfTokenizer.from_file(str(model_file(repo)))
    return {
        language: len(library.encode(text, add_special_tokens=False).ids)
        for language, text in udhr_texts().items()
    }


def tiktoken_counts(name: str) -> dict[str, int]:
    spec = official_spec(name)
    encoding = tiktoken.Encoding(
        name=spec["name"],
        pat_str=spec["pat_str"],
        mergeable_ranks=spec["mergeable_ranks"],
        special_tokens=spec["special_tokens"],
    )
    return {lang: len(encoding.encode_ordinary(text)) for lang, text in udhr_texts().items()}


def counts_of(frame: pd.DataFrame, label: str) -> dict[str, int]:
    rows = frame[frame["Tokenizer"] == label]
    return {str(r["Language"]): int(r["Tokens"]) for _, r in rows.iterrows()}


def test_a_link_with_hub_names_opens_the_comparison_and_every_count_is_the_libraries() -> None:
    app = linked({"hub": f"{LLAMA3},{QWEN3}", "run": "o200k_base"})
    assert not app.error, texts_of(app.error)
    assert app.session_state[keys.COMPARE_SECTION] == TAB
    assert app.multiselect(key=keys.COMPARE_MODELS).value == [
        "GPT-4o · o200k_base",
        LLAMA3,
        QWEN3,
    ]
    frame = models_chart(app)
    assert len(frame) == 3 * 26
    assert counts_of(frame, LLAMA3) == reference_counts(LLAMA3)
    assert counts_of(frame, QWEN3) == reference_counts(QWEN3)
    assert counts_of(frame, "GPT-4o · o200k_base") == tiktoken_counts("o200k_base")
    english = frame[frame["Language"] == "English"]
    assert set(english["Premium against English"]) == {1.0}
    assert app.query_params["hub"] == f"{LLAMA3},{QWEN3}"  # the link still says it
    assert "with" not in app.query_params


def test_six_tokenizers_on_one_chart_and_the_link_follows_the_picker() -> None:
    hub = ",".join([LLAMA3, QWEN3, DEEPSEEK, GEMMA3, "meta-llama/Llama-2-7b-hf"])
    app = linked({"hub": hub, "with": "gpt2,cl100k_base"})
    assert not app.error, texts_of(app.error)
    notes = " ".join(texts_of(app.info))
    assert "holds at most 6, so the last 1 were left out" in notes
    picked = app.multiselect(key=keys.COMPARE_MODELS).value
    assert len(picked) == 6 and picked[-1] == "meta-llama/Llama-2-7b-hf"
    frame = models_chart(app)
    assert list(dict.fromkeys(frame["Tokenizer"])) == picked
    for repo in (DEEPSEEK, GEMMA3):
        assert counts_of(frame, repo) == reference_counts(repo)
    assert counts_of(frame, "GPT-2 · gpt2") == tiktoken_counts("gpt2")  # cl100k_base: 7th, out
    # four left: the address bar says so, and the chart follows
    app.multiselect(key=keys.COMPARE_MODELS).set_value([GEMMA3, "GPT-2 · gpt2", QWEN3, LLAMA3])
    app.run()
    assert not app.exception and not app.error
    assert app.query_params["hub"] == f"{GEMMA3},{QWEN3},{LLAMA3}"
    assert app.query_params["with"] == "gpt2"
    assert set(models_chart(app)["Tokenizer"]) == {GEMMA3, "GPT-2 · gpt2", QWEN3, LLAMA3}


def test_the_passage_is_split_side_by_side_with_the_places_numbered_alike() -> None:
    app = linked({"hub": f"{LLAMA3},{GEMMA3}", "with": "none"})
    assert not app.error, texts_of(app.error)
    app.text_area(key=keys.COMPARE_MODELS_PASSAGE).set_value("Tokenizers disagree: naïve façade.")
    app.run()
    views = [str(e.value) for e in app.html if "sd-view" in str(e.value)]
    assert len(views) == 2
    numbers = [re.findall(r'data-place="(\d+)"', view) for view in views]
    assert numbers[0] == numbers[1] and numbers[0]  # the same places, in order, on both sides
    headline = [h for h in texts_of(app.markdown) if "where the splits differ" in h]
    assert headline == [f"### {len(numbers[0])} places where the splits differ"]
    # every column's text is the passage itself, however its model spells spaces
    for view in views:
        text = re.sub(r"<sup[^>]*>\d+</sup>|<[^>]+>", "", view.split("</style>")[1])
        assert text.replace("·", " ").replace("&#x27;", "'") == "Tokenizers disagree: naïve façade."


def test_a_name_the_cache_lacks_or_that_is_no_name_gets_one_sentence() -> None:
    app = linked({"hub": "nobody/no-such-model,../etc", "with": "gpt2"})
    assert not app.exception
    errors = texts_of(app.error)
    assert any("'nobody/no-such-model' is not in this server's Hub cache" in e for e in errors)
    assert any("'../etc' is not a Hub model's name" in e for e in errors)
    assert "Choose two to six tokenizers" in " ".join(texts_of(app.info))


def test_a_model_in_the_sidebar_opens_compare_on_its_comparison() -> None:
    from tests.app.train.test_app_model_uploads import FILES, folder_of, upload

    folder = folder_of("llama2")
    app = open_app("train")
    upload(app, *((name, (folder / name).read_bytes()) for name in FILES["llama2"]))
    model_run = app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value
    app.switch_page("pages/compare.py").run()
    assert not app.exception and not app.error, texts_of(app.error)
    assert "Compare measures our own runs" in " ".join(texts_of(app.info))
    assert [tab.label for tab in app.tabs] == [TAB]  # the tabs of our runs' sizes need a run
    assert app.multiselect(key=keys.COMPARE_MODELS).value == [model_run, "GPT-4o · o200k_base"]
    assert counts_of(models_chart(app), model_run) == reference_counts("meta-llama/Llama-2-7b-hf")


@pytest.mark.parametrize(
    "value", ["²", "9" * 5000, ",,,", "\x00", "[Log in again](https:evil.example)", "a/b/c"]
)
def test_a_hostile_comparison_link_gets_sentences_not_an_exception(value: str) -> None:
    app = linked({"hub": value, "with": value})
    assert not app.exception, app.exception
    shown = " ".join(texts_of(app.error) + texts_of(app.info))
    if value.strip(","):  # a value that names something: none of it opens, and it is said
        assert "Choose two to six tokenizers" in shown
    assert "https:evil" not in " ".join(str(e.value) for e in app.error if "](" in str(e.value))
    assert len(shown) < 3_000  # a long value is quoted by its start only
