"""Helpers of the Train page: read its inputs, build the merge log, report progress.

No Streamlit calls here: plain functions over the engine and pandas, tested without a browser:

    >>> parse_special_tokens("<|endoftext|>, <|pad|>\\n<|pad|>")
    ('<|endoftext|>', '<|pad|>')
    >>> vocab_size_problem(255)
    'The vocab size must be at least 256, one token for each byte (got 255).'
"""

from __future__ import annotations

import contextvars
import html
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import pandas as pd
import regex

from explorer import FormatError, MergeHistory, Tokenizer
from explorer.corpus import CorpusError, parse_word_counts
from explorer.exports import tiktoken_text, tokenizer_json
from explorer.file_kinds import FILE_SUFFIXES, MODEL_KINDS
from explorer.formats import decode_utf8, model_text, vocab_text
from explorer.history_file import history_json
from explorer.loading import AUTO, LoadedTokenizer, load_uploads
from explorer.pretokenize import PRESETS, compile_pattern, preset_name, resolve_pattern
from explorer.render import render_token, token_colors
from ui.history_runs import HISTORY_KIND, loaded_source
from ui.runs import MAX_APP_VOCAB_SIZE, RunSpec, run_name, text_key
from ui.samples import SAMPLES, Sample

CUSTOM = "custom"
PATTERN_CHOICES = (*PRESETS, CUSTOM)
PATTERN_LABELS = {
    "none": "none: the text is one chunk",
    "gpt2": "gpt2: GPT-2's regex",
    "gpt4": "gpt4: GPT-4's regex (cl100k)",
    "o200k": "o200k: GPT-4o's regex",
    "words": "words: words and spaces apart",
    CUSTOM: "custom regex…",
}
# a word table's text in bytes bounds every count the pages show (pair counts, lengths,
# uses), and tables and charts hold those as 64-bit integers
MAX_WORD_TABLE_BYTES = 10**18
LOG_COLUMNS = ["rank", "id", "left", "right", "token", "count", "merged", "length_after", "ties"]


class InputError(ValueError):
    """Training input the page cannot use, with what to do instead."""


class MissingInput(InputError):
    """Nothing to train on yet: a hint rather than an error."""


@dataclass(frozen=True)
class Corpus:
    """What to train on: documents (or one word-count table) and a name for people."""

    source: str  # shown in the sidebar caption
    short: str  # used in the run's name
    texts: tuple[str, ...]
    kind: str = "text"  # "text" or "word_counts"


# --- inputs --------------------------------------------------------------------------------


def parse_special_tokens(text: str) -> tuple[str, ...]:
    """Special tokens from comma- or line-separated text, trimmed, without repeats."""
    pieces = (piece.strip() for line in text.splitlines() for piece in line.split(","))
    return tuple(dict.fromkeys(piece for piece in pieces if piece))


def vocab_size_problem(vocab_size: float | None) -> str:
    """Why a vocab size cannot be trained ("" when it can)."""
    if vocab_size is None or vocab_size != int(vocab_size):
        return "Enter the vocab size as a whole number, such as 1000."
    if vocab_size < 256:
        return (
            "The vocab size must be at least 256, one token for each byte "
            f"(got {int(vocab_size):,})."
        )
    if vocab_size > MAX_APP_VOCAB_SIZE:
        return (
            f"The app trains up to {MAX_APP_VOCAB_SIZE:,} tokens (got {int(vocab_size):,}); "
            "for more, use the command line: python -m explorer train."
        )
    return ""


def chosen_pattern(choice: str, custom_regex: str) -> str:
    """The pattern a run stores: a preset's name, or the custom regex (checked)."""
    if choice != CUSTOM:
        return choice
    if not custom_regex:
        raise InputError("Type a custom regex, or choose one of the presets.")
    compile_pattern(resolve_pattern(custom_regex))  # PatternError says what is wrong
    return custom_regex


def pattern_choice(pattern: str) -> tuple[str, str]:
    """The (choice, custom regex) that show a stored pattern: `("gpt4", "")` for "gpt4"."""
    if pattern in PRESETS:
        return pattern, ""
    name = preset_name(pattern)
    return (name, "") if name is not None else (CUSTOM, pattern)


