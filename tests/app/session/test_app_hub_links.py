"""`?hub=ORG/NAME` on every page, and the Train page's box, from the offline Hub cache.

The real loading code runs (explorer/models/hub.py with huggingface_hub, the child that
reads the file, the server's LRU) on the `hub_cache` fixture's cache with HF_HUB_OFFLINE=1:
no mock, no network. A link opens the model on the page it names, keeps that page's own
state (`text=` on Tokens), and says in a sentence why a model did not open.
"""

from __future__ import annotations

import threading

import pytest
from streamlit.testing.v1 import AppTest

from explorer.models.hub import locate
from harness.hub_cache import OPEN_WEIGHT, HubCache
from tests.app_support import open_app, texts_of
from tests.engine.test_cli_models import tekken_reference
from ui.session import state as keys
from ui.session.hub_models import counts, forget_models, held_model
from ui.session.run_spec import RunKind

PAGES = ("train", "animate", "tokens", "vocabulary", "compare")
# a first run that reads Gemma 3's 33 MB in a child took 30-40 s on the loaded 2-core machine
READ_TIMEOUT = 300
TEXT = "Café ﬁne: Ｈｅｌｌｏ 東京 🤖 123"


def current(app: AppTest):
    """The run on screen (the sidebar's choice)."""
    return app.session_state[keys.RUNS][app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value]


def shown_ids(app: AppTest) -> list[int]:
    """The ids in the Tokens page's "ids to copy" block (a normalizer's change adds two
    blocks of text before it: the text and the normalised text)."""
    (block,) = [code.value for code in app.code if code.value.replace(" ", "").isdigit()]
    return [int(word) for word in block.split()]


@pytest.mark.parametrize("page", PAGES)
def test_hub_opens_the_model_on_every_page(hub_cache: HubCache, page: str):
    app = open_app(page, {"hub": "meta-llama/Llama-2-7b-hf"}, timeout=READ_TIMEOUT)
    assert not app.exception, app.exception
    assert not texts_of(app.error), texts_of(app.error)
    spec = current(app)
    assert spec.kind is RunKind.HUB_MODEL and spec.name.startswith("meta-llama/Llama-2-7b-hf")
    assert app.query_params["hub"] == "meta-llama/Llama-2-7b-hf"
    assert "run" not in app.query_params
    assert "meta-llama/Llama-2-7b-hf" in " ".join(texts_of(app.sidebar.caption)).replace("\\", "")


@pytest.mark.parametrize(
    "name",
    [
        "Qwen/Qwen3-0.6B",
        "deepseek-ai/DeepSeek-V3",
        "meta-llama/Meta-Llama-3-8B",
        "google/gemma-3-1b-it",
        "meta-llama/Llama-2-7b-hf",
    ],
)
def test_tokens_keeps_the_links_text_and_shows_the_references_ids(hub_cache: HubCache, name):
    from tokenizers import Tokenizer

    app = open_app("tokens", {"hub": name, "text": TEXT}, timeout=READ_TIMEOUT)
    assert not app.exception, app.exception
    assert app.text_area(key=keys.TOKENS_TEXT).value == TEXT
    source = OPEN_WEIGHT / hub_cache.repos[name]["tokenizer.json"]
    reference = Tokenizer.from_file(str(source)).encode(TEXT, add_special_tokens=False).ids
    assert shown_ids(app) == reference
    assert app.query_params["text"] == TEXT


def test_mistral_s_tekken_by_hub_shows_the_ids_mistral_common_gives(hub_cache: HubCache):
    """Pixtral's tekken.json (Mistral's format, not a tokenizer.json): Tokens shows
    mistral-common's numbering (tiktoken's ranks + the 1,000 special ids), and every page
    opens with it."""
    name = "mistralai/Pixtral-12B-2409"
    app = open_app("tokens", {"hub": name, "text": TEXT}, timeout=READ_TIMEOUT)
    assert not app.exception, app.exception
    reference = tekken_reference(OPEN_WEIGHT / hub_cache.repos[name]["tekken.json"])
    assert shown_ids(app) == reference(TEXT)
    for page in PAGES:
        app.switch_page(f"pages/{page}.py").run()
        assert not app.exception, (page, app.exception)
        assert not texts_of(app.error), (page, texts_of(app.error))


def test_a_model_that_does_not_open_is_a_note_and_the_rest_of_the_link_opens(
    hub_cache: HubCache,
):
    app = open_app("tokens", {"hub": "nobody/nothing", "text": "kept"})
    assert not app.exception, app.exception
    notes = " ".join(texts_of(app.info)).replace("\\", "")
    assert "'nobody/nothing' is not in this server's Hub cache" in notes
    assert current(app).kind is RunKind.TEXT  # the default sample, as a link without hub=
    assert "hub" not in app.query_params


