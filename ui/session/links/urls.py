"""What a page's URL says: the run (`run=KEY`), the view size, and the page's own state.

Every page's URL carries the run's key, so a reload, a shared link, or the same link
after a restart opens the same tokenizer (ui/opening.open_linked_run reads it back). A run
trained on a bundled sample also carries that sample's settings, from which it can be
trained again when the server no longer has it (with `tie_rule=lowest-ids` when it
broke ties by the lowest ids; the default rule is left out, so older links are unchanged).
The pages add their own:

    Animate merges  animate_step=N (the step slider, bound to the URL by Streamlit)
    Tokens          text=…  (the text to encode, when at most MAX_LINK_TEXT characters)
                    encode=… and encode_step=N (encode step by step: its text, when at
                    most MAX_LINK_TEXT characters, and the step on screen)
    Vocabulary      token=ID (the token whose lineage is shown)
    Compare         compare_section=TAB (the open tab, bound to the URL by Streamlit;
                    the first tab, Compression, leaves it out: ui/compare/sections.py);
                    hub=… and with=… (the real models compared: compare_link.py)
    every page      view=N  (the sidebar's view size, when below the run's full size)
    every page      hub=ORG/NAME (a model on the Hugging Face Hub, in place of run=: it
                    opens the model from the server's Hub cache, fetching it if need be)

    >>> url_params(RunSpec("x", "Pasted text", "k", 300, "gpt4"), view_size=280)["view"]
    '280'
"""

from __future__ import annotations

from collections.abc import MutableMapping

from explorer.training.tie_rules import DEFAULT_TIE_RULE
from ui.session.run_spec import RunKind, RunSpec, hub_repo
from ui.session.samples import SAMPLES, Sample
from ui.session.state import MAX_LINK_TEXT

RUN_PARAMS = ("run", "hub", "sample", "vocab", "pattern", "tie_rule", "holdout", "view")
# pages whose own state `hub=` is (Compare's models compared), by url_path: there the
# shell neither opens it as the sidebar's run nor writes or clears it
PAGES_READING_HUB = ("compare",)
# a page's url_path -> its own
PAGE_PARAMS = {
    "tokens": ("text", "encode", "encode_step"),
    "vocabulary": ("token",),
    "compare": ("with",),
}


def sample_of(spec: RunSpec) -> Sample | None:
    """The bundled sample a run was trained on, if it was."""
    if not spec.kind.has_corpus:
        return None
    return next((s for s in SAMPLES.values() if s.title == spec.source), None)


def url_params(spec: RunSpec, view_size: int | None = None) -> dict[str, str]:
    """What every page's URL says about its run (and the view size, when one is set); a
    Hub model's says its name, `hub=Qwen/Qwen3-0.6B`, which opens it on any server.

    >>> url_params(RunSpec("q", "Qwen/Qwen3-0.6B (tokenizer.json)", "k", 9, "", kind="hub_model"))
    {'hub': 'Qwen/Qwen3-0.6B'}
    """
    if spec.kind is RunKind.HUB_MODEL:
        return {"hub": hub_repo(spec)}
    params = {"run": spec.store_key}
    sample = sample_of(spec)
    if sample is not None:
        params.update(sample=sample.key, vocab=str(spec.vocab_size), pattern=spec.pattern)
        if spec.tie_rule is not DEFAULT_TIE_RULE:
            params["tie_rule"] = spec.tie_rule.value
        if spec.holdout_percent:  # only when set: other links stay as they were
            params["holdout"] = str(spec.holdout_percent)
    if view_size is not None:
        params["view"] = str(view_size)
    return params


def link_text(text: str) -> str | None:
    """A page's text as its URL keeps it: short texts only (None: leave it out)."""
    return text if 0 < len(text) <= MAX_LINK_TEXT else None


def update(params: MutableMapping[str, str], wanted: dict[str, str | None]) -> None:
    """Set the URL's parameters to `wanted` (None removes one), touching only changes.

    >>> url = {"run": "a", "token": "300"}
    >>> update(url, {"run": "b", "token": None}); url
    {'run': 'b'}
    """
    for name, value in wanted.items():
        if value is None:
            if name in params:
                del params[name]
        elif params.get(name) != value:
            params[name] = value


def sync_url(
    params: MutableMapping[str, str], page: str, spec: RunSpec, view_size: int | None
) -> None:
    """The shell's part of every URL: the run, and no other page's own parameters."""
    wanted: dict[str, str | None] = dict.fromkeys(RUN_PARAMS)
    wanted.update(url_params(spec, view_size))
    if page in PAGES_READING_HUB:
        del wanted["hub"]  # the page's own
    for other, names in PAGE_PARAMS.items():
        if other != page:
            wanted.update(dict.fromkeys(names))
    update(params, wanted)