def decode_upload(name: str, data: bytes) -> str:
    """An uploaded file as text: strict UTF-8, newlines kept as they are."""
    if not data:
        raise InputError(f"{name} is empty: choose a file with some text in it.")
    try:
        return decode_utf8(data, name)
    except FormatError as exc:
        raise InputError(str(exc)) from None


def upload_corpus(files: Iterable[tuple[str, bytes]]) -> Corpus:
    """Uploaded files as documents, one each; the first bad file stops everything."""
    named = [(name, decode_upload(name, data)) for name, data in files]
    if not named:
        raise MissingInput("Upload one or more text files (text, Markdown, code, CSV, JSON…).")
    first = named[0][0]
    short = first if len(named) == 1 else f"{first} + {len(named) - 1} more"
    return Corpus(short, short, tuple(text for _, text in named))


def sample_corpus(sample: Sample, text: str) -> Corpus:
    kind = "word_counts" if sample.word_counts else "text"
    return Corpus(sample.title, sample.title.split(" (")[0], (text,), kind)


def pasted_corpus(text: str) -> Corpus:
    if not text.strip():
        raise MissingInput("Paste some text to train on.")
    return Corpus("Pasted text", "Pasted text", (text,))


def word_count_corpus(table: str) -> Corpus:
    """A `word count` table, checked now so a typo is reported before training."""
    if not table.strip():
        raise MissingInput("Type one `word count` a line, such as `hug 10`.")
    try:
        words = parse_word_counts(table)
    except CorpusError as exc:
        raise InputError(f"The word list cannot be read: {exc}.") from None
    size = sum(count * len(word.encode("utf-8", "surrogatepass")) for word, count in words.items())
    if size > MAX_WORD_TABLE_BYTES:
        raise InputError(
            f"The word list stands for {size:,} bytes of text, more than the app can count "
            f"({MAX_WORD_TABLE_BYTES:,}). Make the counts smaller, for example by dividing "
            "them all by the same number."
        )
    return Corpus("Word counts", "Word counts", (table,), "word_counts")


# --- runs --------------------------------------------------------------------------------


def training_spec(
    corpus: Corpus,
    vocab_size: int,
    pattern: str,
    special_tokens: tuple[str, ...],
    min_count: int,
) -> RunSpec:
    """The run to add for these inputs (word counts have no pre-tokenizer)."""
    pattern = "none" if corpus.kind == "word_counts" else pattern
    return RunSpec(
        name=run_name(corpus.short, pattern, vocab_size),
        source=corpus.source,
        text_key=text_key(corpus.texts),
        vocab_size=vocab_size,
        pattern=pattern,
        special_tokens=special_tokens,
        min_count=min_count,
        kind=corpus.kind,
    )


# --- tokenizers made elsewhere: read by explorer.loading, kept here as runs ------------------

LOADER_TYPES = list(FILE_SUFFIXES)
TIKTOKEN_PATTERNS = (AUTO, "gpt4", "o200k", "gpt2", "none")
TIKTOKEN_LABELS = {
    AUTO: "From the file name (cl100k → gpt4, o200k → o200k, r50k / p50k → gpt2; else gpt4)",
    "gpt4": "gpt4: GPT-4's regex (cl100k)",
    "o200k": "o200k: GPT-4o's regex",
    "gpt2": "gpt2: GPT-2's regex",
    "none": "none: the text is one chunk",
}


@dataclass(frozen=True)
class Loaded:
    """A tokenizer read from files: its run, the run's documents, the tokenizer, and the
    merge history when a .model came with one."""

    spec: RunSpec
    texts: tuple[str, ...]
    tokenizer: Tokenizer
    history: MergeHistory | None = None


def tokenizer_uploads(
    files: Sequence[tuple[str, bytes]],
    *,
    tiktoken_pattern: str = AUTO,
    earlier: Sequence[tuple[str, bytes]] = (),
) -> list[Loaded]:
    """The runs of the tokenizers in uploaded files (see explorer.loading.load_uploads).

    A .model or merges JSON becomes a "model" run, or a "model_history" run when its
    history JSON comes with it; the rest become "imported" runs that keep tokenizer.json
    text. Raises the first file's FormatError, which names the file.
    """
    loaded = load_uploads(files, tiktoken_pattern=tiktoken_pattern, earlier=earlier)
    return [_as_run(item) for item in loaded]


