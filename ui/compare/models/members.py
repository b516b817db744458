"""The tokenizers a comparison holds, whatever they are, behind one small face.

A comparison mixes our own runs and bundled vocabularies (`explorer.Tokenizer`: merge k
makes id 255 + k) with real models' tokenizers (`explorer.models.LoadedModel`: their own
ids and ranks). Each comes as a `Member`: what the charts call it, a key for caches, and
the few things Compare asks of it. Encoding is each one's own exact path: our Tokenizer's
(tiktoken's engine where it encodes our runs exactly), and a real model's reference
library (`tokenizers`, tiktoken).

    >>> from explorer import Tokenizer
    >>> member = tokenizer_member("bytes", "run:bytes", Tokenizer([(104, 105)]))
    >>> member.encode_all(["hi", "hi!"]), member.vocabulary()
    ([[256], [256, 33]], frozenset({b'hi'}))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from explorer import Tokenizer
from explorer.html.token_html import token_title
from explorer.models.model import LoadedModel


@dataclass(frozen=True)
class Member:
    """One tokenizer of a comparison (see the module docstring).

    `key` names its results in the shared caches (a run's settings, `hub:NAME`);
    `kind` says what it is in a sentence ("our run", "bundled", "a real model's").
    """

    label: str
    key: str
    kind: str
    vocab_size: int
    encode_all: Callable[[Sequence[str]], list[list[int]]]
    token_bytes: Callable[[int], bytes]
    card: Callable[[int], str]
    vocabulary: Callable[[], frozenset[bytes]]
    normalize: Callable[[str], str] = str


def tokenizer_member(label: str, key: str, tokenizer: Tokenizer, kind: str = "our run") -> Member:
    """One of our tokenizers (a run, a bundled vocabulary) as a member."""

    def encode_all(texts: Sequence[str]) -> list[list[int]]:
        return [tokenizer.encode_ordinary(text) for text in texts]

    def vocabulary() -> frozenset[bytes]:
        specials = set(tokenizer.special_by_id)
        return frozenset(
            data
            for token_id, data in tokenizer.vocab.items()
            if len(data) > 1 and token_id not in specials
        )

    return Member(
        label,
        key,
        kind,
        tokenizer.vocab_size,
        encode_all,
        tokenizer.token_bytes,
        lambda token: token_title(tokenizer, token),
        vocabulary,
    )


def model_member(label: str, key: str, model: LoadedModel) -> Member:
    """A real model's tokenizer as a member: its reference library encodes (a batch at
    once where the library has one), and its cards name the id and the merge rank apart."""
    batch = getattr(model, "encode_batch", None)

    def encode_all(texts: Sequence[str]) -> list[list[int]]:
        if callable(batch):
            return [list(ids) for ids in batch(list(texts))]
        return [model.encode(text) for text in texts]

    def vocabulary() -> frozenset[bytes]:
        specials = set(model.special_tokens.values())
        found = (model.token_bytes(i) for i in model.tokens if i not in specials)
        return frozenset(data for data in found if len(data) > 1)

    return Member(
        label,
        key,
        "a real model's",
        model.vocab_size,
        encode_all,
        model.token_bytes,
        lambda token: model_card(model, token),
        vocabulary,
        model.normalize,
    )


def model_card(model: LoadedModel, token_id: int) -> str:
    """What hovering a real model's token says: its id, then apart the merge rank.

    The id is the model's own number; a merge rank is the merge's place in the file.
    """
    token = model.tokens.get(token_id, "")
    card = f"id {token_id:,}: {token!r}"
    if token in model.special_tokens:
        return f"{card} (special token)"
    makers = model.makers(token_id)
    if not makers:
        return f"{card} · no merge makes it"
    return f"{card} · made by merge rank {makers[0].rank:,}"
