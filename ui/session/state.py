"""Every session-state key the app uses, and the one rule for state that follows a run.

Widget keys are prefixed by page (`train_`, `animate_`, `tokens_`, `vocab_`,
`compare_`), shared keys by `sidebar_`; the rest hold a session's runs. Tests drive
widgets by these same strings, as a user would find them.

When the sidebar's tokenizer changes, a page's state that came from the old run starts
again from the new run's defaults (unless the user typed it), through `follow_run`. A
text box's run and "typed" flag are named from its key by `owner_key` and `edited_key`
(`compare_text_run`, `compare_passage_edited`), not listed here a second time:

    >>> state = {}
    >>> [follow_run(state, VOCAB_TOKEN_RUN, run) for run in ("A", "A", "B")]
    [True, False, True]
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar, overload

T = TypeVar("T")


class State(Protocol):
    """What the app reads and writes of a session's state: `st.session_state`, or a plain
    dict in a test. (Streamlit's SessionStateProxy is a MutableMapping of `str | int`
    keys, so `MutableMapping[str, Any]` does not describe it; this protocol does both.)

    >>> def seen(state: State) -> bool:
    ...     return state.setdefault("seen", 0) > 0
    >>> seen({"seen": 2}), seen({})
    (True, False)
    """

    def __getitem__(self, key: str, /) -> Any: ...
    def __setitem__(self, key: str, value: Any, /) -> None: ...
    def __delitem__(self, key: str, /) -> None: ...
    def __contains__(self, key: object, /) -> bool: ...
    @overload
    def get(self, key: str, /) -> Any: ...
    @overload
    def get(self, key: str, default: Any, /) -> Any: ...
    def setdefault(self, key: str, default: Any, /) -> Any: ...
    @overload
    def pop(self, key: str, /) -> Any: ...
    @overload
    def pop(self, key: str, default: Any, /) -> Any: ...


# --- the session's runs (ui/session/runs.py) --------------------------------------------------
RUNS = "runs"  # dict[name, RunSpec], oldest first
TEXTS = "texts"  # dict[text key, tuple of documents]
PENDING_RUN = "pending_run"  # a run to make current at the start of the next rerun
# what opening a link has to say: typed values, read and written by ui/session/links/notices.py
LINK_NOTES = "link_notes"  # a LinkNotes: the link's values left out or lowered, for its run
LINK_NOTICE = "link_notice"  # a RunNotFound: the link's run is not on this server
LINK_PATTERN_NOTICE = "link_pattern_notice"  # a PatternNotUsed: the link's pattern, refused
LINK_VIEW = "link_view"  # the view size a link asked for, until the sidebar uses it
LINK_RETRAIN = "link_retrain"  # the notice's button
HUB_LINK_SEEN = "hub_link_seen"  # the URL's hub= already opened (ui/session/opening.py)
MAX_LINK_TEXT = 300  # a page's text goes into its link up to this many characters

# --- the sidebar (ui/shell.py) --------------------------------------------------------
SIDEBAR_RUN = "sidebar_run"  # the tokenizer every page shows
SIDEBAR_VIEW_SIZE = "sidebar_view_size"  # "view at vocab size", shared by every page
SIDEBAR_VIEW_RUN = "sidebar_view_run"  # the run the view size belongs to
SIDEBAR_VIEW_SIZE_BOX = "sidebar_view_size_box"  # a number box beside the slider (a copy)
SIDEBAR_PRESENT = "sidebar_present"  # the presenter view (ui/views/present.py), also ?present=1

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
TRAIN_TIE_RULE = "train_tie_rule"  # "first-occurrence" or "lowest-ids" (ui/train/tie_rule_form.py)
TRAIN_HOLDOUT = "train_holdout"  # hold out a share of the corpus (ui/train/holdout.py)
TRAIN_HOLDOUT_PERCENT = "train_holdout_percent"
TRAIN_GO = "train_go"
TRAIN_LOG_QUERY = "train_log_query"
TRAIN_LOG_PAGE = "train_log_page"  # the merge log's page on screen (ui/train/results.py)
TRAIN_BYTE_SYMBOLS = "train_byte_symbols"
TRAIN_MODEL_UPLOAD = "train_model_upload"
TRAIN_TIKTOKEN_PATTERN = "train_tiktoken_pattern"
TRAIN_RANK_REGEX = "train_rank_regex"  # a rank file's pattern, as a regex
TRAIN_RANK_SPECIALS = "train_rank_specials"  # a rank file's special tokens, TOKEN=ID lines
TRAIN_MODEL_ERROR = "train_model_error"  # why the last tokenizer upload failed
TRAIN_MODEL_LOADED = "train_model_loaded"  # file ids already loaded from the uploader
TRAIN_HUB_NAME = "train_hub_name"  # the box that takes a Hub model's name (ui/train/hub_box.py)
TRAIN_HUB_OPEN = "train_hub_open"  # its Open button
TRAIN_HUB_ERROR = "train_hub_error"  # why the last Hub model did not open: (name, sentence)

# --- Animate merges (ui/animate/animation.py) -------------------------------------------------
ANIMATE_STEP = "animate_step"  # the step slider (bound to the URL)
ANIMATE_STEP_RUN = "animate_step_run"  # the run the step belongs to: a new run starts at 0
ANIMATE_PLAYING = "animate_playing"  # the play flag: an input, not a widget
ANIMATE_POSITION = "animate_position"  # the step on screen while playing
ANIMATE_SPEED = "animate_speed"  # steps per second
ANIMATE_PLAY = "animate_play"
ANIMATE_BACK = "animate_back"
ANIMATE_NEXT = "animate_next"
ANIMATE_PASSAGE = "animate_passage"
ANIMATE_PASSAGE_EDITED = "animate_passage_edited"  # the user typed their own passage
ANIMATE_RESET = "animate_reset"
ANIMATE_IDS = "animate_ids"
ANIMATE_CONTROLS = "animate_controls"  # the row of step controls (a container)
ANIMATE_OPTIONS = "animate_options"  # the popover with speed and token ids
ANIMATE_STAGE = "animate_stage"  # the merge, narration and passage (a container)
ANIMATE_CARDS = "animate_cards"  # the stage's token cards, hidden (a container)
ANIMATE_STEP_VIEW = "animate_step_view"  # the step's fragment (st.fragment key)
ANIMATE_MODEL_STEP = "animate_model_step"  # a real model's replay: the step slider
ANIMATE_MODEL_PLAY = "animate_model_play"  # and its Play toggle
ANIMATE_LESSON_STEPS = (
    "animate_lesson_steps"  # merges in the lesson file (ui/animate/lesson/download.py)
)
ANIMATE_LESSON_DOWNLOAD = "animate_lesson_download"
ANIMATE_STEP_ROW = "animate_step_row"  # the stage and the pair panel beside it (a container)
ANIMATE_PAIRS = "animate_pairs"  # the pair table or the quiz beside the stage (a container)
ANIMATE_PAIRS_TOP = "animate_pairs_top"  # how many pairs the table lists
ANIMATE_PAIRS_FOLD = "animate_pairs_fold"  # the presenter view's folded pair table
ANIMATE_QUIZ = "animate_quiz"  # the "Predict the next merge" toggle (ui/animate/quiz/questions.py)
ANIMATE_QUIZ_PICK = "animate_quiz_pick"  # the pair the learner picks (an option's index)
ANIMATE_QUIZ_REVEAL = "animate_quiz_reveal"
ANIMATE_QUIZ_RESET = "animate_quiz_reset"
ANIMATE_QUIZ_QUESTION = "animate_quiz_question"  # the question on screen (a quiz.Question)
ANIMATE_QUIZ_OUTCOME = "animate_quiz_outcome"  # the last answer revealed (a quiz.Outcome)
ANIMATE_QUIZ_SCORE = "animate_quiz_score"  # this session's score (a quiz.Score)

# --- A class (ui/classroom/): widgets prefixed class_; the URL carries class= and seat= ----
# typed, through ui/classroom/session.py's accessors (teaching, taken_seat and their setters)
CLASS_TEACHER = "class_teacher"  # a Teaching: the class this session teaches (never in a URL)
CLASS_SEAT = "class_seat"  # a ui.classroom.model.Seat: this session is a student of a class
CLASS_SEEN = "class_seen"  # the class version this session last drew
CLASS_RUN = "class_run"  # the name of the class's run in this student's session
CLASS_PLACE = "class_place"  # the teacher's place this student last followed (a Place)
CLASS_FOLLOWED = "class_followed"  # the ClassView this student's last whole run followed
CLASS_STEP_FRAGMENT = "class_step_fragment"  # the page's step fragment a follow may rerun alone
CLASS_ECHOES = "class_echoes"  # (page, step) the class set on this student's page lately
CLASS_SLID = "class_slid"  # the page whose step slider the browser moved in this run
CLASS_AWAY = "class_away"  # the student stepped away: their own step, until "Back to the class"
CLASS_NOTICE = "class_notice"  # why joining or teaching failed, shown once
CLASS_START = "class_start"  # the teacher's "Start a class" button (sidebar)
CLASS_END = "class_end"
CLASS_TAKE_BACK = "class_take_back"  # the teacher key typed after a restart
CLASS_TAKE_BACK_GO = "class_take_back_go"
CLASS_CODE = "class_code"  # the student's "Class code" box (sidebar)
CLASS_NICKNAME = "class_nickname"
CLASS_JOIN = "class_join"
CLASS_LEAVE = "class_leave"
CLASS_RENAME = "class_rename"  # a joined student's nickname box (the banner's popover)
CLASS_STEP_AWAY = "class_step_away"
CLASS_BACK = "class_back"
CLASS_CARD = "class_card"  # the join code, link and QR (a container)
CLASS_ASK = "class_ask"  # the teacher opens a question at the step on screen
CLASS_CHART = "class_chart"  # the teacher shows the distribution before the reveal
CLASS_REVEAL = "class_reveal"
CLASS_SCORES = "class_scores"  # the teacher shows the class's scores to everyone
CLASS_ANSWER = "class_answer"  # a student's pick (an option's index)
CLASS_SEND = "class_send"  # a student sends the pick
CLASS_ANSWER_OF = "class_answer_of"  # the question number the pick belongs to
CLASS_ANSWERED = "class_answered"  # (question number, option) this student sent
CLASS_REMOVE_PICK = "class_remove_pick"  # the seat the teacher picked in the class's list
CLASS_REMOVE = "class_remove"  # the teacher removes that seat, its answers and score
RUN_VEILS = "run_veils"  # {run store key: merges shown} while a class's question is open
VIEW_SIZE_BEFORE_VEIL = "view_size_before_veil"  # the view size a veil lowered, given back

# --- Tokens (text area and menu: ui/token_view.text_with_menu, prefix "tokens") --------
TOKENS = "tokens"  # prefix of tokens_text and tokens_load
TOKENS_TEXT = "tokens_text"
TOKENS_TEXT_RUN = "tokens_text_run"  # the run whose default the text is (see owner_key)
TOKENS_TEXT_EDITED = "tokens_text_edited"  # the user typed or chose a text of their own
TOKENS_COLOR_BY = "tokens_color_by"
TOKENS_COLORBLIND = "tokens_colorblind"
TOKENS_SHOW_IDS = "tokens_show_ids"
TOKENS_WHITESPACE = "tokens_whitespace"
TOKENS_ID_SEPARATOR = "tokens_id_separator"
# Tokens, encode step by step (ui/tokens/encode_steps.py); in the URL as encode= and encode_step=
TOKENS_ENCODE_OPEN = "tokens_encode_open"  # the section's expander (open: it runs)
TOKENS_ENCODE_TEXT = "tokens_encode_text"  # the word or short text traced
TOKENS_ENCODE_EDITED = "tokens_encode_edited"  # typed or picked: it no longer follows the text
TOKENS_ENCODE_PICK = "tokens_encode_pick"  # the menu of the page text's words
TOKENS_ENCODE_PLACE = "tokens_encode_place"  # step, trace, playing: ui/session/encode_place.py
TOKENS_ENCODE_SPEED = "tokens_encode_speed"  # steps per second
TOKENS_ENCODE_PLAY = "tokens_encode_play"
TOKENS_ENCODE_BACK = "tokens_encode_back"
TOKENS_ENCODE_NEXT = "tokens_encode_next"
TOKENS_ENCODE_RESTART = "tokens_encode_restart"
TOKENS_ENCODE_STAGE = "tokens_encode_stage"  # the chunk, candidates and narration (a container)
TOKENS_ENCODE_VIEW = "tokens_encode_view"  # the trace's step fragment (st.fragment key)
# a real model's encode step by step (ui/tokens/model_steps.py)
TOKENS_MODEL_STEPS_OPEN = "tokens_model_steps_open"  # its expander
TOKENS_MODEL_STEPS_TEXT = "tokens_model_steps_text"  # the word or short text traced
TOKENS_MODEL_STEPS_EDITED = "tokens_model_steps_text_edited"  # typed: no longer follows the text
TOKENS_MODEL_STEP = "tokens_model_step"  # the step slider

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
# a real model's vocabulary (ui/vocabulary/model_vocabulary.py): filtered and paged on the server
VOCAB_MODEL_QUERY = "vocab_model_query"
VOCAB_MODEL_KIND = "vocab_model_kind"
VOCAB_MODEL_SORT = "vocab_model_sort"
VOCAB_MODEL_PAGE = "vocab_model_page"
VOCAB_MODEL_TOKEN = "vocab_model_token"  # the id whose lineage is shown
VOCAB_MODEL_CHECKUP = "vocab_model_checkup"  # the toggle that runs the check-up
VOCAB_CHECKUP = "vocab_checkup"  # the section's container (the README's picture of it)
VOCAB_CHECKUP_LARGE = "vocab_checkup_large"  # checking a vocabulary over 60,000 tokens
VOCAB_CHECKUP_CSV = "vocab_checkup_csv"  # a prefix: one download button per check-up kind

# --- Compare (its text: text_with_menu, prefix "compare") ------------------------------
COMPARE = "compare"  # prefix of compare_text and compare_load
COMPARE_SECTION = "compare_section"  # the open tab (ui/compare/sections.py), bound to the URL
COMPARE_COLOR_BY = "compare_color_by"
COMPARE_PASSAGE = "compare_passage"
COMPARE_SIZES = "compare_sizes"
COMPARE_LEFT = "compare_left"
COMPARE_RIGHT = "compare_right"
COMPARE_TAX_CSV = "compare_tax_csv"  # the token tax table's download (ui/compare/languages.py)
FRONT_PLAYING = "front_playing"  # the front door's example plays (ui/front/door.py)
FRONT_STEP = "front_step"  # the example's step on screen
FRONT_GPT4O = "front_gpt4o"  # the door that opens GPT-4o's vocabulary on Tokens
FRONT_HUB = "front_hub"  # the front door's Hub name box
FRONT_HUB_FORM = "front_hub_form"
COMPARE_MODELS = "compare_models"  # the tokenizers compared (ui/compare/models/section.py)
COMPARE_MODELS_METRIC = "compare_models_metric"  # bytes per token, tokens per word, premium
COMPARE_MODELS_PASSAGE = "compare_models_passage"  # the side-by-side passage
COMPARE_MODELS_SIDES = "compare_models_sides"  # which of them are side by side (two to four)
COMPARE_PAIR_A = "compare_pair_a"  # two tokenizers, merge by merge (ui/compare/pair/section.py)
COMPARE_PAIR_B = "compare_pair_b"
COMPARE_PAIR_RUN = "compare_pair_run"  # the sidebar run A followed: a new one becomes A
COMPARE_PAIR_EXAMPLE = "compare_pair_example"  # trains the run again with none (or gpt4)
COMPARE_PAIR_FULL = "compare_pair_full"  # OpenAI's vocabularies in full, not cut to the other
COMPARE_ONLY_A_QUERY = "compare_only_a_query"  # the filters of the merges only one learned
COMPARE_ONLY_B_QUERY = "compare_only_b_query"
# every run on one chart, and the metrics (ui/compare/overlay/)
COMPARE_OVERLAY = "compare_overlay"  # the section's container (tests, screenshots)
COMPARE_OVERLAY_RESULTS = "compare_overlay_results"  # the chart and its sentence
COMPARE_OVERLAY_RUNS = "compare_overlay_runs"  # the tokenizers drawn together, by name
COMPARE_OVERLAY_RUNS_OF = "compare_overlay_runs_of"  # the sidebar run they were last given
COMPARE_OVERLAY_SOURCE = "compare_overlay_source"  # where the evaluation text comes from
COMPARE_OVERLAY_TEXT = "compare_overlay_text"  # the user's own evaluation text
COMPARE_OVERLAY_UPLOAD = "compare_overlay_upload"
COMPARE_OVERLAY_HELDOUT = "compare_overlay_heldout"  # the run whose held-out share is read
COMPARE_OVERLAY_LANGUAGE = "compare_overlay_language"
COMPARE_OVERLAY_SAMPLE = "compare_overlay_sample"
COMPARE_OVERLAY_METRIC = "compare_overlay_metric"
COMPARE_OVERLAY_SIZES = "compare_overlay_sizes"  # the table's vocab sizes
COMPARE_OVERLAY_CSV = "compare_overlay_csv"
COMPARE_OVERLAY_EXAMPLE = "compare_overlay_example"  # trains the sample with four patterns
COMPARE_OVERLAY_PENDING = "compare_overlay_pending"  # choices the example sets next run
COMPARE_FAIRNESS_CSV = "compare_fairness_csv"  # the UDHR premium and Gini table's download


def owner_key(text_key: str) -> str:
    """The key naming the run a text box's default came from: `tokens_text_run`."""
    return f"{text_key}_run"


def edited_key(text_key: str) -> str:
    """The key saying the user typed a text box's text: `tokens_text_edited`."""
    return f"{text_key}_edited"


def follow_run(state: State, owner_key: str, run_name: str) -> bool:
    """Whether state kept under `owner_key` belonged to another run (or to none) until now.

    It records `run_name` as the owner, so it answers True once per change of run; the
    caller then resets what belonged to the old run.
    """
    if state.get(owner_key) == run_name:
        return False
    state[owner_key] = run_name
    return True


def held_as(state: State, key: str, kind: type[T]) -> T | None:
    """The typed value kept under `key`, or None when there is none or another kind (a
    session from before the value was typed, say): the one read every typed accessor makes.

    >>> held_as({"seen": 3}, "seen", int), held_as({"seen": "3"}, "seen", int)
    (3, None)
    """
    held = state.get(key)
    return held if isinstance(held, kind) else None
