"""Read a real model's tokenizer file, whichever of the three kinds it is, by its content.

A Hugging Face `tokenizer.json` goes to `explorer.models.hf_model`, a tiktoken rank file
(whatever its name: Llama 3's is `tokenizer.model`) and Mistral's tekken JSON to
`explorer.models.rank_model`. The size is checked before anything is parsed.

    >>> import base64
    >>> lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    >>> model = read_model("ranks.txt", "\\n".join(lines).encode(), pattern="gpt2")
    >>> model.file_kind, model.vocab_size, model.encode("hi")
    ('tiktoken ranks', 256, [104, 105])
"""

from __future__ import annotations

from collections.abc import Mapping

from explorer.files.errors import FormatError
from explorer.files.file_kinds import FileKind, detect_file_kind
from explorer.files.limits import check_file_size
from explorer.models.hf_model import read_tokenizer_json
from explorer.models.model import LoadedModel
from explorer.models.rank_model import read_rank_file, read_tekken

MODEL_KINDS = (FileKind.TOKENIZER_JSON, FileKind.TIKTOKEN, FileKind.TEKKEN)


def read_model(
    name: str,
    data: bytes,
    *,
    config_text: str | None = None,
    pattern: str = "",
    special_tokens: Mapping[str, int] | None = None,
) -> LoadedModel:
    """The model in a file's bytes; FormatError (one sentence, naming the file) if it is none.

    `config_text` is a tokenizer_config.json read beside a tokenizer.json; `pattern` and
    `special_tokens` are for a rank file nobody knows (see `explorer.models.known_files`).
    """
    check_file_size(len(data), name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(
            f"{name}: byte {exc.start:,} is not UTF-8; tokenizer files are text"
        ) from None
    kind = detect_file_kind(name, text)
    if kind is FileKind.TIKTOKEN:
        return read_rank_file(data, name=name, pattern=pattern, special_tokens=special_tokens)
    if kind is FileKind.TEKKEN:
        return read_tekken(text, name=name)
    if kind is FileKind.TOKENIZER_JSON:
        return read_tokenizer_json(text, name=name, config_text=config_text)
    raise FormatError(
        f"{name} is a {kind.value.replace('_', ' ')} file, which loads as a trained "
        "tokenizer; a model's file is a tokenizer.json, a tiktoken rank file or a tekken JSON"
    )
