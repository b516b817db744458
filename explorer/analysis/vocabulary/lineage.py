"""Lineage: which tokens a token was built from, and which tokens were built from it.

Merge k made id 256 + k from two earlier ids, so the lineage graph is a DAG whose
edges always point from smaller ids to larger ones. "Parents" are the two ids a token
was merged from; "children" are the tokens merged directly from it.

    >>> tok = Tokenizer([(97, 97), (256, 97), (257, 98)])  # aa, aaa, aaab
    >>> parents(tok, 258), creation_step(tok, 258), parents(tok, 97)
    ((257, 98), 2, None)
    >>> descendants(tok, 97)
    [256, 257, 258]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from explorer.encoding.tokenizer import Tokenizer
from explorer.training.history import MergeHistory


class LineageError(ValueError):
    """A token id this tokenizer does not have, or a history that is not this tokenizer's."""


@dataclass(frozen=True)
class LineageNode:
    """One token in a lineage tree; bytes and special tokens have no parts."""

    id: int
    token: bytes
    left: LineageNode | None = None
    right: LineageNode | None = None


@dataclass(frozen=True, slots=True)
class VocabEntry:
    """One row of the vocabulary table.

    step, left, right, count and merged are None for bytes and special tokens (count and
    merged also when there is no history). uses is None when the history carries no
    usage (none given, or cut shorter than the run). intermediate_only says a merged
    token was only a stepping stone: it has no use in the final encoding of the
    training corpus; None when usage is unknown. descendants is None when not counted.
    is_outside marks a token outside the merge path: read from a file, no merge makes it.
    """

    id: int
    token: bytes
    length: int
    left: int | None
    right: int | None
    step: int | None
    count: int | None
    uses: int | None
    descendants: int | None
    intermediate_only: bool | None
    is_special: bool
    merged: int | None = None
    is_outside: bool = False

    @property
    def kind(self) -> str:
        """ "byte", "merge", "outside" (no merge makes it) or "special"."""
        if self.is_special:
            return "special"
        if self.is_outside:
            return "outside"
        return "byte" if self.step is None else "merge"


def parents(tokenizer: Tokenizer, token_id: int) -> tuple[int, int] | None:
    """The two ids a token was merged from; None for bytes, special tokens and tokens
    outside the merges (Tokenizer.outside_merges), which no merge makes."""
    step = creation_step(tokenizer, token_id)
    return None if step is None else tokenizer.merges[step]


def creation_step(tokenizer: Tokenizer, token_id: int) -> int | None:
    """The merge step (rank) that created a token; None for bytes, specials and outside ones."""
    _check_id(tokenizer, token_id)
    return token_id - 256 if 256 <= token_id < tokenizer.vocab_size else None


def all_ids(tokenizer: Tokenizer) -> list[int]:
    """Every id: bytes, merges, then tokens outside the merges and special tokens, ascending."""
    return [
        *range(tokenizer.vocab_size),
        *sorted({*tokenizer.special_by_id, *tokenizer.outside_merges}),
    ]


def children_index(tokenizer: Tokenizer) -> dict[int, list[int]]:
    """For every id, the tokens merged directly from it, ascending (each listed once).

    >>> children_index(Tokenizer([(97, 97), (256, 256)]))[256]
    [257]
    """
    children: dict[int, list[int]] = {token_id: [] for token_id in all_ids(tokenizer)}
    for rank, (left, right) in enumerate(tokenizer.merges):
        children[left].append(256 + rank)
        if right != left:
            children[right].append(256 + rank)
    return children


def descendants(tokenizer: Tokenizer, token_id: int) -> list[int]:
    """All tokens whose lineage includes token_id, ascending."""
    _check_id(tokenizer, token_id)
    children = children_index(tokenizer)
    seen: set[int] = set()
    stack = [token_id]
    while stack:
        for child in children[stack.pop()]:
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return sorted(seen)


def descendant_counts(tokenizer: Tokenizer) -> dict[int, int]:
    """For every id, how many distinct tokens were built from it, directly or not.

    Largest id first, each token hands itself and its descendants, as a bit set, to its
    two parts; a token's set is complete when its turn comes, as its children have larger
    ids, and is dropped once read (about 35 ms for 20,000 merges).

    >>> descendant_counts(Tokenizer([(97, 97), (256, 256), (257, 257)]))[97]
    3
    """
    n = tokenizer.vocab_size
    counts = dict.fromkeys(all_ids(tokenizer), 0)
    below: dict[int, int] = {}  # id -> bit set of its descendants, while a parent still needs it
    for token_id in range(n - 1, -1, -1):
        bits = below.pop(token_id, 0)
        counts[token_id] = bits.bit_count()
        if token_id >= 256:
            # subtle: for a pair (x, x) the same bits are or-ed in twice, which is harmless
            bits |= 1 << token_id
            for part in tokenizer.merges[token_id - 256]:
                below[part] = below.get(part, 0) | bits
    return counts


