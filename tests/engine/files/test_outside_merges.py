"""Tokens outside the merge path, held to the libraries that made the files.

The tokenizer.json fixture is made by Hugging Face's `tokenizers` itself
(tests.engine.outside_vocabularies), with and without `ignore_merges`. The rank-file
fixture is a trained tokenizer's `.tiktoken` with ranks after it that BPE cannot build.
Ids, counts and text are compared with the library's own.
"""

from __future__ import annotations

import base64
import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
import tiktoken
import tokenizers

from explorer.analysis.compression.metrics import size_metrics
from explorer.analysis.compression.stats import tokens_at_every_size
from explorer.analysis.vocabulary.checkup import check_up
from explorer.analysis.vocabulary.checkup_rows import kind_rows
from explorer.analysis.vocabulary.lineage import parents, vocab_entries
from explorer.base.byte_map import unicode_to_bytes
from explorer.cli import main
from explorer.encoding.encode_trace import trace_encoding
from explorer.encoding.tokenizer import Tokenizer
from explorer.files.exports import tiktoken_text, tokenizer_json, vocab_bpe
from explorer.files.formats import FormatError, model_text
from explorer.files.imports import parse_tiktoken
from explorer.files.imports_hf import parse_tokenizer_json
from explorer.training.train import train
from tests.engine.outside_vocabularies import CORPUS, OUTSIDE_WORDS, SPECIAL, hf_document

TEXTS = [
    "a zebra, quokka and a quokka! Ünïcode Ünïcode 🦘🦘🦘🦘 the zebra",
    f"x\n\n\n\ny zebra{SPECIAL} quokka{SPECIAL}",
    CORPUS[-3000:],
    " zebra",
    "",
]


@pytest.fixture(scope="module", params=[True, False], ids=["ignore_merges", "merges_only"])
def hf_pair(request: pytest.FixtureRequest) -> tuple[tokenizers.Tokenizer, Tokenizer, dict]:
    document = hf_document(ignore_merges=request.param)
    text = json.dumps(document)
    return tokenizers.Tokenizer.from_str(text), parse_tokenizer_json(text), document


def independent_outside(document: dict[str, Any]) -> set[int]:
    """model.vocab's ids that are neither a byte, nor made by a merge, nor an added token."""
    vocab, to_byte = document["model"]["vocab"], unicode_to_bytes()
    made = {vocab["".join(pair)] for pair in document["model"]["merges"]}
    bytes_ = {i for token, i in vocab.items() if len(token) == 1 and token in to_byte}
    added = {item["id"] for item in document["added_tokens"]}
    return set(vocab.values()) - made - bytes_ - added


def test_encoding_gives_the_ids_tokenizers_gives(hf_pair: tuple) -> None:
    theirs, ours, document = hf_pair
    for text in TEXTS:
        expected = theirs.encode(text, add_special_tokens=False).ids
        assert ours.encode(text, allowed_special="all") == expected, text[:40]
        assert ours.decode(expected) == theirs.decode(expected, skip_special_tokens=False)
        assert trace_encoding(ours, text[:300]).ids == ours.encode(
            text[:300], allowed_special="all"
        )
    ignore = document["model"]["ignore_merges"]
    assert any(chunk.outside for chunk in trace_encoding(ours, TEXTS[0]).chunks) is ignore
    zebra = ours.encode(" zebra")
    assert (zebra == [max(ours.outside_merges) - 5]) is ignore  # taken whole only then


def test_the_check_up_counts_and_lists_them(hf_pair: tuple) -> None:
    _, ours, document = hf_pair
    report = check_up(ours)
    expected = independent_outside(document)
    assert len(expected) == len(OUTSIDE_WORDS)
    assert set(report.outside_merges) == expected
    rows = kind_rows(ours, report, "outside_merges")
    assert [row.text for row in rows] == OUTSIDE_WORDS
    assert all(row.note.startswith("no merge makes it") for row in rows)
    if document["model"]["ignore_merges"]:  # the pattern splits " the zebra" in two
        assert set(report.unreachable) & expected == {max(expected)}
    else:  # no text yields any of them
        assert set(report.unreachable) >= expected


