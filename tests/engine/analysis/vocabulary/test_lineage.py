"""Lineage: parents, children, descendants, trees, DOT text and the vocabulary table."""

from __future__ import annotations

import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
import regex

import explorer
from explorer.analysis.vocabulary.lineage import (
    LineageError,
    LineageNode,
    children_index,
    creation_step,
    descendant_counts,
    descendants,
    dot_escape,
    lineage_dot,
    lineage_tree,
    parents,
    vocab_entries,
)
from explorer.encoding.tokenizer import Tokenizer
from explorer.training.train import train, train_word_counts

SHARED = Path(__file__).parents[5] / "shared"
AAAB = Tokenizer([(97, 97), (256, 97), (257, 98)])  # aa=256, aaa=257, aaab=258
HUG_WORDS = "hug 10\npug 5\npun 12\nbun 4\nhugs 5"
QUOTED = regex.compile(r'"((?:[^"\\\n]|\\.)*)"')


@cache
def bundled_text() -> str:
    """Real text every clone has: the engine's own source."""
    return "".join(p.read_text() for p in sorted(Path(explorer.__file__).parent.rglob("*.py")))


def naive_descendant_counts(tokenizer: Tokenizer) -> dict[int, int]:
    """Each token's lineage as a set, rebuilt from scratch; count who appears in whose."""
    counts = dict.fromkeys(range(tokenizer.vocab_size), 0)
    for token in range(256, tokenizer.vocab_size):
        lineage: set[int] = set()
        stack = [token]
        while stack:
            top = stack.pop()
            if top >= 256:
                for part in tokenizer.merges[top - 256]:
                    lineage.add(part)
                    stack.append(part)
        for ancestor in lineage:
            counts[ancestor] += 1
    return counts


def test_parents_and_creation_step_on_aaabdaaabac() -> None:
    assert [parents(AAAB, t) for t in (256, 257, 258)] == [(97, 97), (256, 97), (257, 98)]
    assert [creation_step(AAAB, t) for t in (256, 257, 258)] == [0, 1, 2]
    assert parents(AAAB, 97) is None
    assert creation_step(AAAB, 0) is None


def test_children_and_descendants_on_aaabdaaabac() -> None:
    children = children_index(AAAB)
    assert len(children) == 259
    assert children[97] == [256, 257]
    assert children[256] == [257]
    assert children[98] == [258]
    assert children[258] == [] and children[100] == []
    assert descendants(AAAB, 97) == [256, 257, 258]
    assert descendants(AAAB, 98) == [258]
    assert descendants(AAAB, 258) == []
    counts = descendant_counts(AAAB)
    assert (counts[97], counts[256], counts[257], counts[98], counts[100]) == (3, 2, 1, 1, 0)


def test_lineage_tree_on_aaabdaaabac() -> None:
    tree = lineage_tree(AAAB, 258)
    assert (tree.id, tree.token) == (258, b"aaab")
    assert (tree.left.id, tree.right.id) == (257, 98)
    assert (tree.left.left.id, tree.left.right.id) == (256, 97)
    assert (tree.left.left.left.id, tree.left.left.right.id) == (97, 97)
    assert tree.right.left is None and tree.right.right is None
    assert lineage_tree(AAAB, 97) == LineageNode(97, b"a")


def test_hug_pug_lineage() -> None:
    result = train_word_counts(HUG_WORDS, 259)
    tok = result.tokenizer
    ug, un, hug = 256, 257, 258
    assert [tok.token_bytes(t) for t in (ug, un, hug)] == [b"ug", b"un", b"hug"]
    assert parents(tok, hug) == (ord("h"), ug)
    assert children_index(tok)[ug] == [hug]
    assert descendants(tok, ord("u")) == [ug, un, hug]
    assert descendants(tok, ord("g")) == [ug, hug]
    assert descendants(tok, ord("n")) == [un]
    tree = lineage_tree(tok, hug)
    assert (tree.left.token, tree.right.token, tree.right.left.token) == (b"h", b"ug", b"u")
    entries = {e.id: e for e in vocab_entries(tok, result.history)}
    assert [entries[t].count for t in (ug, un, hug)] == [20, 16, 15]
    assert [entries[t].uses for t in (ug, un, hug)] == [5, 16, 15]
    assert not any(entries[t].intermediate_only for t in entries)


