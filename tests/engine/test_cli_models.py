"""Real models' files through the command line: ids and decode equal the reference library's.

`python -m explorer encode|decode|info|check|report` in a subprocess on each file of
../shared/reference/open-weight/ (skipped without it). The references, as SOURCES.md there
names them: `tokenizers` for a tokenizer.json (`add_special_tokens=False`), tiktoken for a
rank file (Llama 3's pattern from Meta's code), and mistral-common's numbering for tekken
(tiktoken on the ranks in use, each id + the number of special ids).
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import tiktoken
from tokenizers import Tokenizer as HfTokenizer

from explorer.encoding.pretokenize import PRESETS
from tests.conftest import shared_path

ROOT = Path(__file__).resolve().parents[2]
# Whitespace runs, digits, emoji sequences (ZWJ, flags, skin tone), combining marks, text NFC
# and NFKC change, right-to-left and CJK text, a character Gemma and Llama 2 lack.
TEXT = (
    "Hello, world! The quick brown fox   jumps\tover 12345 lazy dogs.\r\n\n\n"
    "Ça va? café cafe\u0301 ﬁne Ａ１ 한국어 日本語の文章 مرحبا بالعالم\n"
    "👩‍👩‍👧 🇫🇷 👍🏽 e\u0301\u0302 x\u20dd    \u3000 line\u2028sep 3.14159 1,000,000\n"
    "def f(x):\n    return x ** 2  # ok\n\U0001d11e \U00010348 \x00\x1f done"
)
LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+"
    r"[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
TOKENIZER_JSONS = ["llama3", "qwen3", "deepseek_v3", "gemma3", "llama2"]


def run(*args: str | Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "explorer", *map(str, args)],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=600,  # Gemma 3's 33 MB on a busy 2-core machine
    )


def cli_ids(model: Path, text: str, *extra: str) -> list[int]:
    done = run("encode", model, *extra, stdin=text.encode("utf-8"))
    assert done.returncode == 0, done.stderr.decode()
    return [int(word) for word in done.stdout.split()]


def cli_text(model: Path, ids: list[int]) -> str:
    done = run("decode", model, stdin=" ".join(map(str, ids)).encode())
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode("utf-8")


def llama3_ranks(path: Path) -> tiktoken.Encoding:
    ranks = {
        base64.b64decode(token): int(rank)
        for token, rank in (line.split() for line in path.read_text().splitlines() if line)
    }
    return tiktoken.Encoding(
        "llama3", pat_str=LLAMA3_PATTERN, mergeable_ranks=ranks, special_tokens={}
    )


def tekken_reference(path: Path) -> Callable[[str], list[int]]:
    """mistral-common's numbering: tiktoken on the ranks in use, each id + the special ids."""
    data = json.loads(path.read_text("utf-8"))
    config = data["config"]
    specials = config["default_num_special_tokens"]
    used = config["default_vocab_size"] - specials
    ranks = {base64.b64decode(item["token_bytes"]): item["rank"] for item in data["vocab"][:used]}
    encoding = tiktoken.Encoding(
        "tekken", pat_str=config["pattern"], mergeable_ranks=ranks, special_tokens={}
    )
    return lambda text: [i + specials for i in encoding.encode(text, disallowed_special=())]


@pytest.mark.parametrize("folder", TOKENIZER_JSONS)
def test_a_tokenizer_json_encodes_and_decodes_as_tokenizers_does(folder: str) -> None:
    path = shared_path("reference", "open-weight", folder, "tokenizer.json")
    reference = HfTokenizer.from_file(str(path))
    ids = cli_ids(path, TEXT)
    assert ids == reference.encode(TEXT, add_special_tokens=False).ids
    assert cli_text(path, ids) == reference.decode(ids, skip_special_tokens=False)


def test_the_post_processor_adds_bos_only_when_asked() -> None:
    path = shared_path("reference", "open-weight", "llama2", "tokenizer.json")
    reference = HfTokenizer.from_file(str(path))  # its TemplateProcessing puts <s> first
    with_bos = cli_ids(path, "Hello", "--add-special-tokens")
    assert with_bos == reference.encode("Hello", add_special_tokens=True).ids
    assert with_bos[0] == 1 and cli_ids(path, "Hello") == with_bos[1:]


def test_llama3_rank_file_encodes_as_tiktoken_with_meta_s_pattern() -> None:
    path = shared_path("reference", "open-weight", "llama3", "tokenizer.model")
    ids = cli_ids(path, TEXT)
    assert ids == llama3_ranks(path).encode(TEXT)
    assert cli_text(path, ids) == TEXT
    info = run("info", path).stdout.decode()
    assert "special tokens: 256" in info and "'<|begin_of_text|>' 128000" in info


def test_a_rank_file_nobody_knows_takes_pattern_and_specials(tmp_path: Path) -> None:
    original = shared_path("reference", "open-weight", "llama3", "tokenizer.model")
    unknown = tmp_path / "ranks.model"  # one rank fewer: no longer the known file
    unknown.write_bytes(original.read_bytes().rsplit(b"\n", 2)[0] + b"\n")
    refused = run("encode", unknown, "--text", "hi")
    assert refused.returncode == 1
    assert refused.stderr.decode().startswith("error: ") and "--pattern" in refused.stderr.decode()
    given = cli_ids(
        unknown,
        "<|begin_of_text|>Hello",
        "--pattern",
        LLAMA3_PATTERN,
        "--special",
        "<|begin_of_text|>=128000",
    )
    assert given == [128000, *llama3_ranks(original).encode("Hello")]