def test_lineage_and_the_vocabulary_table_say_no_merge(hf_pair: tuple) -> None:
    _, ours, _ = hf_pair
    outside = min(ours.outside_merges)
    assert parents(ours, outside) is None
    entry = next(e for e in vocab_entries(ours) if e.id == outside)
    assert (entry.kind, entry.step, entry.token) == ("outside", None, b" zebra")
    assert ours.at_vocab_size(ours.vocab_size - 1).outside_merges == {}


def test_curves_and_metrics_count_the_merges(hf_pair: tuple) -> None:
    """Every size but the full one lacks them, so a curve over the merges leaves them out."""
    _, ours, _ = hf_pair
    plain = ours.merges_only()
    assert plain.outside_merges == {} and plain.merges == ours.merges
    assert tokens_at_every_size(ours, CORPUS[:2000]) == tokens_at_every_size(plain, CORPUS[:2000])
    [full] = size_metrics(ours, TEXTS[0], [ours.vocab_size])
    assert full == size_metrics(plain, TEXTS[0], [ours.vocab_size])[0]


def test_exports_keep_them_or_refuse_in_plain_words(hf_pair: tuple) -> None:
    theirs, ours, _ = hf_pair
    again = tokenizers.Tokenizer.from_str(tokenizer_json(ours))
    for text in TEXTS:
        expected = theirs.encode(text, add_special_tokens=False).ids
        assert again.encode(text, add_special_tokens=False).ids == expected
    assert parse_tokenizer_json(tokenizer_json(ours)).outside_merges == ours.outside_merges
    with pytest.raises(FormatError, match=r"outside the merges; export tokenizer\.json"):
        vocab_bpe(ours)
    with pytest.raises(FormatError, match=r"outside the merges; export tokenizer\.json"):
        model_text(Tokenizer([(97, 97)], outside_merges={257: b"xyz"}))  # bytes in order
    with pytest.raises(FormatError, match=r"export tokenizer\.json instead"):
        tiktoken_text(ours)  # the added token sits among their ids (and, without ignore_merges,
        # a rank file would yield them)


def ranks_with_outside(tokenizer: Tokenizer, words: list[bytes]) -> str:
    lines = tiktoken_text(tokenizer).splitlines()
    start = len(lines)
    lines += [f"{base64.b64encode(w).decode()} {start + k}" for k, w in enumerate(words)]
    return "\n".join(lines)


def test_a_rank_file_tail_no_merge_reaches_encodes_as_tiktoken_does() -> None:
    trained = train(CORPUS, 400, pattern="gpt4").tokenizer
    words = [word.encode("utf-8") for word in OUTSIDE_WORDS[:4]]
    text = ranks_with_outside(trained, words)
    ours = parse_tiktoken(text, pattern=trained.pattern, special_tokens={SPECIAL: 500})
    assert ours.merges == trained.merges
    assert list(ours.outside_merges.values()) == words
    ranks = {base64.b64decode(t): int(r) for t, r in (line.split() for line in text.splitlines())}
    theirs = tiktoken.Encoding(
        name="outside",
        pat_str=trained.pattern,
        mergeable_ranks=ranks,
        special_tokens={SPECIAL: 500},
    )
    # the app keeps a loaded rank file as tokenizer.json: Hugging Face reads it the same
    kept = tokenizers.Tokenizer.from_str(tokenizer_json(ours))
    for sample in TEXTS:
        expected = theirs.encode(sample, allowed_special="all")
        assert ours.encode(sample, allowed_special="all") == expected
        assert kept.encode(sample, add_special_tokens=False).ids == expected
    assert check_up(ours).counts()["outside_merges"] == len(words)
    assert parse_tiktoken(tiktoken_text(ours), pattern=trained.pattern).outside_merges == (
        ours.outside_merges
    )


def test_the_command_line_lists_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(hf_document(ignore_merges=True)), "utf-8")
    assert main(["check", str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["outside_merges"] == len(OUTSIDE_WORDS)
    assert main(["check", str(path), "--list", "outside_merges", "--format", "csv"]) == 0
    header, *rows = csv.reader(io.StringIO(capsys.readouterr().out))
    assert header == ["id", "token", "hex", "length", "note"]
    assert [row[1] for row in rows] == OUTSIDE_WORDS
    assert rows[1][2:4] == ["71 75 6f 6b 6b 61", "6"] and rows[1][4].startswith("no merge")
