"""A real model's tokenizer by its Hugging Face Hub name: found, fetched, opened.

`huggingface_hub`, the ecosystem's client, does the talking and keeps what it fetches in
its own cache (HF_HUB_CACHE, else HF_HOME/hub), so a model fetched once opens for every
visitor, and offline. Three steps, each usable alone (the app runs the second in a child):

1. `locate(name)`: which files of which commit (`explorer.models.hub_files.choose_files`),
   and their sizes, from the Hub's file list, checked against MAX_FILE_BYTES before anything
   is fetched; from the cache alone when fetching is off (`fetching_allowed`), or when
   the cache has the model and the network is down or the Hub refuses it now.
2. `fetch(found)`: the files into the cache (a file already there is not fetched again),
   with progress as bytes.
3. `open_fetched(found, paths)`: read by `explorer.models.opening.open_model`, the one way
   in, named by the repo (`model.name == "Qwen/Qwen3-0.6B"`).

Every failure is a HubError of one plain sentence: no network, an unknown repo, a gated
repo (HF_TOKEN is read; the token is never shown), a repo with no file this app reads, a
file too big. An access token is huggingface_hub's to read (HF_TOKEN): nothing here
touches it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from huggingface_hub import HfApi, hf_hub_download, try_to_load_from_cache
from huggingface_hub.errors import (
    GatedRepoError,
    HfHubHTTPError,
    LocalEntryNotFoundError,
    RepositoryNotFoundError,
    RevisionNotFoundError,
)
from huggingface_hub.utils.tqdm import tqdm as hub_tqdm

from explorer.files.errors import FormatError
from explorer.files.formats import decode_utf8
from explorer.files.limits import MAX_FILE_BYTES, check_file_size
from explorer.models.hub_files import (
    CONFIG_JSON,
    RANK_FILES,
    READ_FILES,
    TEKKEN_JSON,
    TOKENIZER_JSON,
    HubError,
    HubFiles,
    check_repo_name,
    choose_files,
    fetching_allowed,
    hub_cache_dir,
    hub_endpoint,
    shown_name,
    token_is_set,
)
from explorer.models.model import LoadedModel
from explorer.models.opening import OpenedModel, RankSettings, open_model

Progress = Callable[[str, int, int], None]  # (phase, bytes done, bytes in all)
FETCHING = "fetching"
INFO_SECONDS = 15.0  # the file list: one small request
CANDIDATES = (TOKENIZER_JSON, CONFIG_JSON, TEKKEN_JSON, *RANK_FILES)


@dataclass(frozen=True)
class HubModel:
    """A model opened by its Hub name: what was found, and the model read from it."""

    found: HubFiles
    opened: OpenedModel

    @property
    def source(self) -> str:
        """As people would name it: "Qwen/Qwen3-0.6B (tokenizer.json + tokenizer_config.json)"."""
        return f"{self.found.repo} ({' + '.join(self.found.files)})"


def open_hub_model(name: str, *, progress: Progress | None = None) -> HubModel:
    """The model a Hub name names, fetched into the cache when it is not there yet."""
    found = locate(name)
    return HubModel(found, open_fetched(found, fetch(found, progress=progress)))


def locate(name: str) -> HubFiles:
    """The tokenizer files of the repo's `main`, and their sizes (see the module docstring)."""
    repo = check_repo_name(name)
    cached = cached_files(repo)
    if not fetching_allowed():
        if cached is None:
            raise HubError(
                f"{shown_name(repo)} is not in this server's Hub cache, and fetching from "
                "the Hub is off here (BPE_EXPLORER_HUB=off or HF_HUB_OFFLINE=1): only models "
                "fetched before open."
            )
        return cached
    try:
        info = HfApi(endpoint=hub_endpoint()).model_info(
            repo, files_metadata=True, timeout=INFO_SECONDS
        )
    except HfHubHTTPError as exc:
        if cached is not None:  # fetched before (with a token that may have gone): this
            return cached  # server's own copy; a refusal is said only when there is none
        raise refusal(repo, exc) from None
    except Exception as exc:  # the network: no answer at all
        if not is_network_error(exc):
            raise
        if cached is not None:
            return cached
        raise no_network(repo) from None
    sizes = {item.rfilename: item.size for item in info.siblings or ()}
    files = choose_files(sizes)
    if not files:
        raise no_tokenizer_file(repo)
    found = HubFiles(repo, str(info.sha), files, tuple(sizes[file] for file in files))
    check_sizes(found)
    return found


