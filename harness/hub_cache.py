"""A Hugging Face Hub cache laid out as huggingface_hub documents it, built from the model
files in ../shared/reference/open-weight/, for tests that open models by their Hub names.

    HF_HUB_CACHE/models--Qwen--Qwen3-0.6B/refs/main            (the commit)
                                         /blobs/<sha256>        (a link to the file)
                                         /snapshots/<commit>/tokenizer.json -> ../../blobs/…

huggingface_hub's own readers (`try_to_load_from_cache`, `hf_hub_download` with
HF_HUB_OFFLINE=1) find the files there: no mock of the client, no network.
Tests, benchmarks and the screenshot scripts share it. (The hub-open branch builds the same
cache for its tests; the two become one when they meet.)
"""

from __future__ import annotations

import hashlib
from pathlib import Path

OPEN_WEIGHT = Path(__file__).resolve().parents[2] / "shared" / "reference" / "open-weight"
# Hub name -> the folder of ../shared/reference/open-weight/ its tokenizer files are from
HUB_REPOS = {
    "meta-llama/Meta-Llama-3-8B": "llama3",
    "Qwen/Qwen3-0.6B": "qwen3",
    "deepseek-ai/DeepSeek-V3": "deepseek_v3",
    "google/gemma-3-1b-it": "gemma3",
    "meta-llama/Llama-2-7b-hf": "llama2",
}
HUB_FILES = ("tokenizer.json", "tokenizer_config.json")
COMMIT = "0" * 40


def build_hub_cache(root: Path, repos: dict[str, str] = HUB_REPOS) -> Path:
    """The cache under `root`, each repo's two files linked in (not copied: Gemma's is 33 MB)."""
    for repo, folder in repos.items():
        repo_dir = root / f"models--{repo.replace('/', '--')}"
        (repo_dir / "refs").mkdir(parents=True, exist_ok=True)
        (repo_dir / "refs" / "main").write_text(COMMIT)
        snapshot = repo_dir / "snapshots" / COMMIT
        snapshot.mkdir(parents=True, exist_ok=True)
        (repo_dir / "blobs").mkdir(exist_ok=True)
        for name in HUB_FILES:
            source = OPEN_WEIGHT / folder / name
            blob = repo_dir / "blobs" / hashlib.sha256(str(source).encode()).hexdigest()
            if not blob.exists():
                blob.symlink_to(source)
            link = snapshot / name
            if not link.exists():
                link.symlink_to(Path("..") / ".." / "blobs" / blob.name)
    return root
