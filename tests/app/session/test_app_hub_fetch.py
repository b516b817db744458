"""The app's fetch of a Hub model: in a child, one at a time per server, once for everyone.

huggingface_hub is not mocked: it talks to tests/fake_hub.py on 127.0.0.1 (HF_ENDPOINT),
which answers as the Hub does, into an empty cache of this test's own.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from harness.hub_cache import OPEN_WEIGHT
from tests.app_support import open_app, texts_of
from tests.fake_hub import FakeRepo, serving
from ui.session import state as keys
from ui.session.hub_models import counts, forget_models, held_model, located
from ui.session.run_spec import RunKind


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    llama2 = OPEN_WEIGHT / "llama2"
    if not llama2.exists():
        pytest.skip("../shared is not here")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    for name in ("HF_HUB_OFFLINE", "BPE_EXPLORER_HUB", "HF_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    forget_models()  # as a fresh server
    return llama2


def repo(folder: Path) -> FakeRepo:
    names = ("tokenizer.json", "tokenizer_config.json")
    return FakeRepo({name: (folder / name).read_bytes() for name in names})


def test_a_model_is_fetched_once_then_opens_for_every_visitor(
    empty_cache: Path, monkeypatch: pytest.MonkeyPatch
):
    before = counts()
    with serving({"meta-llama/Llama-2-7b-hf": repo(empty_cache)}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        first = open_app("train", timeout=300)
        first.text_input(key=keys.TRAIN_HUB_NAME).input("meta-llama/Llama-2-7b-hf")
        first.button(key=keys.TRAIN_HUB_OPEN).click().run(timeout=300)
        assert not first.exception and not texts_of(first.error), texts_of(first.error)
        runs = first.session_state[keys.RUNS]
        spec = runs[first.sidebar.selectbox(key=keys.SIDEBAR_RUN).value]
        assert spec.kind is RunKind.HUB_MODEL
        second = open_app("tokens", {"hub": "meta-llama/Llama-2-7b-hf", "text": "hi"}, timeout=300)
        assert not second.exception
        fetched = [r for r in hub.requests if r.startswith("GET") and "/resolve/" in r]
    assert len(fetched) == 2  # tokenizer.json and its config, once
    assert counts()["fetches"] == before["fetches"] + 1
    assert counts()["loads"] == before["loads"] + 1


def test_two_models_fetched_at_once_download_one_after_the_other(
    empty_cache: Path, monkeypatch: pytest.MonkeyPatch
):
    llama = repo(empty_cache)
    other = FakeRepo({**llama.files, "README.md": b"another commit"})
    with serving({"a/one": llama, "b/two": other}, file_seconds=0.5) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        found = [located("a/one"), located("b/two")]
        errors: list[BaseException] = []

        def open_one(index: int) -> None:
            try:
                held_model(found[index])
            except BaseException as exc:  # shown by the assertion below
                errors.append(exc)

        threads = [threading.Thread(target=open_one, args=(i,)) for i in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
    assert not errors, errors
    assert hub.most_sending == 1  # the server's one download slot: never two at once
    assert len([r for r in hub.requests if r.startswith("GET") and "/resolve/" in r]) == 4
