"""Compare: two tokenizers, A and B, chosen from the session's runs and OpenAI's three,
each at the size the app views it; then their merges (ui/compare_merges.py) and where
they split the page's passage differently (ui/compare_splits.py).

A session run is compared at its viewed size (the sidebar's for the sidebar's run, its
full size otherwise). OpenAI's vocabularies are long (GPT-4o makes 199,998 merges), so
unless the user asks for them in full, one is cut to the size of the other side:

    >>> compared_sizes(2_000, False, 200_255, True, full=False)
    (2000, 2000)
    >>> compared_sizes(50_257, True, 100_256, True, full=False)  # both OpenAI's: the smaller
    (50257, 50257)
    >>> compared_sizes(2_000, False, 200_255, True, full=True)
    (2000, 200255)
"""

from __future__ import annotations

import streamlit as st

from ui import state as keys
from ui.compare_merges import merges_section
from ui.compare_side import Side
from ui.compare_splits import splits_section
from ui.run_cache import tokenizer_at
from ui.run_spec import BUNDLED_RUNS, RunKind, RunSpec
from ui.runs import Run, bundled_spec, load_run, run_specs, view_vocab_size
from ui.token_view import fmt_int, preset

EXAMPLE = (
    "Try: train one text twice on the Train page, with pattern `none` and with `gpt4`, and "
    "compare the two here. `none` lets merges cross spaces and punctuation, so the two part "
    "ways within a few merges and `none` learns tokens such as `e t` that `gpt4` never can."
)


def compared_sizes(
    size_a: int, bundled_a: bool, size_b: int, bundled_b: bool, *, full: bool
) -> tuple[int, int]:
    """The vocab sizes to compare: OpenAI's cut to the other side's size unless `full`."""
    if full or not (bundled_a or bundled_b):
        return size_a, size_b
    if bundled_a and bundled_b:
        smaller = min(size_a, size_b)
        return smaller, smaller
    return (min(size_a, size_b), size_b) if bundled_a else (size_a, min(size_a, size_b))


PREFERRED_B = ("GPT-4 · cl100k_base", "GPT-4o · o200k_base")  # B when the session has one run


def bundled_choices() -> dict[str, str]:
    """OpenAI's vocabularies by the name a run of them has: "GPT-4 · cl100k_base"."""
    return {f"{title} · {name}": name for name, (title, _) in BUNDLED_RUNS.items()}


def choose(run: Run) -> tuple[Run, Run] | None:
    """The A and B pickers (A starts as the sidebar's run); None after an error is shown."""
    session = {spec.name: spec for spec in run_specs()}
    bundled = {name: key for name, key in bundled_choices().items() if name not in session}
    names = [*session, *bundled]
    others = [name for name in session if name != run.spec.name]
    default_b = others[-1] if others else next(n for n in PREFERRED_B if n != run.spec.name)
    if keys.follow_run(st.session_state, keys.COMPARE_PAIR_RUN, run.spec.name):
        st.session_state[keys.COMPARE_PAIR_A] = run.spec.name  # a new sidebar run is A
        st.session_state[keys.COMPARE_PAIR_B] = default_b
    preset(keys.COMPARE_PAIR_A, run.spec.name, lambda name: name in names)
    preset(keys.COMPARE_PAIR_B, default_b, lambda name: name in names)
    picked = []
    for column, key, letter in zip(st.columns(2), (keys.COMPARE_PAIR_A, keys.COMPARE_PAIR_B), "AB"):
        with column:
            name = st.selectbox(letter, names, key=key, persist_state="session")
            picked.append(session.get(name) or bundled[name])
    try:
        with st.spinner("Loading the two tokenizers…"):
            return _load(picked[0]), _load(picked[1])
    except ValueError as exc:  # a loaded file no longer in the session, a bundled file altered
        st.error(f"The tokenizers could not be loaded: {exc}")
        return None


def _load(choice: RunSpec | str) -> Run:
    """A session run, or a bundled vocabulary by its name ("cl100k_base")."""
    return load_run(bundled_spec(choice) if isinstance(choice, str) else choice)


def sides(run_a: Run, run_b: Run) -> tuple[Side, Side]:
    """A and B at the sizes compared; the toggle for OpenAI's in full when one side is theirs."""
    bundled_a, bundled_b = (r.spec.kind is RunKind.BUNDLED for r in (run_a, run_b))
    full = False
    if bundled_a or bundled_b:
        full = st.toggle(
            "OpenAI's vocabularies in full",
            key=keys.COMPARE_PAIR_FULL,
            persist_state="session",
            help="Off, an OpenAI vocabulary is cut to the size of the other tokenizer, so "
            "the two are compared merge for merge and the page stays quick.",
        )
    size_a, size_b = compared_sizes(
        view_vocab_size(run_a), bundled_a, view_vocab_size(run_b), bundled_b, full=full
    )
    pair = (
        Side("A", run_a, size_a, tokenizer_at(run_a.tokenizer, run_a.key, size_a)),
        Side("B", run_b, size_b, tokenizer_at(run_b.tokenizer, run_b.key, size_b)),
    )
    st.caption(" · ".join(_size_note(side) for side in pair))
    return pair


def _size_note(side: Side) -> str:
    """How far a side is compared: "A at vocab size 2,000 (1,744 merges, its full size)"."""
    full = side.run.tokenizer.vocab_size
    extent = "all of them" if side.size == full else f"of {fmt_int(full - 256)}"
    merges = fmt_int(side.size - 256)
    return f"{side.letter} at vocab size {fmt_int(side.size)}: {merges} merges, {extent}"


def pair_section(run: Run) -> None:
    """Two tokenizers: their merges compared, and where they split the passage differently."""
    st.subheader("Two tokenizers, merge by merge")
    st.caption(EXAMPLE)
    chosen = choose(run)
    if chosen is None:
        return
    a, b = sides(*chosen)
    merges_tab, splits_tab = st.tabs(["Merge by merge", "Where they split the passage"])
    with merges_tab:
        merges_section(a, b)
    with splits_tab:
        splits_section(a, b)
