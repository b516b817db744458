"""Every session-state key the app uses, and the one rule for state that follows a run.

Widget keys are prefixed by page (`train_`, `animate_`, `tokens_`, `vocab_`,
`compare_`), shared keys by `sidebar_`; the rest hold a session's runs. Tests drive
widgets by these same strings, as a user would find them.

When the sidebar's tokenizer changes, a page's state that came from the old run starts
again from the new run's defaults (unless the user typed it), through `follow_run`:

    >>> state = {}
    >>> [follow_run(state, VOCAB_TOKEN_RUN, run) for run in ("A", "A", "B")]
    [True, False, True]
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

# --- the session's runs (ui/runs.py) --------------------------------------------------
RUNS = "runs"  # dict[name, RunSpec], oldest first
TEXTS = "texts"  # dict[text key, tuple of documents]
PENDING_RUN = "pending_run"  # a run to make current at the start of the next rerun

# --- the sidebar (ui/shell.py) --------------------------------------------------------
SIDEBAR_RUN = "sidebar_run"  # the tokenizer every page shows
SIDEBAR_VIEW_SIZE = "sidebar_view_size"  # "view at vocab size", shared by every page
SIDEBAR_VIEW_RUN = "sidebar_view_run"  # the run the view size belongs to
SIDEBAR_PRESENT = "sidebar_present"  # the presenter view (ui/present.py), also ?present=1

# --- Train ----------------------------------------------------------------------------
TRAIN_EXAMPLE = "train_example"  # prefix of the worked examples' buttons: train_example_<key>
TRAIN_SOURCE = "train_source"  # sample, upload, paste or words
TRAIN_SAMPLE = "train_sample"
TRAIN_UPLOAD = "train_upload"
TRAIN_PASTE = "train_paste"
TRAIN_WORD_COUNTS = "train_word_counts"
TRAIN_VOCAB = "train_vocab"
TRAIN_PATTERN = "train_pattern"
TRAIN_REGEX = "train_regex"
TRAIN_SPECIALS = "train_specials"
TRAIN_MIN_COUNT = "train_min_count"
TRAIN_GO = "train_go"
TRAIN_LOG_QUERY = "train_log_query"
TRAIN_BYTE_SYMBOLS = "train_byte_symbols"
TRAIN_MODEL_UPLOAD = "train_model_upload"
TRAIN_TIKTOKEN_PATTERN = "train_tiktoken_pattern"
TRAIN_MODEL_ERROR = "train_model_error"  # why the last tokenizer upload failed
TRAIN_MODEL_LOADED = "train_model_loaded"  # file ids already loaded from the uploader

# --- Animate merges (ui/animation.py) -------------------------------------------------
ANIMATE_STEP = "animate_step"  # the step slider (bound to the URL)
ANIMATE_PLAYING = "animate_playing"  # the play flag: an input, not a widget
ANIMATE_POSITION = "animate_position"  # the step on screen while playing
ANIMATE_SPEED = "animate_speed"  # steps per second
ANIMATE_PLAY = "animate_play"
ANIMATE_BACK = "animate_back"
ANIMATE_NEXT = "animate_next"
ANIMATE_PASSAGE = "animate_passage"
ANIMATE_PASSAGE_EDITED = "animate_passage_edited"  # the user typed their own passage
ANIMATE_PASSAGE_RUN = "animate_passage_run"  # the run whose corpus the passage came from
ANIMATE_RESET = "animate_reset"
ANIMATE_IDS = "animate_ids"
ANIMATE_CONTROLS = "animate_controls"  # the row of step controls (a container)
ANIMATE_OPTIONS = "animate_options"  # the popover with speed and token ids
ANIMATE_STAGE = "animate_stage"  # the merge, narration and passage (a container)

# --- Tokens (text area and menu: ui/token_view.text_with_menu, prefix "tokens") --------
TOKENS = "tokens"  # prefix of tokens_text and tokens_load
TOKENS_COLOR_BY = "tokens_color_by"
TOKENS_COLORBLIND = "tokens_colorblind"
TOKENS_SHOW_IDS = "tokens_show_ids"
TOKENS_WHITESPACE = "tokens_whitespace"
TOKENS_ID_SEPARATOR = "tokens_id_separator"

# --- Vocabulary -----------------------------------------------------------------------
VOCAB_QUERY = "vocab_query"
VOCAB_FILTER = "vocab_filter"
VOCAB_SORT = "vocab_sort"
VOCAB_WORD_SPACE = "vocab_word_space"
VOCAB_TABLE = "vocab_table"
VOCAB_TOKEN = "vocab_token"
VOCAB_TOKEN_RUN = "vocab_token_run"  # the run the chosen token belongs to
VOCAB_VIEW_FULL = "vocab_view_full"
VOCAB_COUNT_DESCENDANTS = "vocab_count_descendants"

# --- Compare (its text: text_with_menu, prefix "compare") ------------------------------
COMPARE = "compare"  # prefix of compare_text and compare_load
COMPARE_COLOR_BY = "compare_color_by"
COMPARE_PASSAGE = "compare_passage"
COMPARE_SIZES = "compare_sizes"
COMPARE_LEFT = "compare_left"
COMPARE_RIGHT = "compare_right"


def follow_run(state: MutableMapping[str, Any], owner_key: str, run_name: str) -> bool:
    """Whether state kept under `owner_key` belonged to another run (or to none) until now.

    It records `run_name` as the owner, so it answers True once per change of run; the
    caller then resets what belonged to the old run.
    """
    if state.get(owner_key) == run_name:
        return False
    state[owner_key] = run_name
    return True
