"""Train: choose a text and the settings, train byte-level BPE, then read every merge."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui.session import links
from ui.session import state as keys
from ui.session import train_inputs as form
from ui.session.runs import (
    MAX_APP_VOCAB_SIZE,
    MAX_RUNS,
    RunSpec,
    add_run,
    current_run_or_error,
    current_spec,
    train_spec,
)
from ui.session.samples import DEFAULT_SAMPLE, SAMPLES, sample_text
from ui.shell import run_page
from ui.train import holdout as train_holdout
from ui.train import progress
from ui.train import results as train_results
from ui.train import tie_rule_form as ties
from ui.train import tokenizer_files as ts
from ui.views import formatting as fmt

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
        keys.TRAIN_TIE_RULE: spec.tie_rule.value if sample else ties.DEFAULT_TIE_RULE_NAME,
        keys.TRAIN_HOLDOUT: bool(sample and spec.holdout_percent),
        keys.TRAIN_HOLDOUT_PERCENT: spec.holdout_percent or train_holdout.DEFAULT_PERCENT,
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


def train_example(key: str, tie_rule: str = ties.DEFAULT_TIE_RULE_NAME) -> None:
    """A worked example: set the form to it and add its run (tiny, so it trains at once)."""
    state = st.session_state
    state[keys.TRAIN_SOURCE], state[keys.TRAIN_SAMPLE] = "sample", key
    use_sample_settings()
    state[keys.TRAIN_SPECIALS], state[keys.TRAIN_MIN_COUNT] = "", 1
    state[keys.TRAIN_TIE_RULE] = tie_rule
    state[keys.TRAIN_HOLDOUT] = False  # the example trains on all of its few bytes
    state[keys.TRAIN_BYTE_SYMBOLS] = key == "this_is"
    state[keys.TRAIN_LOG_QUERY] = ""
    sample = SAMPLES[key]
    corpus = form.sample_corpus(sample, sample_text(key))
    spec = form.training_spec(corpus, sample.vocab_size, sample.pattern, (), 1, tie_rule)
    add_run(spec, corpus.texts)


def worked_examples() -> None:
    st.markdown("**Worked examples**: one click trains them and shows the result below.")
    textbook = ties.TEXTBOOK_EXAMPLE
    buttons = [(key, key, ties.DEFAULT_TIE_RULE_NAME, *shown) for key, shown in EXAMPLES.items()]
    buttons.append(
        (textbook.key, textbook.sample, textbook.tie_rule.value, textbook.label, textbook.caption)
    )
    for column, (key, sample, rule, label, caption) in zip(st.columns(len(buttons)), buttons):
        with column:
            st.button(
                label,
                key=f"{keys.TRAIN_EXAMPLE}_{key}",
                on_click=train_example,
                args=(sample, rule),
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
    """Vocab size, pre-tokenizer, special tokens, the minimum pair count and the tie rule."""
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
    st.selectbox(
        "Tie rule",
        ties.TIE_RULE_CHOICES,
        format_func=ties.TIE_RULE_LABELS.__getitem__,
        key=keys.TRAIN_TIE_RULE,
        help=ties.TIE_RULE_HELP,
        persist_state="session",
    )
    train_holdout.holdout_controls(words)


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
    held_out = train_holdout.chosen_percent(corpus)
    train_holdout.check_holdout(corpus, held_out)
    spec = form.training_spec(
        corpus,
        int(state[keys.TRAIN_VOCAB]),
        pattern,
        specials,
        int(state[keys.TRAIN_MIN_COUNT]),
        state[keys.TRAIN_TIE_RULE],
        holdout_percent=held_out,
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
        held_out = train_holdout.check_holdout(request[1], request[0].holdout_percent)
        if held_out:
            left.caption(held_out)
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
    ts.load_model_form()


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
        train_results.results(run)


run_page(main)  # main inside the app's shell, even as a fresh server's first request