def test_pair_of_a_token_with_itself_counts_descendants_once() -> None:
    tok = Tokenizer([(97, 97), (256, 256), (257, 257)])  # aa, aaaa, aaaaaaaa
    assert descendant_counts(tok)[97] == 3
    assert descendants(tok, 97) == [256, 257, 258]
    assert children_index(tok)[256] == [257]
    tree = lineage_tree(tok, 258)
    assert tree.left is tree.right  # one node per distinct id, shared
    dot = lineage_dot(tok, 258, label=lambda b: b.decode())
    assert sorted(regex.findall(r"^  (t\d+) \[label=", dot, flags=regex.M)) == [
        "t256",
        "t257",
        "t258",
        "t97",
    ]
    assert dot.count("t257 -> t258;") == 2  # both halves shown


def test_special_tokens_have_no_parents_and_unknown_ids_fail() -> None:
    tok = Tokenizer([(97, 97)], special_tokens=["<|endoftext|>"])
    assert parents(tok, 257) is None and creation_step(tok, 257) is None
    assert children_index(tok)[257] == [] and descendant_counts(tok)[257] == 0
    assert lineage_tree(tok, 257).token == b"<|endoftext|>"
    for bad in (258, -1, 10_000):
        with pytest.raises(LineageError, match="not in this tokenizer") as info:
            parents(tok, bad)
        assert isinstance(info.value, ValueError)
        assert "0 to 256" in str(info.value) and "257" in str(info.value)
    with pytest.raises(LineageError):
        descendants(tok, 258)
    with pytest.raises(LineageError):
        lineage_dot(tok, 258, label=str)


@pytest.mark.parametrize("pattern", ["gpt4", "none"])
def test_descendant_counts_match_naive_on_bundled_text(pattern: str) -> None:
    tok = train(bundled_text(), 256 + 600, pattern=pattern).tokenizer
    counts = descendant_counts(tok)
    assert counts == naive_descendant_counts(tok)
    children = children_index(tok)
    for token in (32, 101, 256, 300, 500):
        assert len(descendants(tok, token)) == counts[token]
        assert all(token in parents(tok, c) for c in children[token])


def test_descendant_counts_match_naive_on_taylorswift() -> None:
    path = SHARED / "corpora" / "taylorswift.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent (shared/ is beside the project for developers and CI only)")
    tok = train(path.read_text(), 256 + 2000).tokenizer
    assert descendant_counts(tok) == naive_descendant_counts(tok)


def test_intermediate_only_on_aaabdaaabac() -> None:
    result = train("aaabdaaabac", 259, pattern="none")  # final encoding: aaab d aaab a c
    entries = vocab_entries(result.tokenizer, result.history)
    assert len(entries) == 259
    flags = {e.id: e.intermediate_only for e in entries if e.id >= 256}
    assert flags == {256: True, 257: True, 258: False}
    assert entries[97].intermediate_only is False and entries[97].uses == 1
    assert entries[258].uses == 2 and entries[258].count == 2 and entries[256].count == 4
    e = entries[257]
    assert (e.token, e.length, e.left, e.right, e.step, e.descendants) == (b"aaa", 3, 256, 97, 1, 1)
    assert all(e.intermediate_only is None for e in vocab_entries(result.tokenizer))


def test_vocab_entries_with_a_shorter_tokenizer_or_a_foreign_history() -> None:
    result = train("aaabdaaabac", 259, pattern="none")
    smaller = result.tokenizer.at_vocab_size(257)
    entries = vocab_entries(smaller, result.history)
    assert [e.id for e in entries] == list(range(257))
    assert entries[256].count == 4 and entries[256].intermediate_only is None
    with pytest.raises(LineageError, match="not the tokenizer's"):
        vocab_entries(Tokenizer([(98, 98), (256, 98), (257, 97)]), result.history)


