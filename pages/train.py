"""Train: choose a text and the settings, train byte-level BPE, then read every merge."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from explorer import MergeHistory, Tokenizer, tokens_to_html
from ui import downloads as export
from ui import formatting as fmt
from ui import links, progress
from ui import merge_log as log
from ui import state as keys
from ui import train_form as form
from ui import train_support as ts
from ui.run_spec import RunKind
from ui.runs import (
    MAX_APP_VOCAB_SIZE,
    MAX_RUNS,
    Run,
    RunSpec,
    add_run,
    current_run_or_error,
    current_spec,
    history_run_cached,
    imported_cached,
    origin,
    texts_of,
    train_spec,
    training_text_note,
    view_tokenizer,
    view_vocab_size,
)
from ui.samples import DEFAULT_SAMPLE, SAMPLES, sample_text
from ui.shell import run_page
from ui.token_view import encode_cached

SOURCES = {
    "sample": "Sample",
    "upload": "Upload files",
    "paste": "Paste text",
    "words": "Word counts",
}
EXAMPLES = {  # sample key -> (button, what it shows)
    "aaabdaaabac": ("aaabdaaabac", "3 merges: aa, aaa, aaab → [258, 100, 258, 97, 99]"),
    "hug_pug": ("hug / pug word counts", "The Hugging Face course: ug (20), un (16), hug (15)"),
    "this_is": ("This is some text", "GPT-2's pre-tokenizer, shown with its Ġ byte symbols"),
}
PREVIEW_CHARS = 2_000
PREVIEW_WORDS = 50
PREVIEW_HEIGHT = 240  # pixels: a long preview scrolls instead of pushing the log down
SHORT_PREVIEW = 120  # tokens shown whole, ids included


# --- inputs ------------------------------------------------------------------------------------


def init_form(spec: RunSpec) -> None:
    """Start the form from the current run when it is a sample (as the URL may have chosen)."""
    sample = links.sample_of(spec)
    pattern = spec.pattern if sample else SAMPLES[DEFAULT_SAMPLE].pattern
    choice, regex = form.pattern_choice(pattern)
    defaults: dict[str, Any] = {
        keys.TRAIN_SOURCE: "sample",
        keys.TRAIN_SAMPLE: sample.key if sample else DEFAULT_SAMPLE,
        keys.TRAIN_VOCAB: spec.vocab_size if sample else SAMPLES[DEFAULT_SAMPLE].vocab_size,
        keys.TRAIN_PATTERN: choice,
        keys.TRAIN_REGEX: regex,
        keys.TRAIN_PASTE: "",
        keys.TRAIN_WORD_COUNTS: "",
        keys.TRAIN_SPECIALS: "",
        keys.TRAIN_MIN_COUNT: 1,
        keys.TRAIN_BYTE_SYMBOLS: sample is not None and sample.key == "this_is",
        keys.TRAIN_LOG_QUERY: "",
    }
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)


def use_sample_settings() -> None:
    """Choosing a sample brings the vocab size and pattern that show it off."""
    sample = SAMPLES[st.session_state[keys.TRAIN_SAMPLE]]
    st.session_state[keys.TRAIN_VOCAB] = sample.vocab_size
    choice, regex = form.pattern_choice(sample.pattern)
    st.session_state[keys.TRAIN_PATTERN] = choice
    if regex:
        st.session_state[keys.TRAIN_REGEX] = regex


def train_example(key: str) -> None:
    """A worked example: set the form to it and add its run (tiny, so it trains at once)."""
    state = st.session_state
    state[keys.TRAIN_SOURCE], state[keys.TRAIN_SAMPLE] = "sample", key
    use_sample_settings()
    state[keys.TRAIN_SPECIALS], state[keys.TRAIN_MIN_COUNT] = "", 1
    state[keys.TRAIN_BYTE_SYMBOLS] = key == "this_is"
    state[keys.TRAIN_LOG_QUERY] = ""
    sample = SAMPLES[key]
    corpus = form.sample_corpus(sample, sample_text(key))
    add_run(form.training_spec(corpus, sample.vocab_size, sample.pattern, (), 1), corpus.texts)


def worked_examples() -> None:
    st.markdown("**Worked examples**: one click trains them and shows the result below.")
    for column, (key, (label, caption)) in zip(st.columns(len(EXAMPLES)), EXAMPLES.items()):
        with column:
            st.button(
                label,
                key=f"{keys.TRAIN_EXAMPLE}_{key}",
                on_click=train_example,
                args=(key,),
                icon=":material/play_arrow:",
                width="stretch",
            )
            st.caption(caption)


def text_source() -> None:
    """The radio that picks where the text comes from, and that source's input."""
    st.radio(
        "Text to train on",
        list(SOURCES),
        format_func=SOURCES.__getitem__,
        key=keys.TRAIN_SOURCE,
        horizontal=True,
        persist_state="session",
    )
    source = st.session_state[keys.TRAIN_SOURCE]
    if source == "sample":
        st.selectbox(
            "Sample",
            list(SAMPLES),
            format_func=lambda key: SAMPLES[key].title,
            key=keys.TRAIN_SAMPLE,
            on_change=use_sample_settings,
            persist_state="session",
        )
    elif source == "upload":
        st.file_uploader(
            "Text files (each file is one document)",
            accept_multiple_files=True,
            key=keys.TRAIN_UPLOAD,
            help=f"Any UTF-8 text, up to {st.get_option('server.maxUploadSize')} MB a file: "
            "plain text, Markdown, code, CSV, JSON…",
        )
    elif source == "paste":
        st.text_area(
            "Text",
            key=keys.TRAIN_PASTE,
            height=180,
            placeholder="Paste or type the text to train on…",
            persist_state="session",
        )
    else:
        st.text_area(
            "Word counts: one `word count` a line",
            key=keys.TRAIN_WORD_COUNTS,
            height=180,
            placeholder="hug 10\npug 5\npun 12\nbun 4\nhugs 5",
            persist_state="session",
        )


