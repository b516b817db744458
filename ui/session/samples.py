"""The texts bundled in sample_texts/, with the settings each opens with.

>>> SAMPLES["aaabdaaabac"].title
'aaabdaaabac (the classic example)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_texts"


@dataclass(frozen=True)
class Sample:
    """A bundled text and the training settings that show it off."""

    key: str
    title: str
    filename: str
    vocab_size: int
    pattern: str
    word_counts: bool = False

    @property
    def path(self) -> Path:
        return SAMPLE_DIR / self.filename


SAMPLES: dict[str, Sample] = {
    s.key: s
    for s in [
        Sample(
            "shakespeare", "Shakespeare (English prose, 100 KB)", "shakespeare.txt", 2000, "gpt4"
        ),
        Sample(
            "udhr",
            "Human rights declaration in 26 languages",
            "udhr_26_languages.txt",
            2000,
            "gpt4",
        ),
        Sample(
            "soseki", "Sōseki, I Am a Cat (Japanese)", "soseki_i_am_a_cat_ja.txt", 2000, "o200k"
        ),
        Sample("python", "Python source code", "python_source.txt", 1000, "gpt4"),
        Sample("aaabdaaabac", "aaabdaaabac (the classic example)", "aaabdaaabac.txt", 259, "none"),
        Sample(
            "hug_pug",
            "hug / pug / pun / bun word counts",
            "hug_pug_word_counts.txt",
            259,
            "none",
            word_counts=True,
        ),
        Sample(
            "this_is",
            '"This is some text" (GPT-2 byte symbols)',
            "this_is_some_text.txt",
            280,
            "gpt2",
        ),
    ]
}
DEFAULT_SAMPLE = "shakespeare"


def sample_text(key: str) -> str:
    """The sample's text, byte for byte (no newline translation)."""
    return SAMPLES[key].path.read_bytes().decode("utf-8")


# The Universal Declaration of Human Rights, preamble and articles 1-5, one file a language
# (sample_texts/udhr/, see SOURCES.md), in the order of SOURCES.md: Latin and Cyrillic
# scripts first, then the others.
UDHR_DIR = SAMPLE_DIR / "udhr"
UDHR_LANGUAGES: dict[str, str] = {
    "en": "English",
    "fr": "French",
    "de": "German",
    "es": "Spanish",
    "ru": "Russian",
    "el": "Greek",
    "ar": "Arabic",
    "he": "Hebrew",
    "hi": "Hindi",
    "bn": "Bengali",
    "zh": "Chinese",
    "ja": "Japanese",
    "ko": "Korean",
    "th": "Thai",
    "vi": "Vietnamese",
    "tr": "Turkish",
    "sw": "Swahili",
    "am": "Amharic",
    "ka": "Georgian",
    "hy": "Armenian",
    "ta": "Tamil",
    "fa": "Persian",
    "te": "Telugu",
    "km": "Khmer",
    "my": "Burmese",
    "si": "Sinhala",
}


def udhr_texts() -> dict[str, str]:
    """Each language's UDHR text by its name, byte for byte: `udhr_texts()["English"]`."""
    return {
        name: (UDHR_DIR / f"{code}.txt").read_bytes().decode("utf-8")
        for code, name in UDHR_LANGUAGES.items()
    }


ENGLISH_UDHR = "the Universal Declaration of Human Rights in English (preamble and articles 1–5)"


def text_beside(training_texts: Sequence[str]) -> tuple[str, str]:
    """A bundled text to set beside a training corpus, and what to call it.

    One language, so its bytes per token read as "another text in English" rather than
    an average over scripts: the English UDHR, or Shakespeare for a corpus that holds it.

    >>> [name.split(" (")[0] for name, _ in (text_beside(()), text_beside((sample_text("udhr"),)))]
    ['the Universal Declaration of Human Rights in English', 'Shakespeare']
    """
    english = (UDHR_DIR / "en.txt").read_bytes().decode("utf-8")
    probe = english[9:200]  # past the heading "Preamble": the first sentence
    if not any(probe in text for text in training_texts):
        return ENGLISH_UDHR, english
    return SAMPLES[DEFAULT_SAMPLE].title, sample_text(DEFAULT_SAMPLE)