def test_vocab_entries_on_a_real_vocabulary_with_specials() -> None:
    result = train(bundled_text(), 256 + 300, special_tokens=["<|endoftext|>"])
    tok, history = result.tokenizer, result.history
    entries = vocab_entries(tok, history)
    assert [e.id for e in entries] == [*range(556), 556]
    special = entries[-1]
    assert special.is_special and special.token == b"<|endoftext|>" and special.step is None
    for e in entries[256:-1]:
        assert e.count == history.steps[e.id - 256].count
        assert e.intermediate_only == (history.token_usage.get(e.id, 0) == 0)
        assert (e.left, e.right) == tok.merges[e.id - 256]
    assert sum(e.uses for e in entries) == history.final_length


def test_dot_escapes_quotes_backslashes_newlines() -> None:
    # '"' + '\\' = 256, '\n' + '<' = 257, both = 258
    tok = Tokenizer([(34, 92), (10, 60), (256, 257)])
    dot = lineage_dot(tok, 258, label=lambda b: b.decode())
    for line in dot.splitlines():
        assert '"' not in QUOTED.sub("", line), line  # every quote opens or closes a string
    labels = [QUOTED.search(line)[1] for line in dot.splitlines() if "[label=" in line]
    unescaped = {regex.sub(r"\\(.)", lambda m: "\n" if m[1] == "n" else m[1], s) for s in labels}
    assert unescaped == {
        '"\\\n<\n258',
        '"\\\n256',
        '"\n34',
        "\\\n92",
        "\n<\n257",
        "\n\n10",
        "<\n60",
    }
    assert "label=<" not in dot  # quoted labels, never HTML-like ones
    assert dot_escape('a"b\\c\r\nd') == 'a\\"b\\\\c\\nd'


def test_dot_keeps_a_deep_token_compact() -> None:
    tok = Tokenizer([(97, 98), *((256 + i, 99 + i) for i in range(18))])  # a chain: abcd...
    root = tok.vocab_size - 1
    assert len(tok.token_bytes(root)) == 20
    dot = lineage_dot(tok, root, label=lambda b: b.decode())
    assert dot.count("[label=") == 39  # 19 merged tokens + 20 distinct bytes
    assert "rank=same; t97 -> t98 -> t99" in dot  # bytes in reading order on one row
    deep = Tokenizer([(97, 97), *((256 + i, 97) for i in range(3000))])
    node = lineage_tree(deep, deep.vocab_size - 1)  # no recursion limit on long chains
    depth = 0
    while node.left is not None:
        node, depth = node.left, depth + 1
    assert depth == 3001


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")
def test_graphviz_accepts_the_dot_text() -> None:
    tok = train(bundled_text(), 256 + 400, pattern="none").tokenizer
    tricky = Tokenizer([(34, 92), (10, 60), (256, 257)], special_tokens=["<|x|>"])
    cases = [(tok, tok.vocab_size - 1), (tricky, 258), (tricky, 259), (AAAB, 97)]
    for tokenizer, token in cases:
        dot = lineage_dot(tokenizer, token, label=lambda b: b.decode("utf-8", "replace"))
        run = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True)
        assert run.returncode == 0 and not run.stderr, run.stderr


def test_vocab_entries_serve_the_vocabulary_table() -> None:
    """What the Vocabulary page shows per token: kind, merged weight, uses unknown when cut."""
    result = train("aaabdaaabac", 259, pattern="none")
    entries = vocab_entries(result.tokenizer, result.history, descendants=False)
    assert {e.kind for e in entries[:256]} == {"byte"} and entries[256].kind == "merge"
    assert [(e.count, e.merged) for e in entries[256:]] == [
        (s.count, s.merged) for s in result.history.steps
    ]
    assert all(e.descendants is None for e in entries)
    cut = vocab_entries(result.tokenizer.at_vocab_size(258), result.history, descendants=False)
    assert all(e.uses is None and e.intermediate_only is None for e in cut)