def _as_run(item: LoadedTokenizer) -> Loaded:
    """A loaded tokenizer as a run that keeps its texts."""
    if item.history is not None:
        kind, source = HISTORY_KIND, loaded_source(*item.files)
    else:
        kind, source = ("model" if item.kind in MODEL_KINDS else "imported"), item.source
    tokenizer, named_by = item.tokenizer, item.files[0]
    pattern = preset_name(tokenizer.pattern) or tokenizer.pattern
    stem = named_by.rsplit(".", 1)[0].removesuffix(".tokenizer") or named_by  # x.tokenizer.json
    spec = RunSpec(
        name=run_name(stem, pattern, tokenizer.vocab_size),
        source=source,
        text_key=text_key(item.texts),
        vocab_size=tokenizer.vocab_size,
        pattern=pattern,
        special_tokens=tuple(tokenizer.special_tokens),
        kind=kind,
    )
    return Loaded(spec, item.texts, tokenizer, item.history)


# --- downloads -----------------------------------------------------------------------------

EAGER_EXPORT_MERGES = 60_000  # up to this, exports are tried before they are offered
EXPORT_NAMES = {"model": ".model", "tokenizer_json": "tokenizer.json", "tiktoken": ".tiktoken"}


@dataclass(frozen=True)
class Download:
    """One download button's file: data is text, or a function that makes it when clicked."""

    key: str  # the widget key's end: train_download_<key>
    label: str
    data: str | Callable[[], str]
    file_name: str
    mime: str = "text/plain"


def download_files(
    tokenizer: Tokenizer,
    stem: str,
    log: pd.DataFrame,
    history: MergeHistory | None,
    problems: dict[str, str],
) -> list[Download]:
    """The merge log, the tokenizer as .model, .vocab, tokenizer.json and .tiktoken, and the
    history when there is one; a format with a problem (see export_problems) has no data."""
    model = "" if problems.get("model") else model_text(tokenizer)  # cheap: made now
    files = [
        Download("csv", "Merge log (.csv)", lambda: log_csv(log), f"{stem}-merges.csv", "text/csv"),
        Download("model", "Tokenizer (.model)", model, f"{stem}.model"),
        Download("vocab", "Vocabulary (.vocab)", lambda: vocab_text(tokenizer), f"{stem}.vocab"),
        Download(
            "tokenizer_json",
            "Hugging Face (tokenizer.json)",
            lambda: tokenizer_json(tokenizer),
            f"{stem}.tokenizer.json",
            "application/json",
        ),
        Download(
            "tiktoken", "tiktoken (.tiktoken)", lambda: tiktoken_text(tokenizer), f"{stem}.tiktoken"
        ),
    ]
    if history is not None:
        files.append(
            Download(
                "json",
                "History (.json)",
                lambda: history_json(history),
                f"{stem}-history.json",
                "application/json",
            )
        )
    return files


def export_problems(tokenizer: Tokenizer) -> dict[str, str]:
    """Why each file format cannot hold the tokenizer ("" when it can), by format.

    Past EAGER_EXPORT_MERGES merges the tokenizer.json and .tiktoken exports are not
    tried here (a second or more each): they are made when clicked.

    >>> shuffled = Tokenizer([], byte_ids=[1, 0, *range(2, 256)])
    >>> export_problems(shuffled)["model"][:44]
    "this tokenizer numbers the bytes in GPT-2's "
    """
    writers: dict[str, Callable[[Tokenizer], str]] = {"model": model_text}
    if len(tokenizer.merges) <= EAGER_EXPORT_MERGES:
        writers |= {"tokenizer_json": tokenizer_json, "tiktoken": tiktoken_text}
    problems = dict.fromkeys(("model", "tokenizer_json", "tiktoken"), "")
    for fmt, write in writers.items():
        try:
            write(tokenizer)
        except FormatError as exc:
            problems[fmt] = str(exc)
    return problems


def sample_of(spec: RunSpec) -> Sample | None:
    """The bundled sample a run was trained on, if it was."""
    if spec.kind not in ("text", "word_counts"):
        return None
    return next((s for s in SAMPLES.values() if s.title == spec.source), None)