def test_tekken_ids_are_mistral_common_s() -> None:
    path = shared_path("reference", "open-weight", "mistral", "tekken_240911.json")
    ids = cli_ids(path, TEXT)
    assert ids == tekken_reference(path)(TEXT)
    assert cli_text(path, ids) == TEXT


def test_info_names_the_id_and_the_merge_rank_apart() -> None:
    path = shared_path("reference", "open-weight", "qwen3", "tokenizer.json")
    done = run("info", path)
    assert done.returncode == 0, done.stderr.decode()
    lines = done.stdout.decode().splitlines()
    assert lines[1] == "ids: 151,669 (0-151,668)"
    assert any(line.startswith("merges: 151,387 (ranks 0-151,386)") for line in lines)
    assert "normalizer: NFC" in lines and any(
        line.startswith("base symbols: bytes") for line in lines
    )
    assert lines[-1].startswith("numbering: an id is the model's own number")


def test_check_and_report_work_on_a_model(tmp_path: Path) -> None:
    path = shared_path("reference", "open-weight", "llama2", "tokenizer.json")
    checked = run("check", path, "--format", "json")
    assert checked.returncode == 0, checked.stderr.decode()
    counts = json.loads(checked.stdout)
    assert counts["vocab_size"] == 32_000 and counts["intermediate_only"] is None
    assert counts["partial_character"] == 128  # byte fallback: <0x80> to <0xFF>, one byte each
    assert "intermediate_only" in counts["not_applicable"]
    refused = run("check", path, "--list", "intermediate_only")
    assert refused.returncode == 1 and "training corpus" in refused.stderr.decode()
    text = tmp_path / "en.txt"
    text.write_text(TEXT, encoding="utf-8")
    reported = run("report", path, text, "--format", "json")
    assert reported.returncode == 0, reported.stderr.decode()
    (row,) = json.loads(reported.stdout)
    reference = HfTokenizer.from_file(str(path)).encode(TEXT, add_special_tokens=False).ids
    assert row["size"] == 32_000
    assert row["bytes_per_token"] == pytest.approx(len(TEXT.encode()) / len(reference))


# --- a rank file of our own making: no ../shared needed -----------------------------------


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rank file named .model (as Llama 3's is): the 256 bytes, then "ab" and "abc"."""
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    path = tmp_path_factory.mktemp("ranks") / "tiny.model"
    path.write_text("\n".join([*lines, "YWI= 256", "YWJj 257"]) + "\n", encoding="ascii")
    return path


def test_a_rank_file_s_pattern_and_specials_come_from_the_options(tiny: Path) -> None:
    ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"abc": 257}
    reference = tiktoken.Encoding(
        "tiny",
        pat_str=PRESETS["gpt2"],
        mergeable_ranks=ranks,
        special_tokens={"<s>": 258},
    )
    text = "<s>abc ab abcab"
    ids = cli_ids(tiny, text, "--pattern", "gpt2", "--special", "<s>=258")
    assert ids == reference.encode(text, allowed_special="all")
    decoded = run("decode", tiny, "--pattern", "gpt2", "--special", "<s>=258", stdin=b"258 257 32")
    assert decoded.stdout.decode() == "<s>abc "  # decode needs the same options: ids of specials
    info = run("info", tiny, "--pattern", "gpt2", "--special", "<s>=258").stdout.decode()
    assert "ids: 259 (0-258)" in info and "  '<s>' 258" in info


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["encode", "{tiny}", "--text", "abc"], "--pattern"),  # a rank file nobody knows
        (["encode", "{tiny}", "--pattern", "gpt2", "--special", "<s>", "--text", "a"], "TOKEN=ID"),
        (["encode", "{tiny}", "--pattern", "", "--text", "a"], "--pattern is empty"),
        (
            ["encode", "{tiny}", "--pattern", "gpt2", "--allowed-special", "all", "--text", "a"],
            "our own",
        ),
        (["decode", "{tiny}", "--pattern", "gpt2"], "tiny.model (it has 258 ids, up to 257)"),
        (["info", "{config}"], "give the tokenizer.json beside it"),
        (["encode", "gpt2", "--add-special-tokens", "--text", "a"], "our own tokenizers add none"),
        (
            ["check", "{tiny}", "--pattern", "gpt2", "--list", "intermediate_only"],
            "training corpus",
        ),
        (
            ["report", "{tiny}", "{tiny}", "--pattern", "gpt2", "--sizes", "300"],
            "its own size only",
        ),
    ],
)
def test_mistakes_with_a_model_s_file_are_one_line(
    tiny: Path, tmp_path: Path, args: list[str], words: str
) -> None:
    config = tmp_path / "tokenizer_config.json"
    config.write_text('{"tokenizer_class": "LlamaTokenizer"}', encoding="utf-8")
    argv = [arg.format(tiny=tiny, config=config) for arg in args]
    done = run(*argv, stdin=b"999")
    stderr = done.stderr.decode()
    assert done.returncode in (1, 2) and done.stdout == b""
    assert stderr.startswith("error: ") and stderr.count("\n") == 1 and words in stderr, stderr
