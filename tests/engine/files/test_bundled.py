"""The bundled GPT-2, cl100k_base and o200k_base: official files, and tiktoken's ids exactly.

tiktoken cannot download here, so its Encodings are built from the same bundled files,
with the patterns and special tokens of its own `tiktoken_ext/openai_public.py`.
"""

from __future__ import annotations

import hashlib
import random
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tiktoken
import tokenizers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiktoken.load import load_tiktoken_bpe

from explorer.analysis.vocabulary.lineage import parents
from explorer.base.byte_map import bytes_to_unicode
from explorer.cli import main
from explorer.encoding.merging import merge_ids
from explorer.encoding.tokenizer import SpecialTokenError, Tokenizer
from explorer.files import bundled
from explorer.files.bundled import BUNDLED, BUNDLED_NAMES, BundledError, load_bundled
from explorer.files.exports import tokenizer_json
from tests.conftest import shared_path
from tests.engine.official_vocabularies import official_spec

TEXTS = {
    "english": "The quick brown fox jumps over the lazy dog. It's 12,345.67 dollars, isn't it?",
    "code": 'def f(x):\n    return {"a": x ** 2}  # comment\n\n\tif x != 0:\r\n        pass\n',
    "chinese": "人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心。",
    "japanese": "すべての人間は、生まれながらにして自由であり、尊厳と権利とについて平等である。",
    "korean": "모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다.",
    "arabic": "يولد جميع الناس أحرارًا متساوين في الكرامة والحقوق.",
    "hindi": "सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता प्राप्त है।",
    "thai": "มนุษย์ทั้งหลายเกิดมามีอิสระและเสมอภาคกันในเกียรติศักดิ์และสิทธิ",
    "emoji": "emoji 😀👩‍👩‍👧 flags 🇫🇷🇯🇵 skin 👍🏽 keycap 1️⃣ 🤗🤗🤗",
    "whitespace": "a  b   c    \n\n\n   \t\t x \r\n\r\n  \u00a0\u3000\u2009 end   \n   ",
    "digits": "3.14159265358979 1234567890 ٣٤٥ ১২৩",
    "mixed case": "HelloWorld HTTPServer iPhone ÉCOLE straße İstanbul DON'T You'RE",
    "controls": "\x00\x01\x1b[31mred\x1b[0m\x7f\u200b\ufeff\ufffd",
    "combining": "e\u0301 ﬁ Ａ n\u0303 \U0001d400",
}


@pytest.fixture(scope="session")
def official() -> Callable[[str], dict[str, Any]]:
    """tiktoken's own constructor for a name, reading the bundled files instead of downloading
    (tests.engine.official_vocabularies): name, pattern, ranks, special tokens, `hashes`."""
    return official_spec


@pytest.fixture(scope="session")
def tiktoken_encodings(
    official: Callable[[str], dict[str, Any]],
) -> Callable[[str], tiktoken.Encoding]:
    """tiktoken's Encoding for a bundled name, built once per session."""
    cache: dict[str, tiktoken.Encoding] = {}

    def get(name: str) -> tiktoken.Encoding:
        if name not in cache:
            spec = official(name)
            cache[name] = tiktoken.Encoding(
                name=name,
                pat_str=spec["pat_str"],
                mergeable_ranks=spec["mergeable_ranks"],
                special_tokens=spec["special_tokens"],
            )
        return cache[name]

    return get


# --- the files ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_bundled_files_have_the_hashes_tiktoken_expects(
    official: Callable[[str], dict[str, Any]], name: str
) -> None:
    assert dict(BUNDLED[name].files) == official(name)["hashes"]
    for relative, sha256 in BUNDLED[name].files:
        data = (bundled.VOCABULARY_DIR / relative).read_bytes()
        assert hashlib.sha256(data).hexdigest() == sha256


def test_sources_note_every_file_and_its_licence() -> None:
    sources = (bundled.VOCABULARY_DIR / "SOURCES.md").read_text(encoding="utf-8")
    assert "MIT" in sources
    for spec in BUNDLED.values():
        for relative, sha256 in spec.files:
            assert relative in sources and sha256 in sources


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_patterns_and_specials_are_tiktokens(
    official: Callable[[str], dict[str, Any]], name: str
) -> None:
    tokenizer = load_bundled(name)
    assert tokenizer.pattern == official(name)["pat_str"]
    assert tokenizer.special_tokens == official(name)["special_tokens"]
    assert tokenizer.special_tokens == BUNDLED[name].special_tokens


