"""Open any tokenizer file: our own formats as our Tokenizer, a real model's as a LoadedModel.

The one way in for the app and the command line. `explorer.files.loading` reads our own
formats (merge k makes id 255 + k, steps numbered as in training); this module sits
above it and sends each file the right way:

- ours, read by `explorer.files.loading` as today: a minbpe `.model` (its first line says
  "minbpe v1"), a merges JSON, a merge history with its .model, GPT-2's encoder.json and
  vocab.bpe, a `.tiktoken` file today's reader reads exactly (OpenAI's own, known by
  SHA-256, and our exports), and a tokenizer.json that today's reader reads exactly
  (our exports read back);
- a real model's, read by `explorer.models.reading.read_model` with its own ids, merge
  ranks and normalizer: every other tokenizer.json (with the tokenizer_config.json that
  comes with it), every other rank file (whatever its name: Llama 3's is
  `tokenizer.model`), and Mistral's tekken JSON.

A rank file holds no pattern and no special tokens; `RankSettings` carries what the user
gives for one nobody knows (`--pattern`, `--special` on the command line; two fields in
the app).

    >>> parse_specials(["<|begin_of_text|>=128000", "a=b=7"])
    {'<|begin_of_text|>': 128000, 'a=b': 7}
    >>> is_tokenizer_config("models/tokenizer_config.json", "{}")
    True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from explorer.encoding.pretokenize import resolve_pattern
from explorer.encoding.tokenizer import Tokenizer
from explorer.files.errors import FormatError
from explorer.files.file_kinds import FileKind, detect_file_kind
from explorer.files.formats import decode_utf8
from explorer.files.json_text import load_json
from explorer.files.limits import check_file_size, read_id
from explorer.files.loading import AUTO, LoadedTokenizer, load_tokenizer_file, load_uploads
from explorer.models.model import LoadedModel

CONFIG_NAME = "tokenizer_config.json"
OURS, MODEL, TRY = "ours", "model", "try"  # the ways a file goes (see `route`)
# a tokenizer_config.json without that name is told by its keys (it has no "model")
_CONFIG_KEYS = ("added_tokens_decoder", "tokenizer_class", "chat_template")
_SNIFF_CONFIG_CHARS = 4 << 20  # a config is small (Gemma 3's: 1.1 MB); a tokenizer.json is not


@dataclass(frozen=True)
class RankSettings:
    """What a rank file nobody knows needs: its pattern (a preset name or a regex; AUTO:
    the file's own, the known-files table's, or the name's guess) and special tokens."""

    pattern: str = AUTO
    special_tokens: Mapping[str, int] = field(default_factory=dict)

    @property
    def model_pattern(self) -> str:
        """The pattern as the model readers take it: "" for AUTO, else a regex."""
        return "" if self.pattern == AUTO else resolve_pattern(self.pattern)


@dataclass(frozen=True)
class OpenedModel:
    """A real model read from files, and what reads it again.

    `files` are the names read (the tokenizer file, then its tokenizer_config.json);
    `texts` their texts in the same order; `settings` what the user gave for a rank file.
    """

    model: LoadedModel
    files: tuple[str, ...]
    texts: tuple[str, ...]
    settings: RankSettings = RankSettings()

    @property
    def source(self) -> str:
        """The files, as people would name them: "tokenizer.json + tokenizer_config.json"."""
        return " + ".join(self.files)


Opened = LoadedTokenizer | OpenedModel


def open_uploads(
    files: Sequence[tuple[str, bytes]],
    *,
    settings: RankSettings = RankSettings(),
    earlier: Sequence[tuple[str, bytes]] = (),
) -> list[Opened]:
    """The tokenizers in files given as (name, bytes), each read the way it needs.

    Our own formats come first, as `explorer.files.loading.load_uploads` gives them;
    then the real models, one per file, a tokenizer.json with the tokenizer_config.json
    uploaded with it. Raises the first file's FormatError, which names the file.
    """
    for name, data in files:
        check_file_size(len(data), name)
        if not data:  # before its kind is told: an empty file has none
            raise FormatError(f"{name} is empty: choose a file with some text in it.")
    texts = [(name, decode_utf8(data, name)) for name, data in files]
    configs = [(name, text) for name, text in texts if is_tokenizer_config(name, text)]
    rest = [(name, text) for name, text in texts if (name, text) not in configs]
    ours: list[tuple[str, bytes]] = []
    models: list[tuple[str, str, FileKind, str]] = []
    for name, text in rest:
        kind = detect_file_kind(name, text)
        way = route(name, text, kind, settings, with_config=bool(configs))
        if way == OURS:
            ours.append((name, text.encode("utf-8")))
        else:
            models.append((name, text, kind, way))
    partners = _partners([(name, text, kind) for name, text, kind, _ in models], configs)
    opened: list[Opened] = []
    if ours:
        opened += load_uploads(ours, tiktoken_pattern=settings.pattern, earlier=earlier)
    for name, text, kind, way in models:
        config = partners.get(name)
        if way == TRY:
            opened.append(open_tried(name, text, kind, config, settings))
        else:
            opened.append(open_model(name, text, config, settings))
    return sorted(opened, key=_upload_order([name for name, _ in rest]))


def _upload_order(names: list[str]) -> Callable[[Opened], tuple[int, int]]:
    """The order `load_uploads` promises, kept with the files tried apart: the tokenizers
    of one file each in upload order, then each .model with its history, then GPT-2's
    pair, then the real models in upload order."""

    def key(item: Opened) -> tuple[int, int]:
        place = names.index(item.files[0]) if item.files[0] in names else len(names)
        if isinstance(item, OpenedModel):
            return 3, place
        if item.history is not None:
            return 1, 0  # sorted() is stable: load_uploads's own order
        return (2, 0) if item.kind is FileKind.ENCODER_JSON else (0, place)

    return key


def open_file(path: str | Path, *, settings: RankSettings = RankSettings()) -> Tokenizer | Opened:
    """The tokenizer in one file: our Tokenizer, or an OpenedModel for a real model's file.

    A tokenizer.json takes the tokenizer_config.json in the same folder as its partner;
    GPT-2's encoder.json finds its vocab.bpe there (`load_tokenizer_file`).
    """
    path = Path(path)
    check_file_size(path.stat().st_size, str(path))
    text = decode_utf8(path.read_bytes(), str(path))
    if is_tokenizer_config(path.name, text):
        raise FormatError(
            f"{path} is a tokenizer_config.json, which goes with a tokenizer.json: give the "
            "tokenizer.json beside it (its config is read with it)"
        )
    kind = detect_file_kind(path.name, text)
    config = path.parent / CONFIG_NAME
    config_text = None
    if kind is FileKind.TOKENIZER_JSON and config.is_file() and config != path:
        check_file_size(config.stat().st_size, str(config))
        config_text = (str(config), decode_utf8(config.read_bytes(), str(config)))
    way = route(path.name, text, kind, settings, with_config=config_text is not None)
    if way == OURS:  # GPT-2's encoder.json finds its vocab.bpe in the folder
        return load_tokenizer_file(path, tiktoken_pattern=settings.pattern)
    if way == TRY:
        return open_tried(str(path), text, kind, config_text, settings)
    return open_model(str(path), text, config_text, settings)


def open_tried(
    name: str, text: str, kind: FileKind, config: tuple[str, str] | None, settings: RankSettings
) -> Opened:
    """A file today's reader may read exactly, read our way when it does.

    A tokenizer.json is read as a model first (today's reader took seconds to refuse
    Llama 3's), and again today's way only when its numbering is ours (`in_merge_order`);
    a .tiktoken is tried today's way first (OpenAI's own and our exports).
    """
    if kind is not FileKind.TOKENIZER_JSON:
        return read_today(name, text, settings) or open_model(name, text, config, settings)
    try:
        opened = open_model(name, text, config, settings)
    except FormatError:
        loaded = read_today(name, text, settings)
        if loaded is None:
            raise  # the model reader's sentence: it reads more than today's
        return loaded
    if not in_merge_order(opened.model):
        return opened
    return read_today(name, text, settings) or opened


def in_merge_order(model: LoadedModel) -> bool:
    """Whether a model's numbering is ours: byte-level, no normalizer, the 256 bytes at ids
    0-255 and merge rank r making id 256 + r (then ids and steps tell one story)."""
    if model.base != "bytes" or model.normalizer:
        return False
    if any(merge.result != 256 + merge.rank for merge in model.merges):
        return False
    return all(len(model.token_bytes(i)) == 1 for i in range(256) if i in model.tokens)


def open_model(
    name: str, text: str, config: tuple[str, str] | None, settings: RankSettings
) -> OpenedModel:
    """A real model's file (and its tokenizer_config.json) read by the model readers."""
    from explorer.models.reading import read_model  # tokenizers and tiktoken: when needed

    model = read_model(
        name,
        text.encode("utf-8"),
        config_text=None if config is None else config[1],
        pattern=settings.model_pattern,
        special_tokens=dict(settings.special_tokens) or None,
    )
    files = (name,) if config is None else (name, config[0])
    texts = (text,) if config is None else (text, config[1])
    return OpenedModel(model, files, texts, settings)


def route(
    name: str, text: str, kind: FileKind, settings: RankSettings, *, with_config: bool = False
) -> str:
    """Which way a file goes: OURS, MODEL, or TRY (ours if today's reader reads it).

    A .model is ours (a rank file named .model, as Llama 3's, is a TIKTOKEN by its first
    line, `explorer.files.file_kinds`); a rank file is tried when it is named .tiktoken
    and the user gave no special tokens (OpenAI's own are known by SHA-256, our exports
    read back); a tokenizer.json is tried when no tokenizer_config.json comes with it. A
    tekken JSON is a model's.

    >>> route("a.model", "minbpe v1\\n", FileKind.MODEL, RankSettings())
    'ours'
    >>> route("tokenizer.model", "IQ== 0\\n", FileKind.TIKTOKEN, RankSettings())
    'model'
    """
    if kind is FileKind.TEKKEN:
        return MODEL
    if kind is FileKind.MODEL:  # a rank file named .model is told TIKTOKEN by its first line
        return OURS
    if kind is FileKind.TIKTOKEN:
        named = name.casefold().endswith(".tiktoken")
        return TRY if named and not settings.special_tokens else MODEL
    if kind is FileKind.TOKENIZER_JSON:
        return MODEL if with_config else TRY
    return OURS


def read_today(name: str, text: str, settings: RankSettings) -> LoadedTokenizer | None:
    """The file as today's reader reads it, or None when it refuses (it refuses what it
    cannot read exactly: a normalizer, ids out of merge order, ...)."""
    try:
        (loaded,) = load_uploads([(name, text.encode("utf-8"))], tiktoken_pattern=settings.pattern)
    except FormatError:
        return None
    return loaded


def is_tokenizer_config(name: str, text: str) -> bool:
    """Whether a file is a tokenizer_config.json: by its name, else by its keys.

    >>> is_tokenizer_config("cfg.json", '{"tokenizer_class": "LlamaTokenizer"}')
    True
    >>> is_tokenizer_config("tokenizer.json", '{"model": {"type": "BPE"}}')
    False
    """
    if Path(name).name.casefold().endswith(CONFIG_NAME):
        return True
    if not name.casefold().endswith(".json") or len(text) > _SNIFF_CONFIG_CHARS:
        return False
    try:
        value = load_json(text, name)
    except FormatError:
        return False
    return (
        isinstance(value, dict)
        and "model" not in value
        and any(key in value for key in _CONFIG_KEYS)
    )


def _partners(
    models: Sequence[tuple[str, str, FileKind]], configs: Sequence[tuple[str, str]]
) -> dict[str, tuple[str, str]]:
    """Which tokenizer.json each uploaded tokenizer_config.json goes with (one with one)."""
    if not configs:
        return {}
    owners = [name for name, _, kind in models if kind is FileKind.TOKENIZER_JSON]
    if len(configs) == 1 and len(owners) == 1:
        return {owners[0]: configs[0]}
    names = ", ".join(name for name, _ in configs)
    if not owners:
        raise FormatError(
            f"{names}: a tokenizer_config.json goes with a tokenizer.json; upload the "
            "tokenizer.json together with it"
        )
    raise FormatError(
        f"{names}: which tokenizer.json does each tokenizer_config.json go with? Upload one "
        "tokenizer.json with its tokenizer_config.json at a time"
    )


def parse_specials(items: Iterable[str], where: str = "--special") -> dict[str, int]:
    """Special tokens given as `TOKEN=ID`, one an item (the last `=` ends the token).

    Blank items and lines starting with `#` are skipped.

    >>> parse_specials(["<s>=1", "", "# a comment", "</s> = 2"])
    {'<s>': 1, '</s>': 2}
    >>> parse_specials(["<s>"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.files.errors.FormatError: --special '<s>': write TOKEN=ID, as ...
    """
    specials: dict[str, int] = {}
    for item in items:
        if not item.strip() or item.lstrip().startswith("#"):
            continue
        token, equals, number = item.rpartition("=")
        token = token.strip()
        if not equals or not token:
            raise FormatError(f"{where} {item!r}: write TOKEN=ID, as '<|begin_of_text|>=128000'")
        specials[token] = read_id(number.strip(), f"{where} {item!r}: the id")
    return specials