def settings() -> None:
    """Vocab size, pre-tokenizer, special tokens and the minimum pair count."""
    st.number_input(
        "Vocab size",
        step=100,
        key=keys.TRAIN_VOCAB,
        help=f"256 byte tokens plus one per merge: 256 to {MAX_APP_VOCAB_SIZE:,}.",
        persist_state="session",
    )
    words = is_word_counts()
    st.selectbox(
        "Pre-tokenizer",
        form.PATTERN_CHOICES,
        format_func=form.PATTERN_LABELS.__getitem__,
        key=keys.TRAIN_PATTERN,
        disabled=words,
        help="Splits the text into chunks first; merges never cross a chunk boundary. "
        "none is minbpe's BasicTokenizer; the others are tiktoken's exact patterns."
        + (" A word-count list needs none: each word is a chunk." if words else ""),
        persist_state="session",
    )
    if st.session_state[keys.TRAIN_PATTERN] == form.CUSTOM and not words:
        st.text_input(
            "Custom regex",
            key=keys.TRAIN_REGEX,
            placeholder=r"\w+|\s+|[^\w\s]+",
            persist_state="session",
        )
    st.text_input(
        "Special tokens",
        key=keys.TRAIN_SPECIALS,
        placeholder="<|endoftext|>, <|pad|>",
        help="Comma-separated. They are cut out of the text and never merged.",
        persist_state="session",
    )
    st.number_input(
        "Minimum pair count",
        min_value=1,
        step=1,
        key=keys.TRAIN_MIN_COUNT,
        help="Stop when the most frequent pair occurs fewer times than this.",
        persist_state="session",
    )


def is_word_counts() -> bool:
    state = st.session_state
    if state[keys.TRAIN_SOURCE] == "words":
        return True
    return state[keys.TRAIN_SOURCE] == "sample" and SAMPLES[state[keys.TRAIN_SAMPLE]].word_counts


def read_corpus() -> form.Corpus:
    """The text the form points at; raises InputError when there is none or it is unusable."""
    state = st.session_state
    source = state[keys.TRAIN_SOURCE]
    if source == "sample":
        sample = SAMPLES[state[keys.TRAIN_SAMPLE]]
        return form.sample_corpus(sample, sample_text(sample.key))
    if source == "upload":
        files = state.get(keys.TRAIN_UPLOAD) or []
        return form.upload_corpus((file.name, file.getvalue()) for file in files)
    if source == "paste":
        return form.pasted_corpus(state[keys.TRAIN_PASTE])
    return form.word_count_corpus(state[keys.TRAIN_WORD_COUNTS])


def requested_run() -> tuple[RunSpec, form.Corpus]:
    """The run the form describes, checked; raises ValueError saying what to fix."""
    state = st.session_state
    problem = form.vocab_size_problem(state[keys.TRAIN_VOCAB])
    if problem:
        raise form.InputError(problem)
    pattern = form.chosen_pattern(state[keys.TRAIN_PATTERN], state[keys.TRAIN_REGEX])
    corpus = read_corpus()
    specials = form.parse_special_tokens(state[keys.TRAIN_SPECIALS])
    spec = form.training_spec(
        corpus, int(state[keys.TRAIN_VOCAB]), pattern, specials, int(state[keys.TRAIN_MIN_COUNT])
    )
    return spec, corpus