@pytest.mark.parametrize(
    ("name", "vocab_size"), [("gpt2", 50256), ("cl100k_base", 100256), ("o200k_base", 199998)]
)
def test_sizes_and_byte_order(
    official: Callable[[str], dict[str, Any]], name: str, vocab_size: int
) -> None:
    tokenizer = load_bundled(name)
    assert tokenizer.vocab_size == vocab_size
    assert not tokenizer.bytes_in_order
    gpt2_order = list(bytes_to_unicode())  # GPT-2's bytes, in the order ids 0-255 go to them
    assert [tokenizer.vocab[i] for i in range(256)] == [bytes([b]) for b in gpt2_order]
    assert {token: i for i, token in tokenizer.vocab.items()} == official(name)["mergeable_ranks"]


def test_aliases_and_the_cache_share_one_tokenizer() -> None:
    assert load_bundled("r50k_base") is load_bundled("gpt2")


def test_unknown_name_lists_the_choices() -> None:
    with pytest.raises(BundledError, match="choose one of gpt2, cl100k_base, o200k_base"):
        load_bundled("gpt5")


def test_a_damaged_or_missing_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "gpt2").mkdir()
    original = (bundled.VOCABULARY_DIR / "gpt2/vocab.bpe").read_bytes()
    (tmp_path / "gpt2/vocab.bpe").write_bytes(original.replace(b"\xc4\xa0t", b"\xc4\xa0T", 1))
    monkeypatch.setattr(bundled, "VOCABULARY_DIR", tmp_path)
    path, sha256 = BUNDLED["gpt2"].files[1]
    with pytest.raises(BundledError, match="not the official file"):
        bundled._verified_bytes(path, sha256)
    with pytest.raises(BundledError, match="cannot be read"):
        bundled._verified_bytes(BUNDLED["gpt2"].files[0][0], BUNDLED["gpt2"].files[0][1])


# --- tiktoken's ids ----------------------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED_NAMES)
@pytest.mark.parametrize("label", sorted(TEXTS))
def test_ids_equal_tiktokens(
    tiktoken_encodings: Callable[[str], tiktoken.Encoding], name: str, label: str
) -> None:
    text = TEXTS[label]
    ids = load_bundled(name).encode(text)
    assert ids == tiktoken_encodings(name).encode(text)
    assert load_bundled(name).decode(ids) == text


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_special_tokens_as_tiktoken(
    tiktoken_encodings: Callable[[str], tiktoken.Encoding], name: str
) -> None:
    tokenizer, encoding = load_bundled(name), tiktoken_encodings(name)
    text = "".join(f"text {token} more{token}" for token in tokenizer.special_tokens) + " end"
    ids = tokenizer.encode(text, allowed_special="all")
    assert ids == encoding.encode(text, allowed_special="all")
    assert set(tokenizer.special_tokens.values()) <= set(ids)
    assert tokenizer.encode_ordinary(text) == encoding.encode_ordinary(text)
    with pytest.raises(SpecialTokenError):
        tokenizer.encode(text)


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_udhr_ids_equal_tiktokens(
    tiktoken_encodings: Callable[[str], tiktoken.Encoding], name: str
) -> None:
    folder = shared_path("udhr")
    files = sorted(folder.glob("*.txt"))
    assert len(files) >= 20
    tokenizer, encoding = load_bundled(name), tiktoken_encodings(name)
    for path in files:
        text = path.read_bytes().decode("utf-8")
        assert tokenizer.encode(text) == encoding.encode(text), path.name


