"""What a comparison can hold, by the names the picker shows: the session's tokenizers,
the bundled vocabularies, and any Hub name typed in; each opened as a `Member`.

A label the session has names its run (a real model's run opens as a model); a bundled
label ("GPT-4o · o200k_base") its vocabulary; anything else is taken as a Hub name.
"""

from __future__ import annotations

from dataclasses import dataclass

from ui.compare.models.members import Member, model_member, tokenizer_member
from ui.session.hub_opening import hub_model
from ui.session.run_spec import BUNDLED_RUNS, RunKind, RunSpec
from ui.session.runs import bundled_spec, load_model_run, load_run, run_specs


@dataclass(frozen=True)
class Choice:
    """One name in the picker: the run it names (None for a Hub name), and its link key."""

    label: str
    spec: RunSpec | None

    @property
    def link_key(self) -> str:
        """What a link says for it: a run's key (a bundled one's name), or the Hub name."""
        return self.label if self.spec is None else self.spec.store_key

    @property
    def is_hub(self) -> bool:
        return self.spec is None


def bundled_label(name: str) -> str:
    """A bundled vocabulary as the sidebar names it: `bundled_label("gpt2") == "GPT-2 · gpt2"`.

    >>> bundled_label("o200k_base")
    'GPT-4o · o200k_base'
    """
    return f"{BUNDLED_RUNS[name][0]} · {name}"


def session_choices() -> dict[str, Choice]:
    """The session's runs, by label."""
    return {spec.name: Choice(spec.name, spec) for spec in run_specs()}


def choice_labels(known: dict[str, Choice]) -> list[str]:
    """The picker's names: the session's runs, then the bundled vocabularies it lacks."""
    bundled = [bundled_label(name) for name in BUNDLED_RUNS]
    return list(dict.fromkeys([*known, *bundled]))


def choice_of(label: str, known: dict[str, Choice]) -> Choice:
    """The choice a label names: a run of the session, a bundled vocabulary (opened on
    demand: bundled_spec loads it), or a Hub name."""
    found = known.get(label)
    if found is not None:
        return found
    name = next((n for n in BUNDLED_RUNS if label in (bundled_label(n), n)), None)
    if name is not None:
        return Choice(bundled_label(name), bundled_spec(name))
    return Choice(label, None)


def choice_by_key(key: str, known: dict[str, Choice]) -> Choice | None:
    """The choice a link's run key names: a bundled name, or a run of this session."""
    if key in BUNDLED_RUNS:
        return choice_of(key, known)
    return next((c for c in known.values() if c.spec and c.spec.store_key == key), None)


def open_member(choice: Choice) -> Member:
    """The member a choice opens (a Hub name fetched, once per server, when needed)."""
    spec = choice.spec
    if spec is None:
        return model_member(choice.label, f"hub:{choice.label}", hub_model(choice.label))
    if spec.kind.is_model:  # a real model's file, or a model opened by its Hub name
        return model_member(spec.name, spec.settings, load_model_run(spec).model)
    run = load_run(spec)
    kind = "bundled" if spec.kind is RunKind.BUNDLED else "our run"
    return tokenizer_member(spec.name, run.key, run.tokenizer, kind)