def train_and_add(spec: RunSpec, texts: tuple[str, ...]) -> None:
    """Train (cached) with a progress bar, keep the run, and show it."""
    bar = st.progress(0.0, text="Counting chunks…")
    report = progress.progress_reporter(lambda fraction, text: bar.progress(fraction, text=text))
    try:
        train_spec(spec, texts, report)
    except ValueError as exc:  # the engine's errors say what to change
        bar.empty()
        st.error(f"Training stopped: {exc}")
        return
    add_run(spec, texts)
    st.rerun()


def train_form() -> None:
    """Worked examples, the text and settings, the Train button and the .model loader."""
    worked_examples()
    left, right = st.columns([3, 2], gap="large")
    with left:
        text_source()
    with right:
        settings()
    try:
        request = requested_run()
    except ValueError as exc:
        request = None
        if isinstance(exc, form.MissingInput):
            st.info(str(exc))
        else:
            st.error(fmt.sentence(str(exc)))
    else:
        left.caption(form.describe_corpus(request[1]))
    clicked = st.button(
        "Train",
        key=keys.TRAIN_GO,
        type="primary",
        icon=":material/model_training:",
        disabled=not request,
    )
    st.caption(
        f"The sidebar lists up to {MAX_RUNS} tokenizers; training another drops the oldest "
        "from the list. Each page's address opens its tokenizer again, even after a reload."
    )
    if clicked and request:
        train_and_add(request[0], request[1].texts)
    load_model_form()


def load_model() -> None:
    """The loader's callback: add the newly uploaded files as runs, or keep why they failed.

    Files already loaded stay in the uploader; only new ones are read, so a failed
    half of GPT-2's pair (or a history without its .model) is read again with the other
    half. A history uploaded after its .model finds it among the files already loaded.
    """
    state = st.session_state
    state.pop(keys.TRAIN_MODEL_ERROR, None)
    uploads = state.get(keys.TRAIN_MODEL_UPLOAD) or []
    done: frozenset[str] = state.get(keys.TRAIN_MODEL_LOADED, frozenset())
    new = [upload for upload in uploads if upload.file_id not in done]
    if not new:
        return
    try:
        loaded = ts.tokenizer_uploads(
            [(upload.name, upload.getvalue()) for upload in new],
            tiktoken_pattern=state.get(keys.TRAIN_TIKTOKEN_PATTERN, ts.AUTO),
            earlier=[(file.name, file.getvalue()) for file in uploads if file.file_id in done],
        )
    except ValueError as exc:  # the loaders' errors name the file and what is wrong
        state[keys.TRAIN_MODEL_ERROR] = str(exc)
        return
    for item in loaded:  # read once: keep what was parsed
        if item.spec.kind is RunKind.IMPORTED:
            imported_cached(item.spec.text_key, item.texts[0], item.tokenizer)
        if item.history is not None:
            history_run_cached(item.spec.text_key, *item.texts, (item.tokenizer, item.history))
        add_run(item.spec, item.texts)
    state[keys.TRAIN_MODEL_LOADED] = done | {upload.file_id for upload in new}


def load_model_form() -> None:
    with st.expander(
        "Load a saved tokenizer (.model with or without its history, tokenizer.json, "
        ".tiktoken, GPT-2's files)",
        expanded=keys.TRAIN_MODEL_ERROR in st.session_state,
    ):
        st.file_uploader(
            "A minbpe .model (such as one downloaded below) or merges JSON, with its "
            "history JSON to explore every step (`python -m explorer train` writes X.model "
            "and X.history.json: upload both); a Hugging Face tokenizer.json (byte-level "
            "BPE); a tiktoken .tiktoken file; or GPT-2's encoder.json and vocab.bpe, both "
            "at once",
            type=ts.LOADER_TYPES,
            accept_multiple_files=True,
            key=keys.TRAIN_MODEL_UPLOAD,
            on_change=load_model,
        )
        st.selectbox(
            "Pre-tokenizer for a .tiktoken file",
            ts.TIKTOKEN_PATTERNS,
            format_func=ts.TIKTOKEN_LABELS.__getitem__,
            key=keys.TRAIN_TIKTOKEN_PATTERN,
            help="A .tiktoken file lists only tokens and ranks, so choose the regex it was "
            "made with. OpenAI's own files are recognised, with their special tokens.",
            persist_state="session",
        )
        if keys.TRAIN_MODEL_ERROR in st.session_state:
            st.error(f"This file cannot be loaded: {st.session_state[keys.TRAIN_MODEL_ERROR]}")


# --- results -----------------------------------------------------------------------------------


MAX_LOG_ROWS = 10_000  # rows sent to the browser; search reaches every merge