def long_runs(size: int) -> dict[str, str]:
    """Texts that are one long pre-token, or many of one kind: issue 24's slow shapes, small.

    tiktoken's own test of `c * n`, `" " + c * n` and `" " + c * n + "\n"`, with short
    repeating units, scripts without spaces and random digits beside them.
    """
    digits = "".join(str(i * 7919 % 10) for i in range(size))  # a fixed, non-repeating-ish run
    runs = {f"{c!r} * n": c * size for c in ["x", "^", "0", "'s", " ", "\n", "ก", "東"]}
    runs |= {f"' ' + {c!r} * n + '\\n'": " " + c * size + "\n" for c in ["x", "0", "é"]}
    runs |= {"'ab' * n": "ab" * (size // 2), "'abc' * n": "abc" * (size // 3)}
    runs |= {"digits": digits, "thai": "มนุษย์ทั้งหลาย" * (size // 14)}
    # never repeating: past a few hundred new parts, the rest is merged in wide windows
    runs["letters"] = "".join(random.Random(size).choices(string.ascii_lowercase, k=size))
    return runs


LONG_RUNS = long_runs(20_000)


def fresh_bundled(name: str) -> Tokenizer:
    """A bundled tokenizer built anew: its caches start empty, as a first visitor's do."""
    shared = load_bundled(name)
    return Tokenizer(
        shared.merges,
        pattern=shared.pattern,
        special_tokens=shared.special_tokens,
        byte_ids=shared.byte_ids,
        trained=True,
    )


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_long_runs_equal_tiktokens(
    tiktoken_encodings: Callable[[str], tiktoken.Encoding], name: str
) -> None:
    fresh = fresh_bundled(name)
    encoding = tiktoken_encodings(name)
    for label, text in LONG_RUNS.items():
        assert fresh.encode(text) == encoding.encode(text), label
    assert fresh.encode(LONG_RUNS["'ab' * n"][:-1]) == encoding.encode(LONG_RUNS["'ab' * n"][:-1])


@pytest.fixture(scope="module")
def fresh_tokenizers() -> dict[str, Tokenizer]:
    """A Tokenizer per bundled name with empty caches, shared by one module's examples."""
    return {name: fresh_bundled(name) for name in ("gpt2", "cl100k_base")}


NEVER_REPEATING = st.one_of(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=100, max_size=2000),
    st.text(alphabet="0123456789", min_size=100, max_size=2000),
    st.text(alphabet="ab0 ก東", min_size=100, max_size=2000),
    st.binary(min_size=100, max_size=2000).map(lambda data: data.decode("latin-1")),
    st.tuples(st.text(alphabet="aé0ก東 ", min_size=1, max_size=9), st.integers(20, 300)).map(
        lambda unit_times: unit_times[0] * unit_times[1]
    ),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=NEVER_REPEATING, name=st.sampled_from(["gpt2", "cl100k_base"]))
def test_random_runs_equal_tiktokens(
    fresh_tokenizers: dict[str, Tokenizer],
    tiktoken_encodings: Callable[[str], tiktoken.Encoding],
    text: str,
    name: str,
) -> None:
    """Long random runs (the heap merge, windows, cuts), repeating units (their period)
    and floods of short pre-tokens (random Latin-1)."""
    assert fresh_tokenizers[name].encode(text) == tiktoken_encodings(name).encode(text)


@pytest.mark.parametrize("vocab_size", [256, 300, 1000, 20000])
def test_a_smaller_view_is_tiktoken_with_fewer_ranks(
    tiktoken_encodings: Callable[[str], tiktoken.Encoding], vocab_size: int
) -> None:
    full = load_bundled("cl100k_base")
    small = full.at_vocab_size(vocab_size)
    assert small.byte_ids == full.byte_ids
    encoding = tiktoken_encodings("cl100k_base")
    ranks = {token: rank for token, rank in encoding._mergeable_ranks.items() if rank < vocab_size}
    fewer = tiktoken.Encoding(
        name="small", pat_str=encoding._pat_str, mergeable_ranks=ranks, special_tokens={}
    )
    text = TEXTS["english"] + TEXTS["code"] + TEXTS["korean"]
    assert small.encode(text, disallowed_special=()) == fewer.encode_ordinary(text)


# --- lineage of imported merges ------------------------------------------------------------


def test_gpt2_lineage_follows_vocab_bpe() -> None:
    tokenizer = load_bundled("gpt2")
    the = tokenizer.encode(" the")
    assert len(the) == 1
    left, right = parents(tokenizer, the[0])
    assert (tokenizer.vocab[left], tokenizer.vocab[right]) == (b" t", b"he")  # line 8: Ġt he


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_each_recovered_merge_is_what_tiktoken_makes_just_before_it(
    tiktoken_encodings: Callable[[str], tiktoken.Encoding], name: str
) -> None:
    tokenizer, encoding = load_bundled(name), tiktoken_encodings(name)
    text = TEXTS["english"] + TEXTS["code"] + TEXTS["korean"]
    ids = {i for i in encoding.encode(text) if 256 <= i < 3000}  # cheap Encodings below
    checked = sorted(i for i in ids if _is_utf8(tokenizer.vocab[i]))[:12]
    assert len(checked) >= 8
    for token_id in checked:
        below = {t: rank for t, rank in encoding._mergeable_ranks.items() if rank < token_id}
        fewer = tiktoken.Encoding(
            name="below", pat_str=r"[\s\S]+", mergeable_ranks=below, special_tokens={}
        )
        token_text = tokenizer.decode([token_id])
        assert tuple(fewer.encode_ordinary(token_text)) == parents(tokenizer, token_id)


# --- Hugging Face, with the same ids -------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_tokenizer_json_export_gives_huggingface_the_same_ids(name: str) -> None:
    tokenizer = load_bundled(name)
    hf = tokenizers.Tokenizer.from_str(tokenizer_json(tokenizer))
    text = "".join(TEXTS.values()) + "".join(tokenizer.special_tokens) + " ok"
    ids = tokenizer.encode(text, allowed_special="all")
    assert hf.encode(text, add_special_tokens=False).ids == ids
    assert hf.decode(ids, skip_special_tokens=False) == text


# --- the command line ----------------------------------------------------------------------


def test_cli_encodes_and_decodes_with_a_bundled_name(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    tiktoken_encodings: Callable[[str], tiktoken.Encoding],
) -> None:
    text = TEXTS["english"] + "\n" + TEXTS["japanese"] + "\n"
    source = tmp_path / "notes.txt"
    source.write_bytes(text.encode("utf-8"))
    assert main(["encode", "gpt2", str(source)]) == 0
    printed = capsys.readouterr().out
    assert list(map(int, printed.split())) == tiktoken_encodings("gpt2").encode(text)
    ids_file = tmp_path / "ids.txt"
    ids_file.write_text(printed)
    assert main(["decode", "r50k_base", str(ids_file)]) == 0
    assert capsys.readouterr().out == text
    assert main(["info", "o200k_base"]) == 0
    info = capsys.readouterr().out
    assert "bundled vocabulary: o200k_base" in info and "199998 (256 bytes + 199742" in info
    assert "'<|endofprompt|>' 200018" in info


def test_cli_names_the_bundled_vocabularies_when_model_is_missing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["info", "gpt5"]) == 1
    assert "not a bundled vocabulary (gpt2, cl100k_base, o200k_base" in capsys.readouterr().err


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def test_counts_at_every_size_follow_the_byte_order() -> None:
    from explorer.analysis.compression.stats import tokens_at_every_size

    gpt2 = load_bundled("gpt2")
    text = "Whereas recognition of the inherent dignity, 1948. Ünïcödé 😀"
    counts = tokens_at_every_size(gpt2, text)
    for size in (256, 300, 1000, 20_000, gpt2.vocab_size):
        assert counts[size - 256] == len(gpt2.at_vocab_size(size).encode(text))


def test_a_byte_shuffled_tokenizer_cannot_be_saved_as_minbpe() -> None:
    from explorer.files.formats import FormatError, merges_json, model_text

    gpt2 = load_bundled("gpt2")
    with pytest.raises(FormatError, match="GPT-2's order"):
        model_text(gpt2)
    with pytest.raises(FormatError, match="GPT-2's order"):
        merges_json(gpt2)


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_every_bundled_token_merges_to_itself(name: str) -> None:
    """Why bundled vocabularies may take a whole-token piece whole, as tiktoken does."""
    tokenizer = load_bundled(name)
    table = bytes(tokenizer.byte_ids)
    for token, data in tokenizer.vocab.items():
        assert merge_ids(list(data.translate(table)), tokenizer.ranks) == [token]


def test_concurrent_first_loads_parse_a_vocabulary_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sessions asking for the same vocabulary at once wait for one parse, then share it."""
    import threading
    import time

    parses: list[str] = []

    def slow_parse(*args: Any, **kwargs: Any) -> object:
        parses.append("gpt2")
        time.sleep(0.2)  # long enough for the other threads to arrive while it runs
        return object()

    monkeypatch.setattr(bundled, "_verified_bytes", lambda path, sha256: b"")
    monkeypatch.setattr(bundled, "parse_gpt2", slow_parse)
    monkeypatch.setattr(bundled, "_LOADED", {})  # the fake must not outlive this test
    results: list[object] = []
    threads = [
        threading.Thread(target=lambda: results.append(load_bundled("gpt2"))) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert parses == ["gpt2"]
    assert len(results) == 4 and all(result is results[0] for result in results)


# --- text that is not valid Unicode: tiktoken's rule -------------------------------------

SURROGATE_TEXTS = [
    "a\ud800b",  # a lone high surrogate
    "x\udc00",  # a lone low surrogate
    "smile \ud83d\ude00 now",  # a pair written as two code points: the emoji
    "\ude00\ud83d",  # a pair in the wrong order: two lone surrogates
    "\ud83d\ud83d\ude00<|endoftext|>\udfff",
]


@pytest.fixture(scope="module")
def o200k_reference() -> tiktoken.Encoding:
    """tiktoken on OpenAI's own o200k_base file (../shared), read once for every text."""
    reference = shared_path("reference", "openai", "o200k_base.tiktoken")
    return tiktoken.Encoding(
        name="o200k_base_reference",
        pat_str=bundled.O200K_PATTERN,
        mergeable_ranks=load_tiktoken_bpe(str(reference)),
        special_tokens=bundled.BUNDLED["o200k_base"].special_tokens,
    )


@pytest.mark.parametrize("text", SURROGATE_TEXTS)
def test_surrogates_encode_as_tiktoken_does(text: str, o200k_reference: tiktoken.Encoding) -> None:
    encoding = o200k_reference
    tokenizer = load_bundled("o200k_base")
    ids = tokenizer.encode(text, allowed_special="all")
    assert ids == encoding.encode(text, allowed_special="all")
    tokenizer.decode_bytes(ids).decode("utf-8")  # valid UTF-8, never surrogate bytes
    spans = tokenizer.encode_with_spans(text, allowed_special="all").spans
    assert spans[0][0] == 0 and spans[-1][1] == len(text)  # spans in the text as given


def test_training_never_makes_surrogate_bytes() -> None:
    from explorer import train

    result = train("a\ud800b a\ud800b \ud83d\ude00", 270, pattern="gpt4")
    for token in result.tokenizer.vocab.values():
        assert b"\xed\xa0" not in token
    assert result.tokenizer.decode(result.tokenizer.encode("a\ud800b")) == "a\ufffdb"


# --- a server's preload: the work in a child process --------------------------------------


# subtle: these tests load into an empty cache of their own (monkeypatch), and the
# process's cache comes back afterwards; clearing it made every later test of the worker
# load GPT-2, cl100k_base and o200k_base again (~5 s of CPU)


def test_a_vocabulary_loaded_in_a_child_is_the_one_loaded_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bundled, "_LOADED", {})
    from_child = bundled.load_bundled_in_a_child("gpt2")
    assert bundled.load_bundled("gpt2") is from_child  # kept: later callers share it
    bundled._LOADED.clear()
    here = load_bundled("gpt2")
    assert here is not from_child
    assert from_child.merges == here.merges and from_child.vocab == here.vocab
    assert from_child.special_tokens == here.special_tokens
    text = "Hello, world! 12345 <|endoftext|> naïve 日本語"
    assert from_child.encode(text, allowed_special="all") == here.encode(
        text, allowed_special="all"
    )


def test_a_child_that_fails_leaves_the_load_to_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bundled, "_CHILD", "raise SystemExit(3)")
    monkeypatch.setattr(bundled, "_LOADED", {})
    assert bundled._load_in_a_child("gpt2") is None
    assert len(bundled.load_bundled_in_a_child("gpt2").merges) == 50_000
    with pytest.raises(BundledError, match="no bundled vocabulary 'gpt5'"):
        bundled.load_bundled_in_a_child("gpt5")