def cached_files(repo: str) -> HubFiles | None:
    """What the cache holds of the repo's `main` (None when it holds no file this app reads)."""
    folder = hub_cache_dir()
    paths = {}
    for file in CANDIDATES:
        path = try_to_load_from_cache(repo, file, cache_dir=folder)
        if isinstance(path, str):
            paths[file] = Path(path)
    files = choose_files(paths)
    if not files:
        return None
    commit = paths[files[0]].parent
    while commit.parent.name != "snapshots":  # original/tokenizer.model sits one deeper
        commit = commit.parent
    sizes = tuple(paths[file].stat().st_size for file in files)
    return HubFiles(repo, commit.name, files, sizes)


def check_sizes(found: HubFiles) -> None:
    """A file past MAX_FILE_BYTES is refused before it is fetched."""
    for file, size in zip(found.files, found.sizes, strict=True):
        if size is not None and size > MAX_FILE_BYTES:
            raise HubError(
                f"{found.repo}'s {file} is {size:,} bytes; this app reads tokenizer files of "
                f"up to {MAX_FILE_BYTES >> 20} MB (Gemma 3's tokenizer.json is 33 MB), so it "
                "was not fetched."
            )


def fetch(found: HubFiles, *, progress: Progress | None = None) -> tuple[Path, ...]:
    """The files in the cache (fetched when not there yet), in `found.files`' order.

    `progress(FETCHING, bytes done, bytes in all)` hears the download as it goes.
    """
    paths = []
    done, total = 0, found.total_bytes
    for file, size in zip(found.files, found.sizes, strict=True):
        bar = None if progress is None else _progress_bar(progress, done, total)
        try:
            path = hf_hub_download(
                found.repo,
                file,
                revision=found.commit,
                cache_dir=hub_cache_dir(),
                endpoint=hub_endpoint(),
                local_files_only=not fetching_allowed(),
                tqdm_class=bar,
            )
        except HfHubHTTPError as exc:
            raise refusal(found.repo, exc) from None
        except LocalEntryNotFoundError:  # offline, or the network went, and not cached
            raise no_network(found.repo) from None
        paths.append(Path(str(path)))
        done += size or 0
        if progress is not None:
            progress(FETCHING, done, max(done, total))
    remember_main(found)
    return tuple(paths)


def remember_main(found: HubFiles) -> None:
    """Note in the cache that `main` is this commit (refs/main, huggingface_hub's layout),
    as its own download of `main` does: the files were fetched by their commit, so that
    they are the ones whose sizes were checked, and the cache must still find them by name.
    """
    folder = hub_cache_dir() / f"models--{found.repo.replace('/', '--')}" / "refs"
    main = folder / "main"
    if not main.is_file() or main.read_text().strip() != found.commit:
        folder.mkdir(parents=True, exist_ok=True)
        main.write_text(found.commit)


def cached_paths(found: HubFiles) -> tuple[Path, ...]:
    """The files of this commit in the cache (no network); HubError when one is missing."""
    paths = []
    for file in found.files:
        path = try_to_load_from_cache(found.repo, file, hub_cache_dir(), found.commit)
        if not isinstance(path, str):
            raise HubError(
                f"{found.repo}'s {file} is no longer in this server's Hub cache: open it again."
            )
        paths.append(Path(path))
    return tuple(paths)


def read_cached(found: HubFiles) -> LoadedModel:
    """The model in the cache's files of this commit, read with no network (the app runs it
    in a child once `fetch` has put them there; a child importing only the engine starts
    quicker than one importing the app)."""
    return open_fetched(found, cached_paths(found)).model