def url_params(spec: RunSpec) -> dict[str, str]:
    """What the URL should say for a run: only bundled samples can be shared by link."""
    sample = sample_of(spec)
    if sample is None:
        return {}
    return {"sample": sample.key, "vocab": str(spec.vocab_size), "pattern": spec.pattern}


# --- text for people ---------------------------------------------------------------------


def describe_corpus(corpus: Corpus) -> str:
    """A caption for the text about to be trained: `"1 document · 11 bytes"`."""
    size = sum(len(text.encode("utf-8", "surrogatepass")) for text in corpus.texts)
    if corpus.kind == "word_counts":
        words = parse_word_counts(corpus.texts[0])
        return f"{len(words):,} words · {sum(words.values()):,} occurrences"
    documents = len(corpus.texts)
    return f"{documents:,} document{'s' if documents != 1 else ''} · {size:,} bytes"


def format_seconds(seconds: float) -> str:
    """A duration for people: `format_seconds(0.0042) == "4 ms"`, `format_seconds(2.5)` is 2.5 s."""
    if seconds < 0.001:
        return "< 1 ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.1f} s" if seconds < 60 else f"{seconds / 60:.1f} min"


def file_stem(spec: RunSpec) -> str:
    """A file name for a run's downloads: `shakespeare-gpt4-2k`."""
    stem = regex.sub(r"[^\p{L}\p{N}]+", "-", spec.name.casefold()).strip("-")
    return stem[:60] or "tokenizer"


def sentence(message: str) -> str:
    """An engine message as a sentence: `sentence("invalid regex")` is "Invalid regex".

    A message that starts with a file name keeps it as it is:
    `sentence("notes.txt is empty")` is "notes.txt is empty".
    """
    first_word = message.split(" ", 1)[0]
    return message[:1].upper() + message[1:] if first_word.isalpha() else message


def markdown_text(text: str) -> str:
    """Text shown literally inside Markdown (a file name like my_notes_v2 stays as it is)."""
    return regex.sub(r"([\\`*_{}\[\]()#+\-.!|<>~$])", r"\\\1", text)


def format_ids(ids: list[int], limit: int = 300) -> str:
    """Token ids as a Python list, cut after `limit` with how many are left out."""
    if len(ids) <= limit:
        return str(ids)
    return f"{str(ids[:limit])[:-1]}, … ({len(ids) - limit:,} more)]"


# --- progress ------------------------------------------------------------------------------


