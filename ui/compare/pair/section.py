"""Compare: two tokenizers, A and B, chosen from the session's runs and OpenAI's three,
each at the size the app views it; then their merges (ui/compare/pair/merges.py) and where
they split a passage differently (ui/compare/pair/splits.py): the passage of "One passage,
side by side", in a text box of its own here too, as that tab may not have been opened.

A session run is compared at its viewed size (the sidebar's for the sidebar's run, its
full size otherwise). OpenAI's vocabularies are long (GPT-4o makes 199,742 merges), so
unless the user asks for them in full, one is cut to the size of the other side:

    >>> compared_sizes(2_000, False, 199_998, True, full=False)
    (2000, 2000)
    >>> compared_sizes(50_257, True, 100_256, True, full=False)  # both OpenAI's: the smaller
    (50257, 50257)
    >>> compared_sizes(2_000, False, 199_998, True, full=True)
    (2000, 199998)
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from ui.compare.pair.merges import merges_section
from ui.compare.pair.side import Side
from ui.compare.pair.splits import splits_section
from ui.compare.passage import passage_input
from ui.session import state as keys
from ui.session.run_cache import tokenizer_at
from ui.session.run_spec import BUNDLED_RUNS, RunKind, RunSpec, run_name
from ui.session.runs import (
    Run,
    add_run,
    bundled_spec,
    load_run,
    texts_of,
    tokenizer_specs,
    train_spec,
    view_vocab_size,
)
from ui.views.formatting import markdown_text
from ui.views.token_view import fmt_int, preset

EXAMPLE = (
    "Try one text trained twice, with pattern `none` and with `gpt4`: `none` lets merges "
    "cross spaces and punctuation, so the two part at once, and `none` learns tokens that "
    "end in a space, such as “the ” and “, ”, which `gpt4` never makes."
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
    """The A and B pickers; None after an error is shown.

    A follows the sidebar's run; when that changes, B becomes the run it replaced.
    """
    session = {spec.name: spec for spec in tokenizer_specs()}
    bundled = {name: key for name, key in bundled_choices().items() if name not in session}
    names = [*session, *bundled]
    others = [name for name in session if name != run.spec.name]
    default_b = others[-1] if others else next(n for n in PREFERRED_B if n != run.spec.name)
    before = st.session_state.get(keys.COMPARE_PAIR_RUN)
    if keys.follow_run(st.session_state, keys.COMPARE_PAIR_RUN, run.spec.name):
        # a new sidebar run is A, and the one it replaced (if any) B
        st.session_state[keys.COMPARE_PAIR_A] = run.spec.name
        st.session_state[keys.COMPARE_PAIR_B] = before if before in session else default_b
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
        st.error(f"The tokenizers could not be loaded: {markdown_text(str(exc))}")
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


def example_spec(spec: RunSpec) -> RunSpec | None:
    """The sidebar's run trained again with the other of `none` and `gpt4`, as Train would
    name it; None for a run the app did not train on a text.

    >>> example_spec(RunSpec("Shakespeare · gpt4 · 2k", "s", "k", 2000, "gpt4")).name
    'Shakespeare · none · 2k'
    """
    if spec.kind is not RunKind.TEXT:
        return None
    pattern = "gpt4" if spec.pattern == "none" else "none"
    source = spec.name.split(" · ")[0]  # run_name's first part: the corpus's short name
    return replace(spec, name=run_name(source, pattern, spec.vocab_size), pattern=pattern)


def example_button(run: Run) -> None:
    """The suggested comparison, and a button that trains it (then A is the new run)."""
    other = example_spec(run.spec)
    if other is None:
        st.caption(EXAMPLE)
        return
    text, button = st.columns([3, 1], vertical_alignment="center")
    text.caption(EXAMPLE)
    label = f"Train with `{other.pattern}` and compare"
    if button.button(label, key=keys.COMPARE_PAIR_EXAMPLE, width="stretch"):
        texts = texts_of(run.spec)
        with st.spinner(f"Training {markdown_text(other.name)}…"):
            train_spec(other, texts)
        add_run(other, texts)  # the new run becomes the sidebar's, so A; B the one before
        st.rerun()


def pair_section(run: Run) -> None:
    """Two tokenizers: their merges compared, and where they split the passage differently."""
    st.header("Two tokenizers, merge by merge")
    example_button(run)
    chosen = choose(run)
    if chosen is None:
        return
    a, b = sides(*chosen)
    merges_tab, splits_tab = st.tabs(["Merge by merge", "Where they split the passage"])
    with merges_tab:
        merges_section(a, b)
    with splits_tab:
        splits_section(a, b, passage_input(run))
