"""How long another visitor waits for a page while one visitor does heavy work.

Not a test. Starts the app on a free loopback port, then for each case a "neighbour"
opens /animate again and again in fresh sessions (a new visitor or a reload: connect,
the landing page, then Animate) and the seconds each load took are kept:

- alone: no one else is working;
- train: meanwhile one visitor uploads a single-line corpus of random words and trains
  it (CORPUS_MB, VOCAB_SIZE, gpt4);
- tiktoken: meanwhile one visitor uploads a .tiktoken of the tokens a, aa, aaa, ...
  (TIKTOKEN_TOKENS of them: ~6 MB, 19.5 MB with --full; each rank's merge is
  recovered from the ranks).

It prints, per case, the neighbour's p50 / p95 / max, the heavy visitor's own seconds,
and the server's CPU seconds and peak RSS (VmHWM; children not included). Pass another
checkout's folder to time its code (this file's own helpers speak to it):

    .venv/bin/python -m bench.load.heavy_neighbour              # this checkout
    .venv/bin/python -m bench.load.heavy_neighbour /work/main   # another one
    .venv/bin/python -m bench.load.heavy_neighbour --small      # smaller files, for a look
    .venv/bin/python -m bench.load.heavy_neighbour --full       # issue 21's sizes (19 MB, 5,400)

The files are made in a temporary folder. The server runs with XSRF protection off, so
the uploads need no browser cookie (see harness/ws_upload.py).
"""

from __future__ import annotations

import asyncio
import base64
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from harness import app_server
from harness.ws_client import connected
from harness.ws_upload import NO_XSRF, upload

HERE = Path(__file__).resolve().parents[2]

ARGS = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
ROOT = Path(ARGS[0]).resolve() if ARGS else HERE
SIZE = "small" if "--small" in sys.argv else "full" if "--full" in sys.argv else "default"
CORPUS_MB = {"small": 1, "default": 4, "full": 19}[SIZE]
VOCAB_SIZE = {"small": 5_000, "default": 10_000, "full": 10_000}[SIZE]
TIKTOKEN_TOKENS = {"small": 1_000, "default": 3_000, "full": 5_400}[SIZE]
ALONE_LOADS = 10
TIMEOUT_S = 900


def corpus(megabytes: int, seed: int) -> bytes:
    """One line of random words (a seed per run, so no cached training is reused)."""
    rng = random.Random(seed)
    words, size = [], 0
    while size < megabytes << 20:
        word = "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=rng.randint(2, 9)))
        words.append(word)
        size += len(word) + 1
    return " ".join(words).encode()


def tiktoken_file(tokens: int) -> bytes:
    """The 256 bytes, then a, aa, aaa, ... (ranks 256 on): each long token's merge is
    recovered from the ranks when it is read."""
    lines = [f"{base64.b64encode(bytes([byte])).decode()} {byte}" for byte in range(256)]
    lines += [f"{base64.b64encode(b'a' * n).decode()} {254 + n}" for n in range(2, tokens + 2)]
    return ("\n".join(lines) + "\n").encode()


async def load_animate(port: int) -> float:
    started = time.monotonic()
    async with connected(port) as session:
        await session.rerun()
        await session.rerun(page="animate", timeout=TIMEOUT_S)
    return time.monotonic() - started


async def neighbour(port: int, done: asyncio.Event | None) -> list[float]:
    """Loads of /animate until `done` (ALONE_LOADS of them without one)."""
    loads: list[float] = []
    while (done is None and len(loads) < ALONE_LOADS) or (done is not None and not done.is_set()):
        loads.append(await load_animate(port))
    return loads


async def train_heavy(port: int, data: bytes) -> None:
    async with connected(port) as visitor:
        await visitor.rerun()
        await visitor.rerun(page="train")
        await visitor.rerun(values={"train_source": ("string_value", "Upload files")})
        await upload(visitor, port, "train_upload", [("heavy.txt", data)])
        await visitor.rerun(values={"train_vocab": ("int_value", VOCAB_SIZE)})
        run = await visitor.rerun(trigger="train_go", timeout=TIMEOUT_S)
        assert run.text_with("Tokenizer: heavy"), run.text_with("Training stopped:")


async def import_heavy(port: int, data: bytes) -> None:
    async with connected(port) as visitor:
        await visitor.rerun()
        await visitor.rerun(page="train")
        await upload(visitor, port, "train_model_upload", [("ranks.tiktoken", data)])
        run = await visitor.rerun(timeout=TIMEOUT_S)  # the uploader's callback reads it
        assert run.text_with("Tokenizer: ranks"), run.text_with("cannot be loaded")


async def with_heavy(port: int, heavy: object) -> tuple[list[float], float]:
    """The neighbour's loads while `heavy` runs, and the heavy visitor's own seconds."""
    done = asyncio.Event()

    async def timed() -> float:
        started = time.monotonic()
        try:
            await heavy  # type: ignore[misc]
        finally:
            done.set()
        return time.monotonic() - started

    await asyncio.sleep(0)
    heavy_s, loads = await asyncio.gather(timed(), neighbour_after_start(port, done))
    return loads, heavy_s


async def neighbour_after_start(port: int, done: asyncio.Event) -> list[float]:
    await asyncio.sleep(1.0)  # the heavy visitor's upload has reached the server
    return await neighbour(port, done)


def summary(loads: list[float]) -> dict[str, object]:
    ordered = sorted(loads)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "loads": len(loads),
        "p50_s": round(statistics.median(ordered), 2),
        "p95_s": round(p95, 2),
        "max_s": round(ordered[-1], 2),
    }


async def cases(server: app_server.Server) -> dict[str, object]:
    port, figures = server.port, {}
    await load_animate(port)  # the first session's imports and the default run
    seed = int(time.time())
    for name, heavy in (
        ("alone", None),
        ("train", lambda: train_heavy(port, corpus(CORPUS_MB, seed))),
        ("tiktoken", lambda: import_heavy(port, tiktoken_file(TIKTOKEN_TOKENS))),
    ):
        cpu = server.cpu_seconds()
        if heavy is None:
            loads, heavy_s = await neighbour(port, None), 0.0
        else:
            loads, heavy_s = await with_heavy(port, heavy())
        figures[name] = {
            **summary(loads),
            "heavy_visitor_s": round(heavy_s, 1),
            "server_cpu_s": round(server.cpu_seconds() - cpu, 1),
            "server_peak_rss_mb": round(server.peak_rss_bytes() / 2**20),
        }
    return figures


def main() -> None:
    app_server.ROOT = ROOT  # the server runs the code of the checkout asked for
    with tempfile.TemporaryDirectory() as folder:
        env = {"BPE_EXPLORER_RUNS_DIR": str(Path(folder) / "runs"), **NO_XSRF}
        with app_server.running_server(Path(folder) / "server.log", env) as server:
            figures = asyncio.run(cases(server))
    print(
        json.dumps(
            {
                "code": str(ROOT),
                "corpus_mb": CORPUS_MB,
                "vocab_size": VOCAB_SIZE,
                "tiktoken_tokens": TIKTOKEN_TOKENS,
                "tiktoken_mb": round(len(tiktoken_file(TIKTOKEN_TOKENS)) / 2**20, 1),
                **figures,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