def lineage_tree(tokenizer: Tokenizer, token_id: int) -> LineageNode:
    """The tree of merges that built a token, down to its bytes.

    Nodes for the same id are one shared object, so the tree costs one node per distinct id.

    >>> tree = lineage_tree(Tokenizer([(97, 97), (256, 98)]), 257)
    >>> tree.token, tree.left.token, tree.left.left.token, tree.right.token
    (b'aab', b'aa', b'a', b'b')
    """
    nodes: dict[int, LineageNode] = {}
    for tid in sorted(_reading_order(tokenizer, [token_id])):  # parts have smaller ids
        pair = parents(tokenizer, tid)
        left, right = (None, None) if pair is None else (nodes[pair[0]], nodes[pair[1]])
        nodes[tid] = LineageNode(tid, tokenizer.token_bytes(tid), left, right)
    return nodes[token_id]


def lineage_dot(tokenizer: Tokenizer, token_id: int, *, label: Callable[[bytes], str]) -> str:
    r"""Graphviz DOT text for a token's lineage: one node per distinct id.

    Edges run from the two parts to the token they merged into, drawn bottom to top, so
    the graph reads like the merges happened: the bytes on the bottom row, the token
    itself on top. `label` renders a token's bytes; the id is shown beneath it. A pair
    (x, x) gets two edges from x.

    >>> dot = lineage_dot(Tokenizer([(97, 97)]), 256, label=lambda b: b.decode())
    >>> for line in dot.splitlines():
    ...     if "->" in line or "label=" in line:
    ...         print(line.strip())
    t256 [label="aa\n256", fillcolor="#fde293", penwidth=2];
    t97 [label="a\n97", fillcolor="#f1f3f4"];
    t97 -> t256;
    t97 -> t256;
    """
    ids = _reading_order(tokenizer, [token_id])
    return _dot("lineage", tokenizer, ids, label, root=token_id, top=[], top_edges=[])


def text_lineage_dot(
    tokenizer: Tokenizer, text: str, ids: Sequence[int], *, label: Callable[[bytes], str]
) -> str:
    r"""Graphviz DOT for how a text is built: its tokens under it, each down to its bytes.

    As `lineage_dot`, with the text itself on top (node `text`).

    >>> dot = text_lineage_dot(Tokenizer([(97, 97)]), "aab", [256, 98], label=bytes.decode)
    >>> [line.strip() for line in dot.splitlines() if "->" in line][:4]
    ['t97 -> t256;', 't97 -> t256;', 't256 -> text;', 't98 -> text;']
    """
    text_label = dot_escape(label(text.encode("utf-8", "surrogatepass")))
    top = [f'  text [label="{text_label}", fillcolor="#fde293", penwidth=2];']
    top_edges = [f"  t{token_id} -> text;" for token_id in ids]
    order = _reading_order(tokenizer, ids)
    return _dot("build", tokenizer, order, label, root=None, top=top, top_edges=top_edges)


