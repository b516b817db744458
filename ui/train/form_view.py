"""Train: the form's widgets: the worked-example buttons, the text source and the settings."""

from __future__ import annotations

import streamlit as st

from ui.session import state as keys
from ui.session import train_inputs as form
from ui.session.runs import MAX_APP_VOCAB_SIZE
from ui.session.samples import SAMPLES
from ui.session.train_inputs import TEXT_UPLOAD_MB
from ui.train import holdout as train_holdout
from ui.train import tie_rule_form as ties
from ui.train.form_state import train_example, use_sample_settings

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
            max_upload_size=TEXT_UPLOAD_MB,
            help=f"Any UTF-8 text, up to {TEXT_UPLOAD_MB} MB a file: "
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
