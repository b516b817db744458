"""The encodes kept for every session are bounded in bytes, and their weight is what they
hold in memory (measured, not assumed)."""

from __future__ import annotations

import gc
import tracemalloc

import pytest

from explorer import train
from ui.server.lru import SharedLru
from ui.session.samples import sample_text
from ui.views import token_view

BUDGET = 16 << 20  # the cache's own code, with a budget a test fills quickly


def test_encodes_are_kept_within_their_byte_budget_and_weighed_honestly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(token_view, "_encodes", SharedLru(token_view.ENCODES_KEPT, BUDGET))
    tokenizer = train(sample_text("shakespeare"), 2000, pattern="gpt4").tokenizer
    base = sample_text("udhr")
    texts = [f"{k} " + base[:100_000] for k in range(16)]  # 16 texts of 100K characters
    gc.collect()
    tracemalloc.start()
    try:
        for text in texts[:3]:
            token_view.encode_cached(tokenizer, "run", 2000, text)
        gc.collect()
        measured, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    entries, weight = token_view._encodes.held()
    text_bytes = sum(token_view.sys.getsizeof(text) for text in texts[:3])
    assert entries == 3 and measured <= weight - text_bytes  # the ids, counted in full
    for text in texts[3:]:
        token_view.encode_cached(tokenizer, "run", 2000, text)
        assert token_view._encodes.held()[1] <= BUDGET
    entries, weight = token_view._encodes.held()
    assert 3 < entries < len(texts) and weight > BUDGET // 2
