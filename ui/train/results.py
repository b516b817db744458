"""The Train page's results: what training did, the text in tokens, the merge log, downloads.

Each part takes a run (and the viewed vocab size) and draws itself; the data comes from
the cached builders in ui/train/merge_log.py and ui/train/downloads.py.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import MergeHistory, Tokenizer, tokens_to_html
from ui.session import state as keys
from ui.session.holdout_split import split_of
from ui.session.run_spec import RunKind, RunSpec, file_stem
from ui.session.runs import (
    Run,
    origin,
    texts_of,
    training_text_note,
    view_tokenizer,
    view_vocab_size,
)
from ui.train import downloads as export
from ui.train import merge_log as log
from ui.train.tie_rule_form import tie_rule_note
from ui.views import cells
from ui.views import formatting as fmt
from ui.views.section import guarded
from ui.views.token_view import encode_cached

PREVIEW_CHARS = 2_000


PREVIEW_WORDS = 50


PREVIEW_HEIGHT = 240  # pixels: a long preview scrolls instead of pushing the log down


SHORT_PREVIEW = 120  # tokens shown whole, ids included


LOG_PAGE_ROWS = 1_000  # rows sent to the browser at once; search reaches every merge
LOG_TEXT_COLUMNS = ("left", "right", "token", "ties")  # cut to a cell's length on screen


LOW_COVERAGE = 0.9  # a pattern whose chunks cover less of the text is worth a word


def metrics(history: MergeHistory, vocab_size: int) -> None:
    """What training did, at the viewed vocab size, and why it stopped."""
    before, after = history.initial_length, history.length_at(vocab_size)
    shrink = (after - before) / before if before else 0.0
    values = [
        ("Merges learned", f"{len(history.steps):,}", None),
        ("Time taken", fmt.format_seconds(history.seconds), None),
        ("Corpus bytes", f"{history.corpus_bytes:,}", None),
        ("Tokens before", f"{before:,}", None),
        (f"Tokens at {vocab_size:,}", f"{after:,}", f"{shrink:.0%}" if after != before else None),
        ("Bytes per token", f"{before / after:.2f}" if after else "–", None),
    ]
    metric_row(values)
    if history.stop_reason.value == "vocab_size_reached":
        st.caption(history.stop_sentence())
    else:
        st.warning(history.stop_sentence())


def coverage_note(spec: RunSpec, history: MergeHistory) -> None:
    """Say how much of the text the pattern's chunks covered, when it dropped much of it.

    A custom regex that matches almost nothing otherwise reports only "0 merges". Only
    for plain texts without special tokens, where the bytes outside the chunks are
    exactly the text the pattern skipped.
    """
    total, kept = history.corpus_bytes, history.initial_length
    if spec.kind is not RunKind.TEXT or spec.special_tokens or not total:
        return
    share = kept / total
    if share >= LOW_COVERAGE:
        return
    shown = f"{share:.0%}" if share >= 0.01 or not kept else "less than 1%"
    st.warning(
        f"The pattern matched {shown} of the text ({kept:,} of {total:,} bytes): text it "
        "does not match is dropped before training, so the merges only see those bytes. "
        "Choose a preset pattern, or a regex that matches every part of the text."
    )


def model_metrics(spec: RunSpec, tokenizer: Tokenizer) -> None:
    """A loaded tokenizer has merges but no history: say so and show what there is."""
    st.info(
        f"This tokenizer was {fmt.markdown_text(origin(spec))}, so there is no merge history: no "
        "counts, timing or compression. Train on a text here to see those."
    )
    metric_row(
        [
            ("Merges", f"{len(tokenizer.merges):,}", None),
            ("Vocab size", f"{tokenizer.vocab_size:,}", None),
            ("Special tokens", f"{len(tokenizer.special_tokens):,}", None),
        ]
    )


def metric_row(values: list[tuple[str, str, str | None]]) -> None:
    """Metrics side by side; a delta is a change in corpus length, so down is good."""
    for column, (label, value, delta) in zip(st.columns(len(values)), values):
        column.metric(label, value, delta, delta_color="inverse")


def preview(run: Run, tokenizer: Tokenizer, vocab_size: int) -> None:
    """The training text (or its words) as tokens, at the viewed vocab size."""
    note = training_text_note(run.spec)
    if note:
        st.caption(f"{note} Encode any text with it on the Tokens page.")
    texts = texts_of(run.spec)
    if not run.spec.kind.has_corpus or not texts:
        return
    what = "The words" if run.spec.kind is RunKind.WORD_COUNTS else "The training text"
    st.markdown(f"**{what} in tokens** (vocab size {vocab_size:,})")
    try:
        if run.spec.kind is RunKind.WORD_COUNTS:
            symbols = st.session_state[keys.TRAIN_BYTE_SYMBOLS]
            words = log.words_cached(
                run.key, vocab_size, texts[0], symbols, tokenizer, PREVIEW_WORDS
            )
            st.dataframe(
                words,
                hide_index=True,
                column_config={"tokens": st.column_config.ListColumn("tokens")},
            )
            return
        pieces, shown = preview_texts(run.spec, texts)
        encoded = (encode_cached(tokenizer, run.key, vocab_size, piece) for piece in pieces)
        ids = [token for encoding in encoded for token in encoding.ids]
    except ValueError as exc:
        st.warning(f"The preview cannot be shown: {fmt.markdown_text(str(exc))}")
        return
    symbols = st.session_state[keys.TRAIN_BYTE_SYMBOLS]
    with st.container(
        height=PREVIEW_HEIGHT if len(ids) > SHORT_PREVIEW else "content", border=False
    ):
        if symbols:
            st.html(tokens_to_html(tokenizer, ids, byte_symbols=True))
        else:
            st.html(tokens_to_html(tokenizer, ids, visible_whitespace=True))
    st.caption(f"{shown}: {len(ids):,} tokens. Hover a token for its id and how it was made.")
    if len(ids) <= SHORT_PREVIEW:
        st.code(fmt.format_ids(ids), language=None, wrap_lines=True)
    else:
        with st.expander(f"Token ids ({len(ids):,})"):
            st.code(fmt.format_ids(ids), language=None, wrap_lines=True)


def preview_texts(spec: RunSpec, texts: tuple[str, ...]) -> tuple[list[str], str]:
    """What the preview encodes, in pieces encoded one by one, and what its caption calls it.

    A run that holds text out trained on the rest, in pieces (ui/session/holdout_split.py): the
    preview is those pieces' first PREVIEW_CHARS characters, each encoded as training
    saw it, so no held-out paragraph is shown as training text.
    """
    split = split_of(spec, texts)
    if split is None:
        whole = len(texts[0]) <= PREVIEW_CHARS
        shown = "The whole text" if whole else f"Its first {PREVIEW_CHARS:,} characters"
        return [texts[0][:PREVIEW_CHARS]], shown
    pieces: list[str] = []
    room = PREVIEW_CHARS
    for piece in split.training_texts():
        if room <= 0:
            break
        pieces.append(piece[:room])
        room -= len(pieces[-1])
    shown = f"The first {PREVIEW_CHARS - room:,} characters it trained on (held-out text left out)"
    return pieces, shown


LOG_CONFIG = {
    "merge": st.column_config.NumberColumn(
        "merge", format="%d", width="small", help="Merge k makes id 255 + k, counting from 1"
    ),
    "id": st.column_config.NumberColumn("id", format="%d", width="small"),
    "left": st.column_config.TextColumn("left"),
    "right": st.column_config.TextColumn("right"),
    "token": st.column_config.TextColumn("new token"),
    "count": st.column_config.NumberColumn(
        "count", format="localized", help="How often the pair occurred when it was chosen"
    ),
    "merged": st.column_config.NumberColumn(
        "merged", format="localized", help="Occurrences replaced (fewer in runs such as aaa)"
    ),
    "length_after": st.column_config.NumberColumn(
        "corpus length after", format="localized", help="Tokens in the corpus after this merge"
    ),
    "ties": st.column_config.TextColumn(
        "tie", help="Pairs with the same count that lost: the earliest first occurrence wins"
    ),
}


def merge_log_table(run: Run, vocab_size: int) -> pd.DataFrame:
    """The searchable merge log up to the viewed vocab size; returns those rows."""
    symbols = bool(st.session_state[keys.TRAIN_BYTE_SYMBOLS])
    frame = log.merge_log_cached(run.key, symbols, run.tokenizer, run.history)
    frame = frame.iloc[: vocab_size - 256]
    st.markdown("**Merge log**")
    query = st.text_input(
        "Search the merge log",
        key=keys.TRAIN_LOG_QUERY,
        placeholder="A token's text (such as ing) or an id (such as 300)",
        persist_state="session",
    )
    rows = log.filter_log(frame, query)
    page = log_page(rows)
    st.dataframe(
        cells.cut_columns(page, LOG_TEXT_COLUMNS),  # a token can be the whole text
        hide_index=True,
        column_order=list(page.columns),
        column_config=LOG_CONFIG,
        height=420 if len(page) > 10 else "auto",
    )
    found = f"{len(rows):,} of " if query else ""
    shown = fmt.plural(len(frame), "merge")
    st.caption(f"Showing {found}{shown}, up to vocab size {vocab_size:,}.")
    if run.history is not None and any(step.ties for step in run.history.steps):
        st.caption(tie_rule_note(run.history.tie_rule))
    if cells.any_cut(page, LOG_TEXT_COLUMNS):
        st.caption(f"{cells.CUT_NOTE}; search finds them whole, and the CSV download has them.")
    return frame


def log_page(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of the merge log on screen: a page of LOG_PAGE_ROWS (a page picker when there
    are more), only the columns shown; the caller cuts each token to a cell's length
    (ui/views/cells.py), so the table stays a small message whatever the run."""
    pages = max(1, -(-len(rows) // LOG_PAGE_ROWS))
    number = 1
    if pages > 1:
        # subtle: a search or a smaller view can leave the kept page past the last
        kept = st.session_state.get(keys.TRAIN_LOG_PAGE, 1)
        if not isinstance(kept, int) or not 1 <= kept <= pages:
            st.session_state[keys.TRAIN_LOG_PAGE] = min(pages, max(1, int(kept or 1)))
        number = st.number_input(
            f"Page of the merge log (1 to {pages:,}, {LOG_PAGE_ROWS:,} merges each)",
            min_value=1,
            max_value=pages,
            step=1,
            key=keys.TRAIN_LOG_PAGE,
        )
        number = min(pages, max(1, int(number)))
    start = (number - 1) * LOG_PAGE_ROWS
    shown = rows.iloc[start : start + LOG_PAGE_ROWS]
    return shown[[c for c in log.LOG_COLUMNS if c in shown]]  # hidden helpers stay here


def downloads(run: Run, tokenizer: Tokenizer, frame: pd.DataFrame) -> None:
    """The merge log, the tokenizer in four formats and the history, side by side.

    A format that cannot hold the tokenizer is greyed out, and a caption says why.
    """
    stem = file_stem(run.spec)
    if tokenizer.vocab_size < run.tokenizer.vocab_size:
        stem += f"-at-{tokenizer.vocab_size}"
    problems = export.export_problems_cached(run.key, tokenizer.vocab_size, tokenizer)
    row = st.container(horizontal=True, gap="small")
    for file in export.download_files(tokenizer, stem, frame, run.history, problems):
        problem = problems.get(file.key, "")
        row.download_button(
            file.label,
            file.data,
            file.file_name,
            file.mime,
            key=f"train_download_{file.key}",
            on_click="ignore",
            icon=":material/download:",
            disabled=bool(problem),
            help=fmt.markdown_text(problem) or None,
        )
    for key, problem in problems.items():
        if problem:
            st.caption(f"No {export.EXPORT_NAMES[key]} download: {fmt.markdown_text(problem)}")


def results(run: Run) -> None:
    vocab_size = view_vocab_size(run)
    tokenizer = view_tokenizer(run)
    st.header(f"Tokenizer: {fmt.markdown_text(run.spec.name)}", divider="gray")
    st.toggle(
        "Show bytes as GPT-2 symbols (Ġ for a space, Ċ for a newline)",
        key=keys.TRAIN_BYTE_SYMBOLS,
        persist_state="session",
    )
    with guarded("What training did"):
        if run.history is None:
            model_metrics(run.spec, run.tokenizer)
        else:
            metrics(run.history, vocab_size)
            coverage_note(run.spec, run.history)
    with guarded("The training text in tokens"):
        preview(run, tokenizer, vocab_size)
    with guarded("The merge log and downloads"):
        frame = merge_log_table(run, vocab_size)
        downloads(run, tokenizer, frame)
