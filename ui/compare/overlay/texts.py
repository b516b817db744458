"""The one text every run of the overlay is measured on: the user's (typed or a file up to
MAX_TEXT_BYTES), a run's held-out share, a UDHR language or a bundled sample.

    >>> text = EvalText.of("a sample", "héllo")
    >>> text.bytes, text.digest[:8], len(text.digest)
    (6, '3c48591d', 16)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st

from explorer.analysis.compression.stats import byte_length
from explorer.training.holdout import HoldoutError
from ui.session import state as keys
from ui.session.holdout_split import split_of
from ui.session.run_spec import RunSpec
from ui.session.runs import run_specs, texts_of
from ui.session.samples import DEFAULT_SAMPLE, SAMPLES, UDHR_LANGUAGES, sample_text, udhr_texts
from ui.session.train_inputs import TEXT_UPLOAD_MB, InputError, decode_upload
from ui.views.formatting import markdown_text
from ui.views.token_view import fmt_int

MAX_TEXT_BYTES = TEXT_UPLOAD_MB * 1024 * 1024  # as much as the uploader takes
YOURS, HELD_OUT, UDHR, SAMPLE = "yours", "heldout", "udhr", "sample"
TEXT_SOURCES = {  # keyed by UDHR, SAMPLE, HELD_OUT, YOURS
    "udhr": "A UDHR language",
    "sample": "A bundled sample",
    "heldout": "A run's held-out share",
    "yours": "Your text or file",
}
DEFAULT_LANGUAGE = "English"


@dataclass(frozen=True)
class EvalText:
    """A text to measure runs on, what sentences call it, and a digest to cache results on."""

    name: str
    text: str
    digest: str

    @classmethod
    def of(cls, name: str, text: str) -> EvalText:
        data = text.encode("utf-8", "surrogatepass")
        return cls(name, text, hashlib.sha256(data).hexdigest()[:16])

    @property
    def bytes(self) -> int:
        return byte_length(self.text)


def too_long(size: int, limit: int | None = None) -> str:
    """Why a text of `size` bytes is refused ("" when it is not).

    >>> too_long(30 * 1024 * 1024)[:60]
    'This text is 31,457,280 bytes (30.0 MB); the comparison read'
    """
    limit = MAX_TEXT_BYTES if limit is None else limit
    if size <= limit:
        return ""
    return (
        f"This text is {size:,} bytes ({size / 2**20:.1f} MB); the comparison reads at most "
        f"{limit // 2**20} MB ({limit:,} bytes). Use a part of it, or a shorter file."
    )


def heldout_specs() -> list[RunSpec]:
    """The session's runs that hold a share of their corpus out, newest first."""
    specs = [s for s in run_specs() if s.kind.has_corpus and s.holdout_percent]
    return specs[::-1]


def heldout_text(spec: RunSpec) -> EvalText:
    """The held-out share of a run's corpus, its pieces put back in order (each ends at a
    newline or a document's end, so they join without a separator); ValueError if none."""
    texts = texts_of(spec)
    if not texts:
        raise HoldoutError(f"the corpus of {spec.name!r} is no longer in this session")
    split = split_of(spec, texts)
    if split is None:
        raise HoldoutError(f"{spec.name!r} trained on all of its text")
    name = f"the held-out {spec.holdout_percent} % of {spec.source}"
    return EvalText.of(name, "".join(split.heldout_texts()))


def eval_text_input() -> EvalText | None:
    """The source radio and that source's input; None (after saying why) when there is
    no usable text."""
    source = st.radio(
        "Measure every run on",
        list(TEXT_SOURCES),
        format_func=TEXT_SOURCES.__getitem__,
        horizontal=True,
        key=keys.COMPARE_OVERLAY_SOURCE,
        persist_state="session",
        help="One text for every run: compare tokenizers on the same bytes.",
    )
    if source == UDHR:
        language = st.selectbox(
            "Language",
            list(UDHR_LANGUAGES.values()),
            key=keys.COMPARE_OVERLAY_LANGUAGE,
            persist_state="session",
        )
        return EvalText.of(f"the UDHR in {language}", udhr_texts()[language])
    if source == SAMPLE:
        key = st.selectbox(
            "Sample",
            list(SAMPLES),
            index=list(SAMPLES).index(DEFAULT_SAMPLE),
            format_func=lambda k: SAMPLES[k].title,
            key=keys.COMPARE_OVERLAY_SAMPLE,
            persist_state="session",
        )
        return EvalText.of(SAMPLES[key].title, sample_text(key))
    if source == HELD_OUT:
        return _heldout_input()
    return _your_text_input()


def _heldout_input() -> EvalText | None:
    specs = {spec.name: spec for spec in heldout_specs()}
    if not specs:
        st.info(
            "No tokenizer of this session holds text out. Train one on the Train page with "
            "“Hold out text the tokenizer does not see”, or click the example below, which does."
        )
        return None
    name = st.selectbox(
        "The held-out share of",
        list(specs),
        key=keys.COMPARE_OVERLAY_HELDOUT,
        persist_state="session",
    )
    try:
        return heldout_text(specs[name])
    except HoldoutError as exc:
        st.error(f"That held-out text cannot be read: {markdown_text(str(exc))}.")
        return None


def _your_text_input() -> EvalText | None:
    upload = st.file_uploader(
        "A text file (it takes the place of the box below)",
        type=None,
        key=keys.COMPARE_OVERLAY_UPLOAD,
        max_upload_size=TEXT_UPLOAD_MB,
        help=f"Any UTF-8 text up to {MAX_TEXT_BYTES // 2**20} MB.",  # the uploader's limit
    )
    if upload is not None:
        data = upload.getvalue()
        problem = too_long(len(data))
        if problem:
            st.error(problem)
            return None
        try:
            return EvalText.of(upload.name, decode_upload(upload.name, data))
        except InputError as exc:
            st.error(markdown_text(str(exc)))
            return None
    text = st.text_area(
        "Your text",
        key=keys.COMPARE_OVERLAY_TEXT,
        persist_state="session",
        height=120,
        placeholder="Paste a text to measure every run on…",
    )
    if not text:
        st.info("Type or paste a text above (or upload a file) to measure the runs on it.")
        return None
    problem = too_long(byte_length(text))
    if problem:
        st.error(problem)
        return None
    return EvalText.of(f"your text ({fmt_int(byte_length(text))} bytes)", text)
