"""Load any tokenizer file, whatever its format: the one way in for the app and the CLI.

A minbpe `.model` or merges JSON (with its merge history, when one comes with it), a
Hugging Face `tokenizer.json`, a tiktoken `.tiktoken`, or GPT-2's `encoder.json` and
`vocab.bpe` together. `explorer.files.file_kinds` tells the files apart and pairs them; the
parsers in `explorer.files.formats`, `explorer.files.imports` and `explorer.files.imports_hf`
read them.

    >>> from explorer.files.formats import model_text
    >>> [loaded] = load_uploads([("t.model", model_text(Tokenizer([(97, 97)])).encode())])
    >>> loaded.kind.value, loaded.source, loaded.tokenizer.merges
    ('model', 't.model', [(97, 97)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from explorer.encoding.pretokenize import PRESETS, resolve_pattern
from explorer.encoding.tokenizer import Tokenizer
from explorer.files.bundled import BUNDLED
from explorer.files.exports import tokenizer_json
from explorer.files.file_kinds import (
    GPT2_KINDS,
    MODEL_KINDS,
    FileKind,
    detect_file_kind,
    pair_histories,
)
from explorer.files.formats import (
    FormatError,
    decode_utf8,
    model_text,
    parse_merges_json,
    parse_model,
)
from explorer.files.history_file import HistoryFileError, parse_history_for
from explorer.files.imports import parse_gpt2, parse_tiktoken
from explorer.files.imports_hf import parse_tokenizer_json
from explorer.training.history import MergeHistory

AUTO = "auto"  # a .tiktoken file's pattern: OpenAI's own by sha256, else from the file name
_NAME_HINTS = (  # (in a .tiktoken file's name, its preset); the first found wins
    ("o200k", "o200k"),
    ("cl100k", "gpt4"),
    ("r50k", "gpt2"),
    ("p50k", "gpt2"),
    ("gpt2", "gpt2"),
)
GPT2_PARTNERS = {  # where the CLI looks for the other half of GPT-2's pair, in the same folder
    FileKind.ENCODER_JSON: ("vocab.bpe", "merges.txt"),
    FileKind.VOCAB_BPE: ("encoder.json", "vocab.json"),
}
Named = tuple[str, str, FileKind]  # a file's name, text and kind


@dataclass(frozen=True)
class LoadedTokenizer:
    """A tokenizer read from files, and its merge history when a .model came with one.

    `files` are the names read, the one that names the tokenizer first. `texts` read it
    again: a .model's text (a merges JSON becomes .model text), then its history's; for
    other formats, tokenizer.json text, which holds all of them.
    """

    tokenizer: Tokenizer
    kind: FileKind  # of files[0]
    files: tuple[str, ...]
    texts: tuple[str, ...]
    history: MergeHistory | None = None

    @property
    def source(self) -> str:
        """The files, as people would name them: "encoder.json + vocab.bpe"."""
        return " + ".join(self.files)


def load_uploads(
    files: Sequence[tuple[str, bytes]],
    *,
    tiktoken_pattern: str = AUTO,
    earlier: Sequence[tuple[str, bytes]] = (),
) -> list[LoadedTokenizer]:
    """The tokenizers in files given as (name, bytes): one per file, except that GPT-2's
    two files make one, and so do a .model and its history.

    `earlier` are files loaded before, where a history may find its .model (see
    `pair_histories`). A .tiktoken file holds no pattern: `tiktoken_pattern` names one
    (a preset or regex), or AUTO guesses it. Raises the first file's FormatError, which
    names the file (and the line or key at fault).
    """
    named = [(name, text, detect_file_kind(name, text)) for name, text in _decoded(files)]
    older = [(name, text, detect_file_kind(name, text)) for name, text in _decoded(earlier)]
    return _load_named(named, tiktoken_pattern, older)


def load_tokenizer_file(path: str | Path, *, tiktoken_pattern: str = AUTO) -> Tokenizer:
    """The tokenizer in a file of any format `load_uploads` reads.

    GPT-2's format is two files: given encoder.json (or vocab.json), vocab.bpe (or
    merges.txt) is read from the same folder, and the other way round. A merge history
    is not a tokenizer: give its .model.
    """
    path = Path(path)
    text = decode_utf8(path.read_bytes(), str(path))
    kind = detect_file_kind(path.name, text)
    if kind is FileKind.HISTORY_JSON:
        raise HistoryFileError(
            f"{path} is a merge history, not a tokenizer: give the .model it was trained with"
        )
    named: list[Named] = [(str(path), text, kind)]
    if kind in GPT2_KINDS:
        partner = _gpt2_partner(path, kind)
        partner_text = decode_utf8(partner.read_bytes(), str(partner))
        named.append((str(partner), partner_text, detect_file_kind(partner.name, partner_text)))
    return _load_named(named, tiktoken_pattern, [])[0].tokenizer


def parse_model_with_history(
    model_text: str,
    history_text: str,
    *,
    model_name: str = "the .model",
    history_name: str = "the history file",
) -> tuple[Tokenizer, MergeHistory]:
    """A tokenizer and its checked history, from the texts of big.model and big.history.json."""
    tokenizer = parse_model(model_text, source=model_name)
    history = parse_history_for(
        tokenizer, history_text, model_name=model_name, history_name=history_name
    )
    return tokenizer, history


def tiktoken_settings(name: str, text: str, choice: str = AUTO) -> tuple[str, dict[str, int]]:
    """The pattern and special tokens for a .tiktoken file, which holds neither.

    OpenAI's own files (by sha256) get their published special tokens, and with AUTO
    their pattern; otherwise AUTO goes by the name: `cl100k` → gpt4, `o200k` → o200k.

    >>> tiktoken_settings("my_o200k.tiktoken", "")[0] == PRESETS["o200k"]
    True
    """
    import hashlib  # here, not at the top: OpenSSL costs 3.6 MB to every import of explorer

    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    official = next((b for b in BUNDLED.values() if b.files[0][1] == digest), None)
    specials = dict(official.special_tokens) if official else {}
    if choice != AUTO:
        return resolve_pattern(choice), specials
    if official is not None:
        return official.pattern, specials
    lower = name.casefold()
    preset = next((preset for hint, preset in _NAME_HINTS if hint in lower), "gpt4")
    return PRESETS[preset], specials


def _decoded(files: Sequence[tuple[str, bytes]]) -> list[tuple[str, str]]:
    """Each file as text: strict UTF-8, newlines kept as they are."""
    for name, data in files:
        if not data:
            raise FormatError(f"{name} is empty: choose a file with some text in it.")
    return [(name, decode_utf8(data, name)) for name, data in files]


def _load_named(
    named: Sequence[Named], tiktoken_pattern: str, earlier: Sequence[Named]
) -> list[LoadedTokenizer]:
    """The tokenizers in files already told apart, in the order `load_uploads` promises."""
    with_history, paired = _models_with_histories(named, earlier)
    alone = [
        _load_file(name, text, kind, tiktoken_pattern)
        for name, text, kind in named
        if name not in paired and kind not in GPT2_KINDS and kind is not FileKind.HISTORY_JSON
    ]
    gpt2 = [item for item in named if item[2] in GPT2_KINDS]
    return alone + with_history + ([_load_gpt2(gpt2)] if gpt2 else [])


def _models_with_histories(
    named: Sequence[Named], earlier: Sequence[Named]
) -> tuple[list[LoadedTokenizer], set[str]]:
    """Each history with the .model it goes with (see pair_histories), and the names of
    those models, which are then not loaded alone as well."""
    histories = {name: text for name, text, kind in named if kind is FileKind.HISTORY_JSON}
    if not histories:
        return [], set()
    models = {name: (text, kind) for name, text, kind in named if kind in MODEL_KINDS}
    older = {
        name: (text, kind)
        for name, text, kind in earlier
        if kind in MODEL_KINDS and name not in models
    }
    owners = pair_histories(list(models), list(histories), list(older))
    files = older | models
    loaded = [
        _with_history(model, *files[model], history, histories[history])
        for history, model in owners.items()
    ]
    return loaded, set(owners.values())


def _with_history(
    model_name: str, text: str, kind: FileKind, history_name: str, history_text: str
) -> LoadedTokenizer:
    """A .model (or merges JSON) and its history; HistoryFileError if it is another's."""
    model = _load_model(model_name, text, kind)
    history = parse_history_for(
        model.tokenizer, history_text, model_name=model_name, history_name=history_name
    )
    files, texts = (model_name, history_name), (model.texts[0], history_text)
    return LoadedTokenizer(model.tokenizer, kind, files, texts, history)


