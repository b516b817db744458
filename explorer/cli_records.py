"""`report`'s rows, kept small and written as they come: an aligned table, CSV or a JSON list.

One file's metrics at every size are kept as columns of machine numbers (8 bytes a value:
o200k_base's 199,742 sizes take 13 MB a file, where dicts of Python objects took about
0.5 GB), and CSV and JSON are written a record at a time, so `report --sizes all` holds
one file's rows at most. A table (its column widths) and --parallel (premiums and Ginis
across files) need every file before the first line: they keep the columns.

    >>> import sys
    >>> from explorer.analysis.compression.metrics import size_metrics
    >>> from explorer.encoding.tokenizer import Tokenizer
    >>> rows = FileRows.of("a.txt", size_metrics(Tokenizer([(97, 97)]), "aaaa b", [256, 257]))
    >>> keys = ["size", "fertility"]
    >>> write_records(lambda: rows.records(keys), "csv", sys.stdout, ["file", *keys])
    file,size,fertility
    a.txt,256,2.5
    a.txt,257,1.5
"""

from __future__ import annotations

import csv
import itertools
import json
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import TextIO

from explorer.analysis.compression.fairness import gini
from explorer.analysis.compression.metrics import SizeMetrics

Record = dict[str, object]
_FIELDS = [field.name for field in fields(SizeMetrics)]


@dataclass(frozen=True)
class FileRows:
    """One file's SizeMetrics at each size, as one array per field (ints 'q', floats 'd')."""

    name: str
    columns: dict[str, array[int] | array[float]]  # array('q') or array('d')

    @classmethod
    def of(cls, name: str, metrics: Sequence[SizeMetrics]) -> FileRows:
        """The columns of `metrics`, all of one file, in order."""
        columns: dict[str, array[int] | array[float]] = {}
        for key in _FIELDS:
            values = [getattr(m, key) for m in metrics]
            typecode = "q" if all(isinstance(v, int) for v in values) else "d"
            columns[key] = array(typecode, values)
        return cls(name, columns)

    def __len__(self) -> int:
        return len(self.columns["size"])

    def records(self, keys: Sequence[str] = _FIELDS) -> Iterator[Record]:
        """Each size's record: the file's name, then `keys`, made one at a time."""
        wanted = [(key, self.columns[key]) for key in keys]
        for index in range(len(self)):
            yield {"file": self.name, **{key: column[index] for key, column in wanted}}


def fairness_records(files: Sequence[FileRows], keys: Sequence[str]) -> Iterator[Record]:
    """Each file's records with its premium against the first file's and the Gini of tokens
    per byte across the files, at each size; every file has the same sizes, in order."""
    reference = files[0].columns["tokens"]
    ginis = [
        gini(
            [
                rows.columns["tokens"][i] / rows.columns["text_bytes"][i]
                for rows in files
                if rows.columns["text_bytes"][i]
            ]
        )
        for i in range(len(files[0]))
    ]
    for rows in files:
        tokens = rows.columns["tokens"]
        for i, record in enumerate(rows.records(keys)):
            yield {**record, "premium": tokens[i] / reference[i], "gini": ginis[i]}


def write_records(
    records: Callable[[], Iterable[Record]], form: str, out: TextIO, keys: list[str]
) -> None:
    """Print the records as an aligned table, CSV or a JSON list, with `keys` as the
    columns, each as it comes: `records()` makes them once, or twice for a table (its
    column widths first)."""
    if form == "json":
        _write_json(records(), out)
    elif form == "csv":
        writer = csv.DictWriter(out, fieldnames=keys, lineterminator="\n")
        writer.writeheader()
        writer.writerows(records())
    else:
        _write_table(keys, records, out)


def _write_json(records: Iterable[Record], out: TextIO, batch: int = 1000) -> None:
    r"""The text of json.dumps(list(records), indent=1, ensure_ascii=False), written
    `batch` records at a time.

    >>> import io
    >>> out = io.StringIO()
    >>> _write_json(iter([{"a": 1}, {"a": 2}, {"a": 3}]), out, batch=2)
    >>> out.getvalue() == json.dumps([{"a": 1}, {"a": 2}, {"a": 3}], indent=1) + "\n"
    True
    """
    records = iter(records)
    opened = False
    while chunk := list(itertools.islice(records, batch)):
        text = json.dumps(chunk, indent=1, ensure_ascii=False)
        out.write((",\n" if opened else "[\n") + text[2:-2])  # without this list's "[\n", "\n]"
        opened = True
    out.write("\n]\n" if opened else "[]\n")


def _write_table(header: list[str], records: Callable[[], Iterable[Record]], out: TextIO) -> None:
    widths = [len(key) for key in header]
    for record in records():
        widths = [max(w, len(_cell(record[k]))) for w, k in zip(widths, header)]
    rows = itertools.chain([header], ([_cell(r[k]) for k in header] for r in records()))
    for row in rows:
        cells = (c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
        out.write("  ".join(cells).rstrip() + "\n")


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
