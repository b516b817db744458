"""Compare's link: which tokenizers a comparison holds, read from its URL and written back.

    /compare?hub=meta-llama/Meta-Llama-3-8B,Qwen/Qwen3-0.6B&run=o200k_base

`hub=` names models on the Hub, comma-separated; `run=` is the sidebar's run, as on every
page (ui/session/links/urls.py), and joins the comparison unless `with=` says which runs
it holds (a bundled vocabulary by its name, a run of this server by its key; `with=none`:
none, only Hub models). A comparison holds two to six; a name given twice counts
once and names past the sixth are left out, with a note. Nothing here opens a model: the
Compare page does, with what these return.

    >>> link = read_compare_link({"hub": "Qwen/Qwen3-0.6B, google/gemma-3-1b-it", "run": "gpt2"})
    >>> link.hub, link.runs, link.notes
    (('Qwen/Qwen3-0.6B', 'google/gemma-3-1b-it'), ('gpt2',), ())
    >>> compare_params(("Qwen/Qwen3-0.6B",), ("o200k_base",), sidebar="o200k_base")
    {'hub': 'Qwen/Qwen3-0.6B', 'with': None}
    >>> compare_params(("Qwen/Qwen3-0.6B",), ("gpt2", "o200k_base"), sidebar="o200k_base")
    {'hub': 'Qwen/Qwen3-0.6B', 'with': 'gpt2,o200k_base'}
    >>> read_compare_link({"hub": "a/b", "with": "none", "run": "gpt2"}).runs
    ()
    >>> read_compare_link({"run": "gpt2"}) is None  # no comparison named: the page's own
    True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

HUB_PARAM = "hub"
WITH_PARAM = "with"
NO_RUNS = "none"  # with=none: the comparison holds no run, only Hub models
COMPARE_PARAMS = (HUB_PARAM, WITH_PARAM)
MIN_MEMBERS, MAX_MEMBERS = 2, 6
_MAX_NAME_CHARS = 200  # a Hub name is at most 96 + 1 + 96 characters


@dataclass(frozen=True)
class CompareLink:
    """The tokenizers a link's comparison names: Hub names, then run keys (the sidebar's
    first); `notes` say what was left out."""

    hub: tuple[str, ...]
    runs: tuple[str, ...]
    notes: tuple[str, ...] = ()

    @property
    def count(self) -> int:
        return len(self.hub) + len(self.runs)


def names_in(value: str | None) -> list[str]:
    """A comma-separated list as names: trimmed, empty ones dropped, each once.

    >>> names_in(" a/b,,a/b , c ")
    ['a/b', 'c']
    """
    if not value:
        return []
    names = (name.strip()[:_MAX_NAME_CHARS] for name in value.split(","))
    return list(dict.fromkeys(name for name in names if name))


def read_compare_link(params: Mapping[str, str]) -> CompareLink | None:
    """The comparison a link names (None when it names none: no `hub=`, no `with=`).

    Without `with=`, the sidebar's run (`run=`) is the comparison's one run; at most
    MAX_MEMBERS in all, the Hub names first.
    """
    hub = names_in(params.get(HUB_PARAM))
    if not hub and WITH_PARAM not in params:
        return None
    sidebar = params.get("run")
    if WITH_PARAM in params:
        runs = [key for key in names_in(params.get(WITH_PARAM)) if key != NO_RUNS]
    else:
        runs = [sidebar] if sidebar else []
    notes: list[str] = []
    kept_hub = hub[:MAX_MEMBERS]
    kept_runs = runs[: MAX_MEMBERS - len(kept_hub)]
    left_out = len(hub) + len(runs) - len(kept_hub) - len(kept_runs)
    if left_out:
        notes.append(
            f"This link names {len(hub) + len(runs)} tokenizers; a comparison holds at most "
            f"{MAX_MEMBERS}, so the last {left_out} were left out."
        )
    return CompareLink(tuple(kept_hub), tuple(kept_runs), tuple(notes))


def compare_params(
    hub: Sequence[str], runs: Sequence[str], *, sidebar: str | None
) -> dict[str, str | None]:
    """The URL's `hub=` and `with=` for a comparison (None leaves one out): `with=` is
    left out when the sidebar's run is the comparison's one run (`run=` says it)."""
    runs = list(runs)
    with_value = None if runs == [sidebar] else (",".join(runs) or NO_RUNS)
    return {HUB_PARAM: ",".join(hub) or None, WITH_PARAM: with_value}
