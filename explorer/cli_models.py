"""The command line's face for a real model's file: info, encode, decode, check and report.

explorer.cli reads the arguments and opens the file (`explorer.models.opening`); when it
is a real model's (a LoadedModel: its own ids, merge ranks and normalizer), the commands
come here. Encode and decode are the model's library's own (`tokenizers`, tiktoken);
what is printed names the id, the merge rank and never a step.

    >>> print(ids_line([128000, 9906, 11]))
    128000 9906 11
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from explorer.analysis.compression.metrics import SizeMetrics, metrics_at_full_size
from explorer.analysis.compression.piece_counts import piece_counts
from explorer.models.model import LoadedModel
from explorer.models.model_checkup import KINDS, NOT_APPLICABLE, ModelCheckUp, row_note

BASE_WORDS = {
    "bytes": "bytes (byte-level: every text is bytes first, so nothing is unknown)",
    "characters": "characters (SentencePiece-style: `▁` for a space, <0xNN> byte-fallback "
    "tokens for characters the vocabulary lacks)",
}
SHOWN_SPECIALS = 40  # info lists this many special tokens, then says how many more


def ids_line(ids: Sequence[int]) -> str:
    """Ids as the command line prints them: separated by spaces."""
    return " ".join(map(str, ids))


def info_lines(model: LoadedModel, label: str = "") -> list[str]:
    """What `info` says of a loaded model (`label`: the path given, else its name): ids,
    merges, base symbols, normalizer, pattern, special tokens, and which number is which."""
    ids = sorted(model.tokens)
    made = {merge.result for merge in model.merges}
    specials = sorted(model.special_tokens.items(), key=lambda item: item[1])
    unmade = len(set(ids) - made - {i for _, i in specials})
    several = len(model.merges) - len(made)
    lines = [
        f"model: {label or model.name} (a real model's {model.file_kind})",
        f"ids: {len(ids):,}" + (f" ({ids[0]:,}-{ids[-1]:,})" if ids else ""),
        f"merges: {len(model.merges):,} (ranks 0-{len(model.merges) - 1:,}), making "
        f"{len(made):,} distinct tokens"
        + (f"; {several:,} merges make a token another merge makes too" if several else ""),
        f"tokens no merge makes (base symbols, tokens taken whole): {unmade:,}",
        f"base symbols: {BASE_WORDS.get(model.base, model.base)}",
        f"normalizer: {model.normalizer or 'none'}",
        f"pattern: {model.pattern or 'none'}",
        f"special tokens: {len(specials):,}",
        *(f"  {token!r} {i}" for token, i in specials[:SHOWN_SPECIALS]),
        *(
            [f"  … and {len(specials) - SHOWN_SPECIALS:,} more"]
            if len(specials) > SHOWN_SPECIALS
            else []
        ),
        "numbering: an id is the model's own number for a token (what encode prints); a "
        "merge's rank is its place in the file's merge order, from 0; the two are "
        "different numbers, and ids do not follow merge ranks",
    ]
    return lines


def decode_ids(model: LoadedModel, ids: Sequence[int], source: str) -> str:
    """The model's decode of ids; a ValueError names the first id it does not have."""
    for position, token_id in enumerate(ids, start=1):
        if token_id not in model.tokens:
            raise ValueError(
                f"item {position} of {source}, {token_id}, is not an id of {model.name} "
                f"(it has {model.vocab_size:,} ids, up to {max(model.tokens, default=0):,})"
            )
    return model.decode(ids)


def report_metrics(model: LoadedModel, text: str) -> SizeMetrics:
    """Every metric of a text at the model's own size (its number of ids)."""
    ids = model.encode(text)
    counts = piece_counts(ids, model.token_bytes, text)
    return metrics_at_full_size(counts, model.vocab_size)


def check_counts_text(report: ModelCheckUp, output: str) -> str:
    """How many tokens of each kind, with a sentence for what does not apply."""
    counts = report.counts()
    if output == "json":
        return json.dumps(
            {
                "vocab_size": report.vocab_size,
                **counts,
                "not_checked_for_reach": len(report.not_checked),
                "not_applicable": NOT_APPLICABLE,
            }
        )
    if output == "csv":
        rows = ["kind,tokens", *(f"{k},{'' if n is None else n}" for k, n in counts.items())]
        return "\n".join(rows)
    width = max(map(len, KINDS))
    lines = [f"{'kind':<{width}}  {'tokens':>7}"]
    lines += [f"{k:<{width}}  {'n/a' if n is None else f'{n:,}':>7}" for k, n in counts.items()]
    lines += [f"{kind}: does not apply: {why}" for kind, why in NOT_APPLICABLE.items()]
    if report.not_checked:
        lines.append(
            f"unreachable: {len(report.not_checked):,} tokens were not checked, because the "
            "model's normalizer changes their text (what a user types for them is another text)"
        )
    return "\n".join(lines)


def check_list_text(model: LoadedModel, report: ModelCheckUp, kind: str, output: str) -> str:
    """The tokens of one kind; a ValueError when the kind does not apply to a model."""
    ids = report.kinds[kind]
    if ids is None:
        raise ValueError(NOT_APPLICABLE[kind])
    rows = []
    for token_id in ids:
        data = model.token_bytes(token_id)
        try:
            text: str | None = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        note = row_note(model, report, token_id)
        rows.append((token_id, text, data.hex(" "), report.lengths.get(token_id, 0), note))
    if output == "json":
        keys = ("id", "token", "hex", "length", "note")
        return json.dumps([dict(zip(keys, row)) for row in rows], ensure_ascii=False)
    if output == "csv":
        import csv
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerows([("id", "token", "hex", "length", "note"), *rows])
        return buffer.getvalue().rstrip("\n")
    if not rows:
        return f"no {kind.replace('_', ' ')} tokens"
    lines = []
    for token_id, text, hexed, length, note in rows:
        shown = f"hex {hexed}" if text is None else json.dumps(text, ensure_ascii=False)
        lines.append(f"{token_id:>7}  {shown}  ({length})" + (f"  {note}" if note else ""))
    return "\n".join(lines)
