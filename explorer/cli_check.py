"""`python -m explorer check`: a tokenizer's check-up as a table, CSV or JSON.

explorer.cli reads the arguments and the tokenizer; this module only writes what
explorer.analysis.vocabulary.checkup found.

    >>> from explorer.encoding.tokenizer import Tokenizer
    >>> tok = Tokenizer([(32, 97), (97, 39), (32, 257)], special_tokens=["<|x|>"])
    >>> report = check_up(tok)
    >>> print(counts_text(report, "json"))  # doctest: +ELLIPSIS
    {"vocab_size": 259, "unreachable": 1, "partial_character": 128, "outside_merges": 0, ...}
    >>> print(list_text(tok, report, "special", "csv"))
    id,token,hex,length,note
    259,<|x|>,3c 7c 78 7c 3e,5,
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence

from explorer.analysis.vocabulary.checkup import KINDS, CheckUp, check_up
from explorer.analysis.vocabulary.checkup_rows import KIND_TITLES, TokenRow, kind_rows
from explorer.encoding.tokenizer import Tokenizer

FORMATS = ("table", "csv", "json")
LENGTH_KINDS = {  # the kinds whose lengths a practitioner reads, and the unit
    "partial_character": "bytes",
    "whitespace_only": "characters",
    "digits_only": "characters",
}
__all__ = ["FORMATS", "KINDS", "check_up", "counts_text", "list_text"]


def counts_text(report: CheckUp, output: str) -> str:
    """How many tokens of each kind (and by length), in the chosen format."""
    counts = report.counts()
    if output == "json":
        lengths = {
            f"{kind}_by_length": {str(n): c for n, c in report.by_length(kind).items()}
            for kind in LENGTH_KINDS
        }
        return json.dumps({"vocab_size": report.vocab_size, **counts, **lengths})
    if output == "csv":
        return _csv([["kind", "tokens"], *([kind, _count(n)] for kind, n in counts.items())])
    width = max(map(len, KINDS))
    lines = [f"{'kind':<{width}}  {'tokens':>7}  what"]
    lines += [f"{k:<{width}}  {_count(n, ','):>7}  {KIND_TITLES[k]}" for k, n in counts.items()]
    for kind, unit in LENGTH_KINDS.items():
        found = report.by_length(kind)
        if found:
            shown = ", ".join(f"{length}: {count:,}" for length, count in found.items())
            lines.append(f"{kind} by length in {unit} (length: tokens): {shown}")
    return "\n".join(lines)


def list_text(tokenizer: Tokenizer, report: CheckUp, kind: str, output: str) -> str:
    """The tokens of one kind, in the chosen format (a ValueError when they are unknown)."""
    rows = kind_rows(tokenizer, report, kind)
    if output == "json":
        return json.dumps([_row_json(row) for row in rows], ensure_ascii=False)
    if output == "csv":
        header = ["id", "token", "hex", "length", "note"]
        return _csv([header, *([r.id, r.text or "", r.hex, r.length, r.note] for r in rows)])
    if not rows:
        return f"no {KIND_TITLES[kind].lower()} tokens"
    return "\n".join(_row_line(row) for row in rows)


def _row_json(row: TokenRow) -> dict[str, object]:
    return {"id": row.id, "token": row.text, "hex": row.hex, "length": row.length, "note": row.note}


def _row_line(row: TokenRow) -> str:
    """id, the token (quoted text, or its bytes in hex), length, note: one line."""
    shown = f"hex {row.hex}" if row.text is None else json.dumps(row.text, ensure_ascii=False)
    note = f"  {row.note}" if row.note else ""
    return f"{row.id:>7}  {shown}  ({row.length}){note}"


def _count(count: int | None, separator: str = "") -> str:
    if count is None:
        return "unknown"
    return f"{count:,}" if separator else str(count)


def _csv(rows: Iterable[Sequence[object]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue().rstrip("\n")