def _load_file(name: str, text: str, kind: FileKind, tiktoken_pattern: str) -> LoadedTokenizer:
    """One file that is a tokenizer on its own."""
    if kind in MODEL_KINDS:
        return _load_model(name, text, kind)
    if kind is FileKind.TOKENIZER_JSON:
        return LoadedTokenizer(parse_tokenizer_json(text, source=name), kind, (name,), (text,))
    pattern, specials = tiktoken_settings(name, text, tiktoken_pattern)
    tokenizer = parse_tiktoken(text, pattern=pattern, special_tokens=specials, source=name)
    return LoadedTokenizer(tokenizer, kind, (name,), (tokenizer_json(tokenizer),))


def _load_model(name: str, text: str, kind: FileKind) -> LoadedTokenizer:
    """A .model, or a merges JSON (which holds no pattern, so it loads with none)."""
    if kind is FileKind.MERGES_JSON:
        try:
            tokenizer = parse_merges_json(text)
        except FormatError as exc:
            raise FormatError(f"{name}: {exc}") from None
        text = model_text(tokenizer)  # kept as .model text, as for a .model file
    else:
        tokenizer = parse_model(text, source=name)
    return LoadedTokenizer(tokenizer, kind, (name,), (text,))


def _load_gpt2(named: Sequence[Named]) -> LoadedTokenizer:
    """GPT-2's encoder.json and vocab.bpe, given together, as one tokenizer."""
    encoders = [(name, text) for name, text, kind in named if kind is FileKind.ENCODER_JSON]
    merges = [(name, text) for name, text, kind in named if kind is FileKind.VOCAB_BPE]
    if len(encoders) != 1 or len(merges) != 1:
        names = ", ".join(name for name, _, _ in named)
        raise FormatError(
            f"GPT-2's format is two files, encoder.json (token → id) and vocab.bpe (the "
            f"merges); upload one of each together (got {names})."
        )
    (encoder_name, encoder), (bpe_name, bpe) = encoders[0], merges[0]
    tokenizer = parse_gpt2(encoder, bpe, sources=(encoder_name, bpe_name))
    files = (encoder_name, bpe_name)
    return LoadedTokenizer(tokenizer, FileKind.ENCODER_JSON, files, (tokenizer_json(tokenizer),))


def _gpt2_partner(path: Path, kind: FileKind) -> Path:
    """The other half of GPT-2's pair, beside `path`."""
    for name in GPT2_PARTNERS[kind]:
        if (path.parent / name).is_file():
            return path.parent / name
    wanted = " or ".join(GPT2_PARTNERS[kind])
    raise FormatError(
        f"{path}: GPT-2's format is two files, encoder.json (token → id) and vocab.bpe (the "
        f"merges); put {wanted} in the same folder"
    )