def _dot(
    name: str,
    tokenizer: Tokenizer,
    ids: list[int],
    label: Callable[[bytes], str],
    *,
    root: int | None,
    top: list[str],
    top_edges: list[str],
) -> str:
    """The DOT text both graphs share: `top` nodes, the lineage of `ids`, then `top_edges`."""
    lines = [
        f"digraph {name} {{",
        '  graph [rankdir=BT, ordering=in, nodesep=0.15, ranksep=0.3, bgcolor="transparent"];',
        '  node [shape=box, style="rounded,filled", fontname="monospace", fontsize=11,'
        ' height=0.3, margin="0.08,0.03", fillcolor="#e8f0fe", color="#5f6368"];',
        '  edge [arrowsize=0.5, color="#9aa0a6"];',
        *top,
    ]
    for tid in ids:
        text = dot_escape(f"{label(tokenizer.token_bytes(tid))}\n{tid}")
        lines.append(f'  t{tid} [label="{text}"{_node_style(tid, root)}];')
    for tid in ids:
        pair = parents(tokenizer, tid)
        if pair is not None:
            lines.extend(f"  t{part} -> t{tid};" for part in pair)
    lines.extend(top_edges)
    leaves = [f"t{tid}" for tid in ids if parents(tokenizer, tid) is None]
    if len(leaves) > 1:  # the bytes share the bottom row, in reading order (invisible edges)
        lines.append(f"  {{ rank=same; {' -> '.join(leaves)} [style=invis]; }}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def dot_escape(text: str) -> str:
    r"""Escape text for a double-quoted DOT string; a newline becomes a DOT line break.

    >>> print(dot_escape('say "hi"\\there\nnext'))
    say \"hi\"\\there\nnext
    """
    text = text.replace("\\", "\\\\").replace('"', '\\"')
    return text.replace("\r\n", "\\n").replace("\r", "\\n").replace("\n", "\\n")


def vocab_entries(
    tokenizer: Tokenizer, history: MergeHistory | None = None, *, descendants: bool = True
) -> list[VocabEntry]:
    """One entry per id (bytes, merges, special tokens), ascending.

    A history longer than the tokenizer is cut to it (its usage is then unknown, as
    `MergeHistory.truncated` says). Usage comes from `history.token_usage`. Counting
    descendants takes seconds for 200,000 tokens: `descendants=False` leaves them None.

    >>> tok = Tokenizer([(97, 97), (256, 97)])
    >>> [(e.id, e.kind, e.descendants, e.uses) for e in vocab_entries(tok)][-3:]
    [(255, 'byte', 0, None), (256, 'merge', 1, None), (257, 'merge', 0, None)]
    """
    history = matching_history(tokenizer, history)
    counts = descendant_counts(tokenizer) if descendants else {}
    usage = history.token_usage if history is not None else {}
    steps = history.steps if history is not None else ()
    size, merges, specials = tokenizer.vocab_size, tokenizer.merges, tokenizer.special_by_id
    entries: list[VocabEntry] = []
    for token_id in all_ids(tokenizer):  # no per-id checks: 200,000 tokens in a second
        merge = steps[token_id - 256] if steps and 256 <= token_id < size else None
        step = token_id - 256 if 256 <= token_id < size else None
        left, right = (None, None) if step is None else merges[step]
        token = tokenizer.vocab[token_id] if token_id < size else tokenizer.token_bytes(token_id)
        uses = usage.get(token_id, 0)
        entries.append(
            VocabEntry(
                id=token_id,
                token=token,
                length=len(token),
                left=left,
                right=right,
                step=step,
                count=None if merge is None else merge.count,
                uses=uses if usage else None,
                descendants=counts.get(token_id) if descendants else None,
                intermediate_only=(step is not None and uses == 0) if usage else None,
                is_special=token_id in specials,
                merged=None if merge is None else merge.merged,
                is_outside=token_id in tokenizer.outside_merges,
            )
        )
    return entries


def _check_id(tokenizer: Tokenizer, token_id: int) -> None:
    if not (
        0 <= token_id < tokenizer.vocab_size
        or token_id in tokenizer.special_by_id
        or token_id in tokenizer.outside_merges
    ):
        specials = sorted(tokenizer.special_by_id)
        outside = sorted(tokenizer.outside_merges)[:8]
        raise LineageError(
            f"token id {token_id} is not in this tokenizer: use an id from 0 to "
            f"{tokenizer.vocab_size - 1}"
            + (f" or a special token id {specials}" if specials else "")
            + (f" or an id outside the merges {outside}" if outside else "")
        )


def _reading_order(tokenizer: Tokenizer, token_ids: Sequence[int]) -> list[int]:
    """The tokens and every id in their lineage, once each, in preorder (left part first).

    Iterative, as chains can be thousands deep; the leaves come out in reading order.
    """
    for token_id in token_ids:
        _check_id(tokenizer, token_id)
    order: dict[int, None] = {}
    stack = list(reversed(token_ids))
    while stack:
        tid = stack.pop()
        if tid in order:
            continue
        order[tid] = None
        stack.extend(reversed(parents(tokenizer, tid) or ()))
    return list(order)


def _node_style(token_id: int, root: int | None) -> str:
    if token_id == root:
        return ', fillcolor="#fde293", penwidth=2'
    if token_id < 256:
        return ', fillcolor="#f1f3f4"'
    return ""


def matching_history(tokenizer: Tokenizer, history: MergeHistory | None) -> MergeHistory | None:
    """The history cut to the tokenizer's merges (a view of a run at a smaller size), or
    None for none; a LineageError if its merges are not the tokenizer's.

    >>> from explorer.training.train import train
    >>> run = train("aaabdaaabac", 259, pattern="none")
    >>> len(matching_history(run.tokenizer.at_vocab_size(257), run.history).steps)
    1
    """
    if history is None:
        return None
    history = history.truncated(tokenizer.vocab_size)
    if history.merges != tokenizer.merges:
        raise LineageError(
            f"this history's merges are not the tokenizer's (history: {len(history.steps)} "
            f"merges, tokenizer: {len(tokenizer.merges)}): pass the history the tokenizer "
            "was trained with, or none"
        )
    return history