def metrics(history: MergeHistory, vocab_size: int) -> None:
    """What training did, at the viewed vocab size, and why it stopped."""
    before, after = history.initial_length, history.length_at(vocab_size)
    shrink = (after - before) / before if before else 0.0
    values = [
        ("Merges learned", f"{len(history.steps):,}", None),
        ("Time taken", fmt.format_seconds(history.seconds), None),
        ("Corpus bytes", f"{history.corpus_bytes:,}", None),
        ("Tokens before", f"{before:,}", None),
        (f"Tokens at {vocab_size:,}", f"{after:,}", f"{shrink:.0%}"),
        ("Bytes per token", f"{before / after:.2f}" if after else "–", None),
    ]
    metric_row(values)
    reason = history.stop_reason.describe()
    if history.stop_reason.value == "vocab_size_reached":
        st.caption(f"Training stopped because {reason}.")
    else:
        st.warning(f"Training stopped early, after {len(history.steps):,} merges: {reason}.")


def model_metrics(spec: RunSpec, tokenizer: Tokenizer) -> None:
    """A loaded tokenizer has merges but no history: say so and show what there is."""
    st.info(
        f"This tokenizer was {origin(spec)}, so there is no merge history: no counts, "
        "timing or compression. Train on a text here to see those."
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
        text = texts[0][:PREVIEW_CHARS]
        ids = list(encode_cached(tokenizer, run.key, vocab_size, text).ids)
    except ValueError as exc:
        st.warning(f"The preview cannot be shown: {exc}")
        return
    symbols = st.session_state[keys.TRAIN_BYTE_SYMBOLS]
    with st.container(
        height=PREVIEW_HEIGHT if len(ids) > SHORT_PREVIEW else "content", border=False
    ):
        if symbols:
            st.html(ts.byte_symbol_html(tokenizer, ids))
        else:
            st.html(tokens_to_html(tokenizer, ids, visible_whitespace=True))
    whole = len(texts[0]) <= PREVIEW_CHARS
    shown = "The whole text" if whole else f"Its first {PREVIEW_CHARS:,} characters"
    st.caption(f"{shown}: {len(ids):,} tokens. Hover a token for its id and how it was made.")
    if len(ids) <= SHORT_PREVIEW:
        st.code(fmt.format_ids(ids), language=None, wrap_lines=True)
    else:
        with st.expander(f"Token ids ({len(ids):,})"):
            st.code(fmt.format_ids(ids), language=None, wrap_lines=True)


LOG_CONFIG = {
    "rank": st.column_config.NumberColumn("rank", format="%d", width="small"),
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
    st.dataframe(
        rows.head(MAX_LOG_ROWS),
        hide_index=True,
        column_order=[c for c in log.LOG_COLUMNS if c in rows],
        column_config=LOG_CONFIG,
        height=420 if len(rows) > 10 else "auto",
    )
    found = f"{len(rows):,} of " if query else ""
    st.caption(f"Showing {found}{len(frame):,} merges, up to vocab size {vocab_size:,}.")
    if len(rows) > MAX_LOG_ROWS:
        st.caption(
            f"The table lists the first {MAX_LOG_ROWS:,}; search to reach the others, or "
            "download the whole log as CSV."
        )
    return frame


def downloads(run: Run, tokenizer: Tokenizer, frame: pd.DataFrame) -> None:
    """The merge log, the tokenizer in four formats and the history, side by side.

    A format that cannot hold the tokenizer is greyed out, and a caption says why.
    """
    stem = export.file_stem(run.spec)
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
            help=problem or None,
        )
    for key, problem in problems.items():
        if problem:
            st.caption(f"No {export.EXPORT_NAMES[key]} download: {problem}")


def results(run: Run) -> None:
    vocab_size = view_vocab_size(run)
    tokenizer = view_tokenizer(run)
    st.subheader(f"Tokenizer: {fmt.markdown_text(run.spec.name)}", divider="gray")
    st.toggle(
        "Show bytes as GPT-2 symbols (Ġ for a space, Ċ for a newline)",
        key=keys.TRAIN_BYTE_SYMBOLS,
        persist_state="session",
    )
    if run.history is None:
        model_metrics(run.spec, run.tokenizer)
    else:
        metrics(run.history, vocab_size)
    preview(run, tokenizer, vocab_size)
    frame = merge_log_table(run, vocab_size)
    downloads(run, tokenizer, frame)


def main() -> None:
    st.title("Train a tokenizer")
    st.caption(
        "Byte-level BPE starts from the 256 bytes and, again and again, merges the most frequent "
        "pair of neighbouring tokens into a new token. Pick a text and a vocab size, train, "
        "and read every merge below."
    )
    run = current_run_or_error()
    init_form(run.spec if run is not None else current_spec())
    train_form()  # shown even when the current run is broken, so another can be trained
    if run is not None:
        results(run)


run_page(main)  # main inside the app's shell, even as a fresh server's first request
