"""A tokenizer.json with tokens outside the merge path, made by Hugging Face's `tokenizers`.

Shared by tests/engine/files/test_outside_merges.py and the Vocabulary page's AppTest: a
small byte-level BPE trained on the bundled Shakespeare, an added special token, then
words no merge makes added to model.vocab (as Llama 3's file has such entries), with or
without `ignore_merges`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import tokenizers
from tokenizers import decoders, models, pre_tokenizers, trainers

from explorer.base.byte_map import gpt2_chars

ROOT = Path(__file__).resolve().parents[2]
CORPUS = (ROOT / "sample_texts" / "shakespeare.txt").read_text("utf-8")[:40_000]
OUTSIDE_WORDS = [" zebra", "quokka", " Ünïcode", "🦘🦘", "\n\n\n\n", " the zebra"]
SPECIAL = "<|end|>"


def hf_document(*, ignore_merges: bool) -> dict[str, Any]:
    """A tokenizer.json as `tokenizers` writes it, plus words no merge makes in its vocab."""
    hf = tokenizers.Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    hf.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=600, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    hf.train_from_iterator([CORPUS], trainer)
    hf.add_special_tokens([SPECIAL])  # an added token, numbered right after the merges
    document = json.loads(hf.to_str())
    vocab = document["model"]["vocab"]
    [added] = document["added_tokens"]
    # subtle: listed in model.vocab too (as GPT-2's file does): else `tokenizers` numbers
    # an added token from the vocabulary's size when it reads the file, not by its id
    vocab[SPECIAL] = added["id"]
    next_id = added["id"] + 1
    for word in OUTSIDE_WORDS:
        vocab[gpt2_chars(word.encode("utf-8"))] = next_id
        next_id += 1
    document["model"]["ignore_merges"] = ignore_merges
    return document
