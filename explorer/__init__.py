"""BPE Merge Explorer's engine: byte-level BPE that records every merge step.

Plain Python plus `regex`; it never imports streamlit, pandas or altair.

    >>> from explorer import train
    >>> train("aaabdaaabac", 259, pattern="none").tokenizer.encode("aaabdaaabac")
    [258, 100, 258, 97, 99]
"""

from explorer.encoding.pretokenize import PRESETS, PatternError
from explorer.encoding.tokenizer import Encoding, SpecialTokenError, Tokenizer, TokenizerError
from explorer.files.bundled import BUNDLED_NAMES, BundledError, load_bundled
from explorer.files.formats import FormatError, load_model, parse_model, save_model
from explorer.files.history_file import load_history, parse_history_json, save_history
from explorer.html.render import render_token
from explorer.html.token_html import tokens_to_html
from explorer.training.corpus import CorpusError
from explorer.training.history import MergeHistory, MergeStep, StopReason
from explorer.training.train import (
    TrainingError,
    TrainingResult,
    train,
    train_files,
    train_word_counts,
)

__all__ = [
    "BUNDLED_NAMES",
    "PRESETS",
    "BundledError",
    "CorpusError",
    "Encoding",
    "FormatError",
    "MergeHistory",
    "MergeStep",
    "PatternError",
    "SpecialTokenError",
    "StopReason",
    "Tokenizer",
    "TokenizerError",
    "TrainingError",
    "TrainingResult",
    "load_bundled",
    "load_history",
    "load_model",
    "parse_history_json",
    "parse_model",
    "render_token",
    "save_history",
    "save_model",
    "tokens_to_html",
    "train",
    "train_files",
    "train_word_counts",
]
