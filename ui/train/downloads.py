"""A run's files to download: the merge log, .model, .vocab, tokenizer.json, .tiktoken, history.

Exports that cannot hold a tokenizer say why instead of offering a broken file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from explorer import FormatError, MergeHistory, Tokenizer
from explorer.files.exports import tiktoken_text, tokenizer_json
from explorer.files.formats import model_text, vocab_text
from explorer.files.history_file import history_json
from ui.train.merge_log import log_csv

EAGER_EXPORT_MERGES = 60_000  # up to this, exports are tried before they are offered


EXPORT_NAMES = {"model": ".model", "tokenizer_json": "tokenizer.json", "tiktoken": ".tiktoken"}


@dataclass(frozen=True)
class Download:
    """One download button's file: data is text, or a function that makes it when clicked."""

    key: str  # the widget key's end: train_download_<key>
    label: str
    data: str | Callable[[], str]
    file_name: str
    mime: str = "text/plain"


def download_files(
    tokenizer: Tokenizer,
    stem: str,
    log: pd.DataFrame,
    history: MergeHistory | None,
    problems: dict[str, str],
) -> list[Download]:
    """The merge log, the tokenizer as .model, .vocab, tokenizer.json and .tiktoken, and the
    history when there is one; a format with a problem (see export_problems) has no data."""
    model = "" if problems.get("model") else model_text(tokenizer)  # cheap: made now
    files = [
        Download("csv", "Merge log (.csv)", lambda: log_csv(log), f"{stem}-merges.csv", "text/csv"),
        Download("model", "Tokenizer (.model)", model, f"{stem}.model"),
        Download("vocab", "Vocabulary (.vocab)", lambda: vocab_text(tokenizer), f"{stem}.vocab"),
        Download(
            "tokenizer_json",
            "Hugging Face (tokenizer.json)",
            lambda: tokenizer_json(
                tokenizer, tie_rule=None if history is None else history.tie_rule
            ),
            f"{stem}.tokenizer.json",
            "application/json",
        ),
        Download(
            "tiktoken", "tiktoken (.tiktoken)", lambda: tiktoken_text(tokenizer), f"{stem}.tiktoken"
        ),
    ]
    if history is not None:
        files.append(
            Download(
                "json",
                "History (.json)",
                lambda: history_json(history),
                f"{stem}-history.json",
                "application/json",
            )
        )
    return files


def export_problems(tokenizer: Tokenizer) -> dict[str, str]:
    """Why each file format cannot hold the tokenizer ("" when it can), by format.

    Past EAGER_EXPORT_MERGES merges the tokenizer.json and .tiktoken exports are not
    tried here (a second or more each): they are made when clicked.

    >>> shuffled = Tokenizer([], byte_ids=[1, 0, *range(2, 256)])
    >>> export_problems(shuffled)["model"][:44]
    "this tokenizer numbers the bytes in GPT-2's "
    """
    writers: dict[str, Callable[[Tokenizer], str]] = {"model": model_text}
    if len(tokenizer.merges) <= EAGER_EXPORT_MERGES:
        writers |= {"tokenizer_json": tokenizer_json, "tiktoken": tiktoken_text}
    problems = dict.fromkeys(("model", "tokenizer_json", "tiktoken"), "")
    for fmt, write in writers.items():
        try:
            write(tokenizer)
        except FormatError as exc:
            problems[fmt] = str(exc)
    return problems


@st.cache_data(max_entries=16, show_spinner=False)
def export_problems_cached(run_key: str, vocab_size: int, _tokenizer: Tokenizer) -> dict[str, str]:
    """`export_problems` once per run and view size."""
    return export_problems(_tokenizer)