def progress_reporter(
    show: Callable[[float, str], None], *, per_second: float = 20.0
) -> Callable[[str, int, int], None]:
    """A training progress callback that calls show(fraction, text) at most per_second times.

    The last merge is always shown, so the bar ends full.
    """
    last = [0.0]
    # subtle: training runs inside a cached function, and Streamlit records every element
    # call made there to replay it on a cache hit, where a bar made outside the function
    # no longer exists (CacheReplayClosureError). Showing progress in the caller's context
    # keeps these updates out of the recording.
    caller = contextvars.copy_context()

    def report(phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < 1 / per_second and done < total:
            return
        last[0] = now
        fraction = min(1.0, done / total) if total else 1.0
        if phase == "merging":
            text = f"Merging: {done:,} of {total:,} merges"
        else:
            text = f"Counting chunks: {done:,} of {total:,} bytes"
        caller.run(show, fraction, text)

    return report


# --- the merge log -------------------------------------------------------------------------


def show_token(data: bytes, byte_symbols: bool) -> str:
    """A token for a table cell: visible whitespace, or GPT-2's byte symbols (Ġ)."""
    if byte_symbols:
        return render_token(data, byte_symbols=True)
    return render_token(data, visible_whitespace=True)


def merge_log(
    tokenizer: Tokenizer, history: MergeHistory | None, *, byte_symbols: bool = False
) -> pd.DataFrame:
    """One row per merge, in rank order; without a history, only what the merges say.

    Hidden helper columns: left_id, right_id, text (the decoded token, for search), hex.
    """
    shown: dict[int, str] = {}

    def cell(token_id: int) -> str:
        if token_id not in shown:
            shown[token_id] = show_token(tokenizer.vocab[token_id], byte_symbols)
        return shown[token_id]

    columns: dict[str, list] = {name: [] for name in ("rank", "id", "left", "right", "token")}
    for rank, (left, right) in enumerate(tokenizer.merges):
        columns["rank"].append(rank)
        columns["id"].append(256 + rank)
        columns["left"].append(cell(left))
        columns["right"].append(cell(right))
        columns["token"].append(cell(256 + rank))
    if history is not None:
        steps = history.steps
        columns["count"] = [s.count for s in steps]
        columns["merged"] = [s.merged for s in steps]
        columns["length_after"] = [s.length_after for s in steps]
        columns["ties"] = [tie_mark([(cell(a), cell(b)) for a, b in s.ties]) for s in steps]
    frame = pd.DataFrame(columns)
    frame["left_id"] = [left for left, _ in tokenizer.merges]
    frame["right_id"] = [right for _, right in tokenizer.merges]
    tokens = [tokenizer.vocab[256 + rank] for rank in range(len(tokenizer.merges))]
    frame["text"] = [t.decode("utf-8", errors="replace") for t in tokens]
    frame["hex"] = [t.hex(" ") for t in tokens]
    return frame


def tie_mark(pairs: list[tuple[str, str]]) -> str:
    """The log's tie cell: `tie_mark([("t", "h")]) == "⚖ t + h"`; "" when nothing tied."""
    return "⚖ " + ", ".join(f"{a} + {b}" for a, b in pairs) if pairs else ""


def filter_log(frame: pd.DataFrame, query: str) -> pd.DataFrame:
    """Rows whose token contains the query (any case), or whose ids equal it if it is a number.

    >>> log = pd.DataFrame({"id": [256, 257], "left_id": [97, 256], "right_id": [97, 98],
    ...                     "token": ["aa", "aab"], "text": ["aa", "aab"]})
    >>> list(filter_log(log, "256")["id"]), list(filter_log(log, "AB")["id"])
    ([256, 257], [257])
    >>> list(filter_log(log, "²")["id"])
    []
    """
    if not query:
        return frame
    needle = query.casefold()
    found = frame["text"].str.casefold().str.contains(needle, regex=False)
    found |= frame["token"].str.casefold().str.contains(needle, regex=False)
    number_text = query.strip()
    if number_text.isascii() and number_text.isdigit():  # not "²", which int() refuses
        number = int(number_text)
        found |= (frame["id"] == number) | (frame["left_id"] == number)
        found |= frame["right_id"] == number
    return frame[found]


def log_csv(frame: pd.DataFrame) -> str:
    """The merge log as CSV, ids and bytes included, for a spreadsheet or a script."""
    order = ["rank", "id", "left_id", "right_id", "left", "right", "token", "hex"]
    order += [c for c in ("count", "merged", "length_after", "ties") if c in frame]
    return frame[order].to_csv(index=False)


# --- the tokenized preview -----------------------------------------------------------------


def byte_symbol_html(tokenizer: Tokenizer, ids: list[int]) -> str:
    """Tokens as GPT-2 byte-symbol chips (Ġ for a space), coloured like the Tokens page."""
    colors = token_colors(tokenizer, ids)
    chips = [
        f'<span style="background:{color}">'
        f"{html.escape(render_token(tokenizer.token_bytes(token), byte_symbols=True))}</span>"
        for token, color in zip(ids, colors)
    ]
    style = (
        "<style>.bpe-sym{font-family:ui-monospace,Menlo,Consolas,monospace;line-height:2.1;"
        "color:#1A1A1A;overflow-wrap:anywhere}.bpe-sym span{border-radius:3px;padding:1px 3px;"
        "margin-right:3px}</style>"
    )
    return f'{style}<div class="bpe-sym">{"".join(chips)}</div>'


def word_rows(
    tokenizer: Tokenizer, table: str, limit: int, *, byte_symbols: bool = False
) -> pd.DataFrame:
    """The first words of a word-count table with their counts and tokens."""
    words = list(parse_word_counts(table).items())[:limit]
    rows = []
    for word, count in words:
        ids = tokenizer.encode(word, disallowed_special=())
        shown = [show_token(tokenizer.token_bytes(i), byte_symbols) for i in ids]
        rows.append({"word": word, "count": count, "tokens": shown, "ids": str(ids)})
    return pd.DataFrame(rows, columns=["word", "count", "tokens", "ids"])
