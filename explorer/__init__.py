"""BPE Merge Explorer's engine: byte-level BPE that records every merge step.

Plain Python plus `regex`; it never imports streamlit, pandas or altair. This module is the
stable public face (`from explorer import train, Tokenizer, load_bundled, ...`); the work is
done in wings by role, each importing only the ones below it (pyproject.toml's import-linter
contracts check this):

    cli.py        the command line (`python -m explorer ...`)
    analysis/     lineage, statistics, bends, diffs, overlap, pair tables
    files/        every format in and out, file kinds, bundled vocabularies
    html/         tokens, cards and split views as escaped HTML
    training/     chunk counting, the learner, tie rules, the merge history
    encoding/     pre-tokenizers, the Tokenizer, merging, traces
    base/         argument checks and the helpers two wings share

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