def open_fetched(found: HubFiles, paths: Sequence[Path]) -> OpenedModel:
    """The model in the fetched files, read by `explorer.models.opening.open_model` and
    named by its repo; a HubError when the file is not one this app reads."""
    texts = []
    for file, path in zip(found.files, paths, strict=True):
        name = f"{found.repo}/{file}"
        check_file_size(path.stat().st_size, name)
        try:
            texts.append((name, decode_utf8(path.read_bytes(), name)))
        except FormatError:
            if file in RANK_FILES:  # SentencePiece's protobuf: binary, not a rank file
                raise no_tokenizer_file(found.repo, sentencepiece=file) from None
            raise
    config = texts[1] if len(texts) > 1 else None
    opened = open_model(texts[0][0], texts[0][1], config, RankSettings())
    opened.model.name = found.repo
    return opened


# --- one sentence each -----------------------------------------------------------------


def refusal(repo: str, exc: HfHubHTTPError) -> HubError:
    """What the Hub's refusal means, in one sentence (its own message may hold a URL)."""
    status = exc.response.status_code if exc.response is not None else None
    if isinstance(exc, GatedRepoError):
        return gated(repo)
    if isinstance(exc, RepositoryNotFoundError):
        if token_is_set():
            return HubError(
                f"The Hub has no model {shown_name(repo)} that this server's access token "
                "(HF_TOKEN) can see: check the name's spelling."
            )
        return HubError(
            f"The Hub has no model {shown_name(repo)}: check the name's spelling (a private "
            "repo needs an access token in HF_TOKEN on this server)."
        )
    if isinstance(exc, RevisionNotFoundError):
        return HubError(f"{shown_name(repo)} has no `main` branch on the Hub.")
    if status in (401, 403):
        return gated(repo)
    return HubError(
        f"The Hub refused {shown_name(repo)} (HTTP {status or 'error'}); try again later."
    )


def gated(repo: str) -> HubError:
    """A gated repo: say that HF_TOKEN is read, and whether one is set (never its value)."""
    token = (
        "the access token this server has in HF_TOKEN has not been granted it"
        if token_is_set()
        else "this server reads an access token from HF_TOKEN, and none is set"
    )
    return HubError(
        f"{shown_name(repo)} is a gated repo: its files need an access token from a Hub "
        f"account that has accepted its licence, and {token}."
    )


def no_network(repo: str) -> HubError:
    return HubError(
        f"The Hub could not be reached from this server (no network?), and {shown_name(repo)} "
        "is not in its cache."
    )


def no_tokenizer_file(repo: str, sentencepiece: str = "") -> HubError:
    if sentencepiece:
        return HubError(
            f"{shown_name(repo)}'s {sentencepiece} is SentencePiece's binary model, which this "
            f"app does not read, and the repo has no {TOKENIZER_JSON} or {TEKKEN_JSON}."
        )
    return HubError(f"{shown_name(repo)} has no tokenizer file this app reads ({READ_FILES}).")


def is_network_error(exc: Exception) -> bool:
    """A failure to reach the Hub at all: an OSError (requests' are), or the HTTP client's
    transport error (httpx's TransportError and its kin, known by name: huggingface_hub
    changes which client it uses)."""
    if isinstance(exc, OSError):
        return True
    return any(
        kind.__name__ in ("TransportError", "TimeoutException") for kind in type(exc).__mro__
    )


def _progress_bar(progress: Progress, before: int, total: int) -> type[hub_tqdm]:
    """A tqdm class whose updates reach `progress` as bytes of the whole fetch."""

    class Reported(hub_tqdm):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["disable"] = True  # nothing on the terminal: the caller draws
            super().__init__(*args, **kwargs)  # type: ignore[no-untyped-call]
            self.fetched = 0

        def update(self, n: float | None = 1) -> bool | None:
            self.fetched += int(n or 0)
            progress(FETCHING, before + self.fetched, max(total, before + self.fetched))
            return None

    return Reported
