"""BPE Merge Explorer's engine: byte-level BPE that records every merge step.

Plain Python plus `regex`; it never imports streamlit, pandas or altair.

    >>> from explorer import train
    >>> train("aaabdaaabac", 259, pattern="none").tokenizer.encode("aaabdaaabac")
    [258, 100, 258, 97, 99]
"""

from explorer.history import MergeHistory, MergeStep, StopReason
from explorer.pretokenize import PRESETS, PatternError
from explorer.tokenizer import Encoding, SpecialTokenError, Tokenizer, TokenizerError
from explorer.train import TrainingError, TrainingResult, train, train_files, train_word_counts

__all__ = [
    "PRESETS",
    "Encoding",
    "MergeHistory",
    "MergeStep",
    "PatternError",
    "SpecialTokenError",
    "StopReason",
    "Tokenizer",
    "TokenizerError",
    "TrainingError",
    "TrainingResult",
    "train",
    "train_files",
    "train_word_counts",
]