def test_a_link_names_several_models_and_the_first_is_on_screen(hub_cache: HubCache):
    link = "meta-llama/Llama-2-7b-hf,Qwen/Qwen3-0.6B,not a name"
    app = open_app("tokens", {"hub": link}, timeout=READ_TIMEOUT)
    assert not app.exception, app.exception
    kinds = [spec.kind for spec in app.session_state[keys.RUNS].values()]
    assert kinds.count(RunKind.HUB_MODEL) == 2
    assert current(app).name.startswith("meta-llama/Llama-2-7b-hf")
    notes = " ".join(texts_of(app.info)).replace("\\", "")
    assert "'not a name' is not a Hub model's name" in notes


# --- the Train page's box ------------------------------------------------------------------


def open_in_box(app: AppTest, name: str) -> AppTest:
    app.text_input(key=keys.TRAIN_HUB_NAME).input(name)
    app.button(key=keys.TRAIN_HUB_OPEN).click().run(timeout=300)
    assert not app.exception, app.exception
    return app


def test_the_train_box_opens_a_model_by_name(hub_cache: HubCache):
    app = open_in_box(open_app("train"), "Qwen/Qwen3-0.6B")
    assert not texts_of(app.error), texts_of(app.error)
    spec = current(app)
    assert spec.kind is RunKind.HUB_MODEL and "NFC" in spec.name
    assert app.query_params["hub"] == "Qwen/Qwen3-0.6B"


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("nobody/nothing", "is not in this server's Hub cache"),
        ("a/b/c", "is not a Hub model's name"),
        ("", "Write a Hub model's name"),
    ],
)
def test_the_train_box_says_why_a_name_did_not_open(hub_cache: HubCache, name, sentence):
    app = open_in_box(open_app("train"), name)
    (error,) = texts_of(app.error)
    assert sentence in error.replace("\\", "")
    assert app.text_input(key=keys.TRAIN_HUB_NAME).value == name  # the name stays in the box
    assert current(app).kind is RunKind.TEXT


def test_with_fetching_off_the_box_says_so_and_the_cache_still_opens(
    hub_cache: HubCache, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setenv("BPE_EXPLORER_HUB", "off")
    app = open_app("train")
    captions = " ".join(texts_of(app.caption))
    assert "Fetching from the Hub is off on this server" in captions
    open_in_box(app, "meta-llama/Llama-2-7b-hf")
    assert current(app).kind is RunKind.HUB_MODEL


# --- §5: one load for a class -----------------------------------------------------------


def test_a_class_of_thirty_opening_one_model_costs_one_load(hub_cache: HubCache):
    forget_models()  # as a fresh server
    found = locate("deepseek-ai/DeepSeek-V3")
    before = counts()["loads"]
    models: list[object] = []
    threads = [threading.Thread(target=lambda: models.append(held_model(found))) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert len(models) == 30 and all(model is models[0] for model in models)
    assert counts()["loads"] == before + 1
    for _ in range(3):  # sessions opening it by link find it held: no load either
        query = {"hub": "deepseek-ai/DeepSeek-V3", "text": "hello"}
        app = open_app("tokens", query, timeout=READ_TIMEOUT)
        assert current(app).kind is RunKind.HUB_MODEL
    assert counts()["loads"] == before + 1
    assert counts()["fetches"] == 0  # the cache had it: nothing fetched


def test_a_hub_the_url_gains_opens_once_and_leaving_the_model_drops_it(hub_cache: HubCache):
    app = open_app("tokens")
    sample = current(app).name
    app.query_params["hub"] = "meta-llama/Llama-2-7b-hf"  # a page's link to a model
    app.run(timeout=READ_TIMEOUT)
    assert not app.exception, app.exception
    assert current(app).kind is RunKind.HUB_MODEL
    app.sidebar.selectbox(key=keys.SIDEBAR_RUN).select(sample).run()
    assert not app.exception, app.exception
    assert current(app).name == sample  # not opened again from the URL it had
    assert "hub" not in app.query_params and "run" in app.query_params


def test_a_hub_run_is_kept_on_the_servers_disk_and_its_run_key_reopens_it(hub_cache: HubCache):
    first = open_app("tokens", {"hub": "meta-llama/Llama-2-7b-hf"}, timeout=READ_TIMEOUT)
    spec = current(first)
    texts = first.session_state[keys.TEXTS][spec.text_key]
    assert len(texts) == 1 and len(texts[0]) < 1000  # which files of which commit, not a file
    forget_models()  # as after a restart: read again from the Hub cache
    again = open_app("tokens", {"run": spec.store_key}, timeout=READ_TIMEOUT)  # a class's link
    assert current(again).kind is RunKind.HUB_MODEL and current(again).name == spec.name
    assert again.query_params["hub"] == "meta-llama/Llama-2-7b-hf"
