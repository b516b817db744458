"""A .model loaded with its merge history: a corpus trained outside the app, explored whole.

`python -m explorer train corpus.txt --vocab-size N --output big` writes big.model and
big.history.json. Uploaded together, they make a run with everything a run trained in
the app has (counts, ties, corpus lengths, token usage) except the training text, which
stays where it was trained. No Streamlit calls here: plain functions, tested directly.

    >>> pair_histories(["big.model", "small.model"], ["small.history.json"])
    {'small.history.json': 'small.model'}
    >>> pair_histories(["tok.model"], ["renamed.json"])  # a lone pair goes together
    {'renamed.json': 'tok.model'}
"""

from __future__ import annotations

from collections.abc import Sequence

from explorer import MergeHistory, Tokenizer, parse_history_json, parse_model

HISTORY_KIND = "model_history"  # RunSpec.kind of a .model loaded with its history
HISTORY_SUFFIXES = (".history.json", "-history.json", "_history.json")  # CLI, app download
MODEL_SUFFIXES = (".model", ".json")


class HistoryUploadError(ValueError):
    """A history file the loader cannot use: alone, ambiguous, or another tokenizer's."""


def is_history_name(name: str) -> bool:
    """Whether a file name says it holds a merge history.

    >>> is_history_name("big.history.json"), is_history_name("Big-History.JSON")
    (True, True)
    >>> is_history_name("history.json"), is_history_name("merges.json")
    (False, False)
    """
    lower = name.casefold()
    return any(lower.endswith(suffix) and len(lower) > len(suffix) for suffix in HISTORY_SUFFIXES)


def history_stem(name: str) -> str:
    """The file name a history shares with its .model: `history_stem("big.history.json")`
    is "big", as is `history_stem("big-history.json")` (the app's download)."""
    lower = name.casefold()
    suffix = next((s for s in HISTORY_SUFFIXES if lower.endswith(s)), ".json")
    return name[: -len(suffix)] if lower.endswith(suffix) else name


def model_stem(name: str) -> str:
    """The stem of a .model or merges JSON: `model_stem("big.model") == "big"`."""
    lower = name.casefold()
    suffix = next((s for s in MODEL_SUFFIXES if lower.endswith(s)), "")
    return name[: -len(suffix)] if suffix else name


def pair_histories(
    models: Sequence[str], histories: Sequence[str], earlier: Sequence[str] = ()
) -> dict[str, str]:
    """The .model (by file name) each history belongs to, as {history: model}.

    A history goes with the model of the same stem (big.history.json with big.model),
    looked for first among `models` (uploaded with it), then among `earlier` (loaded
    before and still in the uploader). Failing that, one history goes with the one
    model uploaded with it, or else with the one model loaded before. Raises
    HistoryUploadError saying what to upload when a history has no model or several.

    >>> pair_histories(["a.model"], ["a.history.json"], earlier=["b.model"])
    {'a.history.json': 'a.model'}
    >>> pair_histories([], ["b-history.json"], earlier=["b.model", "c.model"])
    {'b-history.json': 'b.model'}
    """
    by_stem = {model_stem(name).casefold(): name for name in [*earlier, *models]}
    owners: dict[str, str] = {}
    for history in histories:
        model = by_stem.get(history_stem(history).casefold())
        if model is not None:
            owners[history] = model
    alone = [history for history in histories if history not in owners]
    if len(alone) == 1:
        free_models = [name for name in models if name not in owners.values()]
        free_earlier = [name for name in earlier if name not in owners.values()]
        candidates = free_models or free_earlier
        if len(candidates) == 1:
            owners[alone[0]] = candidates[0]
    for history in histories:
        if history not in owners:
            raise HistoryUploadError(_no_model_message(history, [*models, *earlier]))
    _check_one_history_each(owners)
    return {history: owners[history] for history in histories}


def _no_model_message(history: str, models: Sequence[str]) -> str:
    stem = history_stem(history)
    if not models:
        return (
            f"{history} is a merge history, which needs the tokenizer it was trained with: "
            f"upload {stem}.model (written beside it by `python -m explorer train`) together "
            "with it."
        )
    return (
        f"{history}: which .model is it the history of? Name the two files alike, as "
        f"{stem}.model and {stem}.history.json, or load one .model with its history at a time."
    )


def _check_one_history_each(owners: dict[str, str]) -> None:
    """Refuse two histories for one .model: only one of them can be its own."""
    seen: dict[str, str] = {}
    for history, model in owners.items():
        if model in seen:
            raise HistoryUploadError(
                f"{seen[model]} and {history} are both histories of {model}; "
                "upload only the one written with it."
            )
        seen[model] = history


def history_mismatch(
    tokenizer: Tokenizer, history: MergeHistory, model_name: str, history_name: str
) -> str:
    """Why a history is not the tokenizer's own ("" when it is): the first merge that differs.

    >>> from explorer import train
    >>> mine = train("aaabdaaabac", 259, pattern="none")
    >>> history_mismatch(mine.tokenizer, mine.history, "t.model", "t.history.json")
    ''
    >>> other = Tokenizer([(97, 97), (256, 98), (97, 98)])
    >>> print(history_mismatch(other, mine.history, "t.model", "u.history.json").split(". ")[0])
    u.history.json belongs to another tokenizer: its merge 1 is (256, 97), t.model's is (256, 98)
    """
    fix = f"Upload the history written together with {model_name}."
    steps = history.merges
    for rank, (theirs, ours) in enumerate(zip(steps, tokenizer.merges)):
        if theirs != ours:
            return (
                f"{history_name} belongs to another tokenizer: its merge {rank} is {theirs}, "
                f"{model_name}'s is {ours}. {fix}"
            )
    if len(steps) != len(tokenizer.merges):
        return (
            f"{history_name} has {len(steps):,} merges but {model_name} has "
            f"{len(tokenizer.merges):,}: they come from different training runs. {fix}"
        )
    return ""


def parse_history_for(
    tokenizer: Tokenizer, history_text: str, *, model_name: str, history_name: str
) -> MergeHistory:
    """The history in `history_text`, checked against the tokenizer's merges.

    Raises FormatError (malformed history, naming the key at fault) or
    HistoryUploadError (another tokenizer's history).
    """
    history = parse_history_json(history_text, source=history_name)
    problem = history_mismatch(tokenizer, history, model_name, history_name)
    if problem:
        raise HistoryUploadError(problem)
    return history


def parse_model_with_history(
    model_text: str,
    history_text: str,
    *,
    model_name: str = "the .model",
    history_name: str = "the history file",
) -> tuple[Tokenizer, MergeHistory]:
    """A tokenizer and its checked history, from the texts of big.model and big.history.json."""
    tokenizer = parse_model(model_text, source=model_name)
    history = parse_history_for(
        tokenizer, history_text, model_name=model_name, history_name=history_name
    )
    return tokenizer, history


def loaded_source(model_name: str, history_name: str) -> str:
    """What the sidebar calls such a run.

    >>> loaded_source("big.model", "big.history.json")
    'big.model with its merge history (big.history.json), trained outside the app'
    """
    return f"{model_name} with its merge history ({history_name}), trained outside the app"
