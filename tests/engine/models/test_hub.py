"""Opening a model by its Hub name (explorer/models/hub.py), with huggingface_hub unmocked.

Offline: the `hub_cache` fixture's cache in huggingface_hub's layout, HF_HUB_OFFLINE=1, and
the ids compared with the `tokenizers` package reading the same file. Online: the client
talks to a small Hub on 127.0.0.1 (tests/fake_hub.py) that answers as the Hub does, so
the fetch, its progress, the size check and each refusal run the real code; "no network"
is a port nobody listens on.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from explorer.files.limits import MAX_FILE_BYTES
from explorer.models.hub import fetch, locate, open_hub_model
from explorer.models.hub_files import HubError
from harness.hub_cache import OPEN_WEIGHT, HubCache
from tests.fake_hub import FakeRepo, serving

TEXT = "Héllo wörld, ﬁne 123 — 東京 🤖"


@pytest.mark.parametrize(
    "name", ["Qwen/Qwen3-0.6B", "deepseek-ai/DeepSeek-V3", "meta-llama/Llama-2-7b-hf"]
)
def test_a_cached_model_opens_offline_with_the_references_ids(hub_cache: HubCache, name: str):
    from tokenizers import Tokenizer

    opened = open_hub_model(name)
    source = OPEN_WEIGHT / hub_cache.repos[name]["tokenizer.json"]
    reference = Tokenizer.from_file(str(source)).encode(TEXT, add_special_tokens=False).ids
    assert opened.opened.model.encode(TEXT) == reference
    assert opened.opened.model.name == name
    assert opened.found.files == ("tokenizer.json", "tokenizer_config.json")
    assert opened.source == f"{name} (tokenizer.json + tokenizer_config.json)"


def test_a_tekken_repo_opens_offline(hub_cache: HubCache):
    opened = open_hub_model("mistralai/Pixtral-12B-2409")
    assert opened.found.files == ("tekken.json",)
    assert opened.opened.model.file_kind == "tekken"
    assert opened.opened.model.decode(opened.opened.model.encode(TEXT)) == TEXT


def test_a_rank_file_alone_opens_as_llama_3s(hub_cache: HubCache):
    rank_file = OPEN_WEIGHT / "llama3" / "tokenizer.model"
    hub_cache.add_repo("test-org/llama3-ranks-only", {"original/tokenizer.model": rank_file})
    opened = open_hub_model("test-org/llama3-ranks-only")
    assert opened.found.files == ("original/tokenizer.model",)
    whole = open_hub_model("meta-llama/Meta-Llama-3-8B").opened.model  # its tokenizer.json
    assert opened.opened.model.encode(TEXT) == whole.encode(TEXT)


def test_offline_a_model_not_in_the_cache_is_one_sentence(hub_cache: HubCache):
    with pytest.raises(HubError, match=r"^'nobody/nothing' is not in this server's Hub cache"):
        locate("nobody/nothing")


def test_the_setting_turns_fetching_off_and_the_cache_still_opens(
    hub_cache: HubCache, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setenv("BPE_EXPLORER_HUB", "off")
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{_closed_port()}")
    assert locate("Qwen/Qwen3-0.6B").files[0] == "tokenizer.json"
    with pytest.raises(HubError, match="fetching from the Hub is off here"):
        locate("Qwen/Qwen3-1.7B")


@pytest.mark.parametrize("name", ["", "a/b/c", "../etc", "x" * 200, "org/na me", "o--k/x"])
def test_a_name_that_is_not_a_hub_name_is_one_sentence(hub_cache: HubCache, name: str):
    with pytest.raises(HubError) as raised:
        locate(name)
    assert "\n" not in str(raised.value) and str(raised.value).endswith(".")


# --- online: the real client against a Hub on 127.0.0.1 ----------------------------------


@pytest.fixture
def online(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty Hub cache, fetching allowed, no token."""
    cache = tmp_path / "hub"
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    for name in ("HF_HUB_OFFLINE", "BPE_EXPLORER_HUB", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    return cache


def _repos() -> dict[str, FakeRepo]:
    llama2 = OPEN_WEIGHT / "llama2"
    if not llama2.exists():
        pytest.skip("../shared is not here")
    files = {
        "tokenizer.json": (llama2 / "tokenizer.json").read_bytes(),
        "tokenizer_config.json": (llama2 / "tokenizer_config.json").read_bytes(),
        "config.json": b"{}",
        "model.safetensors": b"weights are never fetched",
    }
    return {
        "meta-llama/Llama-2-7b-hf": FakeRepo(files),
        "google/gated-model": FakeRepo(files, gated=True),
        "org/weights-only": FakeRepo({"config.json": b"{}", "model.safetensors": b"w"}),
        "org/huge": FakeRepo(files, listed_sizes={"tokenizer.json": MAX_FILE_BYTES + 1}),
        "org/sentencepiece": FakeRepo({"tokenizer.model": b"\x0a\x8b\x01\xff\xfe binary"}),
    }


def test_a_fetch_fills_the_cache_with_progress_then_opens_offline(
    online: Path, monkeypatch: pytest.MonkeyPatch
):
    seen: list[tuple[str, int, int]] = []
    with serving(_repos()) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        found = locate("meta-llama/Llama-2-7b-hf")
        assert found.files == ("tokenizer.json", "tokenizer_config.json")
        paths = fetch(found, progress=lambda *step: seen.append(step))
        asked = list(hub.requests)
        fetch(found)  # in the cache now: nothing is fetched again
        assert [r for r in hub.requests[len(asked) :] if "/resolve/" in r] == []
    assert all(path.is_file() for path in paths)
    assert not any("safetensors" in request for request in asked)
    assert seen[-1][1] == seen[-1][2] == found.total_bytes
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # the server gone: the cache opens it
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{_closed_port()}")
    assert open_hub_model("meta-llama/Llama-2-7b-hf").opened.model.vocab_size == 32_000


def test_each_refusal_is_one_sentence(online: Path, monkeypatch: pytest.MonkeyPatch):
    with serving(_repos()) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        cases = {
            "org/missing": "The Hub has no model 'org/missing'",
            "google/gated-model": "is a gated repo",
            "org/weights-only": "has no tokenizer file this app reads",
            "org/huge": "was not fetched",
        }
        for name, start in cases.items():
            with pytest.raises(HubError, match=start) as raised:
                open_hub_model(name)
            assert "\n" not in str(raised.value) and "http" not in str(raised.value)
        with pytest.raises(HubError, match="SentencePiece's binary model"):
            open_hub_model("org/sentencepiece")
        assert not any("/org/huge/resolve/" in request for request in hub.requests)


def test_a_gated_repo_says_hf_token_is_read_and_never_shows_it(
    online: Path, monkeypatch: pytest.MonkeyPatch
):
    secret = "hf_SeCrEtTokenValue0123456789"
    monkeypatch.setenv("HF_TOKEN", secret)
    with serving(_repos()) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        with pytest.raises(HubError) as raised:
            open_hub_model("google/gated-model")
    assert "HF_TOKEN" in str(raised.value) and secret not in str(raised.value)
    assert "has not been granted it" in str(raised.value)


def test_no_network_is_one_sentence_and_a_cached_model_still_opens(
    hub_cache: HubCache, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{_closed_port()}")
    with pytest.raises(HubError, match=r"could not be reached from this server \(no network\?\)"):
        open_hub_model("nobody/nothing")
    assert open_hub_model("meta-llama/Llama-2-7b-hf").found.files[0] == "tokenizer.json"


def _closed_port() -> int:
    """A port of 127.0.0.1 nobody listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_tokenizer_json_that_is_not_bpe_is_one_sentence_naming_it(hub_cache: HubCache):
    from tokenizers import Tokenizer
    from tokenizers.models import WordPiece

    wordpiece = Tokenizer(WordPiece(vocab={"[UNK]": 0, "a": 1}, unk_token="[UNK]")).to_str()
    hub_cache.add_repo("test-org/wordpiece", {"tokenizer.json": wordpiece.encode()})
    with pytest.raises(ValueError, match=r"^test-org/wordpiece/tokenizer.json, .*'WordPiece'"):
        open_hub_model("test-org/wordpiece")


def test_a_model_in_the_cache_still_opens_when_the_hub_refuses_it_now(
    hub_cache: HubCache, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("HF_HUB_OFFLINE")  # the Hub answers: Llama 3 is gated, no token here
    monkeypatch.delenv("HF_TOKEN", raising=False)
    with serving({"meta-llama/Meta-Llama-3-8B": FakeRepo({}, gated=True)}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        assert locate("meta-llama/Meta-Llama-3-8B").files[0] == "tokenizer.json"
        assert any("/api/models/meta-llama/Meta-Llama-3-8B" in r for r in hub.requests)
