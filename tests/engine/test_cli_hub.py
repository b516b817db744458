"""`python -m explorer … hub:ORG/NAME` and `info --hub ORG/NAME`: a real subprocess on the
offline Hub cache (the `hub_cache` fixture; the child inherits HF_HUB_CACHE and
HF_HUB_OFFLINE=1), its ids against the `tokenizers` package's."""

from __future__ import annotations

import subprocess
import sys

from tokenizers import Tokenizer

from harness.hub_cache import OPEN_WEIGHT, HubCache
from tests.conftest import ROOT

TEXT = "Héllo wörld, ﬁne 123 東京"


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "explorer", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=600,
    )


def test_info_hub_describes_the_model(hub_cache: HubCache):
    done = run("info", "--hub", "Qwen/Qwen3-0.6B")
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "ids: 151,669" in out and "normalizer: NFC" in out


def test_encode_a_hub_model_prints_the_references_ids(hub_cache: HubCache):
    done = run("encode", "hub:deepseek-ai/DeepSeek-V3", stdin=TEXT.encode())
    assert done.returncode == 0, done.stderr
    source = OPEN_WEIGHT / hub_cache.repos["deepseek-ai/DeepSeek-V3"]["tokenizer.json"]
    reference = Tokenizer.from_file(str(source)).encode(TEXT, add_special_tokens=False).ids
    assert [int(word) for word in done.stdout.split()] == reference


def test_a_hub_model_that_does_not_open_is_one_line(hub_cache: HubCache):
    done = run("info", "--hub", "nobody/nothing")
    assert done.returncode == 1
    (line,) = done.stderr.decode().splitlines()
    assert line.startswith("error: 'nobody/nothing' is not in this server's Hub cache")
    both = run("info", "gpt2", "--hub", "Qwen/Qwen3-0.6B")
    assert both.returncode == 1 and b"one of the two" in both.stderr
