"""tiktoken's byte-pair merge, replayed: on random rank tables (parts that rank above what
they make, ties, long runs) the replay ends where tiktoken's own encoder ends, and its steps,
applied in order at their positions, lead there."""

from __future__ import annotations

import base64

import tiktoken
from hypothesis import example, given, settings
from hypothesis import strategies as st

from explorer.models.rank_merging import byte_pair_steps, token_splits
from explorer.models.rank_model import read_rank_file

BYTES = {bytes([b]): b for b in range(256)}


@st.composite
def rank_tables(draw: st.DrawFn) -> dict[bytes, int]:
    """The 256 bytes, then words over 'abc' in any rank order (a part may rank above)."""
    words = draw(st.lists(st.text("abc", min_size=2, max_size=6), max_size=40, unique=True))
    order = draw(st.permutations(words))
    return BYTES | {word.encode(): 256 + k for k, word in enumerate(order)}


def _tiktoken(ranks: dict[bytes, int]) -> tiktoken.Encoding:
    return tiktoken.Encoding("t", pat_str=r"[\s\S]+", mergeable_ranks=ranks, special_tokens={})


def _replayed(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
    steps, finals = byte_pair_steps(piece, ranks)
    by_rank = {rank: token for token, rank in ranks.items()}
    symbols = [ranks[piece[i : i + 1]] for i in range(len(piece))]
    for position, left, right, made in steps:
        assert symbols[position : position + 2] == [left, right]
        assert by_rank[left] + by_rank[right] == by_rank[made]
        symbols[position : position + 2] = [made]
    assert symbols == finals
    return finals


@settings(max_examples=200, deadline=None)
@given(ranks=rank_tables(), text=st.text("abc", max_size=40))
@example(ranks=BYTES | {b"ab": 300, b"abc": 290}, text="abc")  # "abc" made from a higher rank
@example(ranks=BYTES | {b"aa": 256, b"aaa": 257}, text="a" * 9)
def test_the_replay_ends_where_tiktoken_does(ranks: dict[bytes, int], text: str) -> None:
    piece = text.encode()
    if not piece or piece in ranks:
        return  # tiktoken takes a whole token whole; the replay is for the rest
    assert _replayed(piece, ranks) == _tiktoken(ranks).encode_ordinary(text)


def test_a_part_may_rank_above_what_it_makes() -> None:
    ranks = BYTES | {b"ab": 300, b"abc": 290}
    steps, finals = byte_pair_steps(b"abc", ranks)
    assert steps == [(0, 97, 98, 300), (0, 300, 99, 290)] and finals == [290]
    assert token_splits(b"abc", ranks) == [(300, 99)]


def test_a_small_rank_file_traces_and_lists_its_merges() -> None:
    lines = [f"{base64.b64encode(token).decode()} {rank}" for token, rank in BYTES.items()]
    lines += ["YWI= 257", "YWJj 256"]  # "ab" ranks after "abc"
    model = read_rank_file("\n".join(lines).encode(), name="t.tiktoken", pattern="none")
    trace = model.trace("abcab")
    assert trace.ids == model.encode("abcab") == [256, 257]
    [chunk] = trace.chunks
    ab, abc = model.makers(257), model.makers(256)
    assert [(m.left, m.right) for m in ab] == [(97, 98)]
    assert [(m.left, m.right) for m in abc] == [(257, 99)]  # its part ranks above it
    assert [(step.step, step.merge, step.position) for step in chunk.steps] == [
        (1, ab[0], 0),  # a + b at the left first (a tie with the a + b at the right)
        (2, abc[0], 0),  # then ab + c: rank 256 beats the a + b left at rank 257
        (3, ab[0], 1),
    ]
    assert list(model.merges) == [*abc, *ab]  # by the made token's rank
