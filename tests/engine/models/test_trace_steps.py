"""A loaded model's trace step by step (explorer/models/trace_steps.py) on every open-weight
model: each step fuses the pair of lowest rank among those that have a merge (the leftmost
on a tie), its chunk before and after agree with the merge, and the last ids are the
model's encode."""

from __future__ import annotations

import pytest

from explorer.models.opening import RankSettings, open_model
from explorer.models.token_facts import token_card, token_kind
from explorer.models.trace_steps import after, before, candidates, ids_at, model_steps
from tests.app.models.model_runs import MODELS, reference_ids
from tests.conftest import shared_path

TEXTS = [
    "The tokenizer's café (cafe\u0301), naïve 東京 and zqxjkvbwpf 12345!",
    "  indented\n\tcode = f(x) ** 2  # comment",
    "\u3a00\u3a01 🙂🙂 ЁЖЗ",
]


def _model(key: str):  # type: ignore[no-untyped-def]
    folder, file_name, config_name = MODELS[key]
    path = shared_path("reference", "open-weight", folder)
    text = (path / file_name).read_text("utf-8")
    config = (config_name, (path / config_name).read_text("utf-8")) if config_name else None
    return open_model(file_name, text, config, RankSettings()).model


@pytest.mark.parametrize("key", list(MODELS))
def test_each_step_fuses_the_lowest_rank_and_the_end_is_the_model_s_ids(key: str) -> None:
    model = _model(key)
    for text in TEXTS:
        trace = model.trace(text)
        steps = model_steps(model, trace)
        for step in steps:
            ids_before, ids_after = before(trace, step), after(trace, step)
            pairs = candidates(model, ids_before)
            lowest = min(candidate.rank for candidate in pairs)
            chosen = [c for c in pairs if c.position == step.position]
            assert chosen and chosen[0].rank == step.merge.rank == lowest, (key, text, step)
            left, right = ids_before[step.position : step.position + 2]
            assert (left, right) == (step.merge.left, step.merge.right)
            assert ids_after[step.position] == step.merge.result
        final = [i for ids in ids_at(trace, steps, len(steps)) for i in ids]
        assert final == trace.ids == reference_ids(key, text), (key, text)


@pytest.mark.parametrize("key", ["gemma3", "llama3_ranks"])
def test_cards_name_the_id_and_every_pair_apart(key: str) -> None:
    model = _model(key)
    for token_id in reference_ids(key, TEXTS[0] + TEXTS[2]):
        card = token_card(model, token_id)
        assert card.startswith(f"id {token_id:,} · ")
        makers = model.makers(token_id)
        if token_kind(model, token_id) == "merged":
            assert all(f"rank {m.rank:,}: " in card for m in makers[:24])
