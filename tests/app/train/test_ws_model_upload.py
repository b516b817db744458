"""A real server takes a 33 MB tokenizer file, and still bounds text uploads at 20 MB.

Spoken over Streamlit's websocket protocol and its upload endpoint (harness/ws_client.py,
harness/ws_upload.py) to a real server on 127.0.0.1: Gemma 3's tokenizer.json (33 MB) and
its tokenizer_config.json go to the Train page's tokenizer loader and become a real
model's run; a 21 MB text for training is received (the server's limit is the tokenizer
files' 64 MB) and refused by the page in one sentence; a file over 64 MB is refused by
the server itself.
"""

from __future__ import annotations

import asyncio
import urllib.error
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from harness.app_server import Server, running_server
from harness.ws_client import connected
from harness.ws_upload import NO_XSRF, upload
from tests.conftest import shared_path
from ui.session import state as keys

TIMEOUT_S = 900  # Gemma 3's file read by a child on a busy 2-core machine


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("ws") / "server.log", NO_XSRF) as started:
        yield started


async def load_gemma(port: int, folder: Path) -> list[str]:
    files = [
        (name, (folder / name).read_bytes()) for name in ("tokenizer.json", "tokenizer_config.json")
    ]
    async with connected(port) as client:
        await client.rerun()
        await client.rerun(page="train")
        await upload(client, port, keys.TRAIN_MODEL_UPLOAD, files)
        run = await client.rerun(timeout=TIMEOUT_S)  # the uploader's callback reads them
        tokens = await client.rerun(page="tokens", timeout=TIMEOUT_S)
    return run.texts + tokens.texts


async def upload_text(port: int, data: bytes) -> list[str]:
    async with connected(port) as client:
        await client.rerun()
        await client.rerun(page="train")
        await client.rerun(values={keys.TRAIN_SOURCE: ("string_value", "Upload files")})
        await upload(client, port, keys.TRAIN_UPLOAD, [("big.txt", data)])
        run = await client.rerun()
    return run.texts


def in_a_thread(work: object) -> list[str]:
    # subtle: its own thread and loop, as tests/browser/test_fragment_step.py does
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, work).result(timeout=TIMEOUT_S + 60)  # type: ignore[arg-type]


def test_gemma_3_s_33_mb_file_uploads_and_becomes_a_model_s_run(server: Server) -> None:
    folder = shared_path("reference", "open-weight", "gemma3")
    texts = in_a_thread(load_gemma(server.port, folder))
    assert not any("cannot be loaded" in text for text in texts), texts
    said = " ".join(texts)
    assert "a real model's tokenizer" in said and "262,145 ids" in said, said[:2000]
    assert "Encoding with" in said  # Tokens drew the model's tokens


def test_a_text_upload_stays_bounded_at_20_mb(server: Server) -> None:
    texts = in_a_thread(upload_text(server.port, b"word " * (21 * 2**20 // 5)))
    assert any("a text file may be up to 20 MB" in text for text in texts), texts


def test_the_server_refuses_a_file_over_64_mb(server: Server) -> None:
    # a 413, or the connection closed while the body still streams in: refused either way
    with pytest.raises(urllib.error.URLError) as refused:
        in_a_thread(upload_text(server.port, b"x" * (65 * 2**20)))
    assert getattr(refused.value, "code", 413) == 413
    assert server.healthy()  # and it goes on serving
