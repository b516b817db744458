"""Compare real models: pick two to six tokenizers — the session's, the bundled ones, Hub
names — and see them on 26 languages, one passage side by side, and their overlap.

The picker takes any name typed in as a Hub name. The page's link says the comparison
(ui/session/links/compare_link.py): a link with `hub=` or `with=` opens it, and every
change is written back, so the address bar always reproduces what is on screen.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from explorer.models.hub_files import HubError
from ui.compare.models.choices import (
    Choice,
    bundled_label,
    choice_by_key,
    choice_labels,
    choice_of,
    open_member,
    session_choices,
)
from ui.compare.models.languages import (
    METRICS,
    models_chart,
    models_frame,
)
from ui.compare.models.members import Member
from ui.compare.models.overlap import models_overlap_section
from ui.compare.models.passage import models_passage_section
from ui.session import state as keys
from ui.session.links import compare_link, urls
from ui.session.runs import current_spec
from ui.session.samples import udhr_texts
from ui.views.formatting import markdown_text
from ui.views.shared_charts import show_chart

TAB = "Real models"  # its tab on Compare, and ?compare_section= in a link to it
# the picker holds compare_link.MIN_MEMBERS to MAX_MEMBERS: two to six
PLACEHOLDER = "Choose, or type a Hub name such as Qwen/Qwen3-0.6B"


def first_choices(known: dict[str, Choice]) -> list[str]:
    """What the picker holds when the page first opens: the link's comparison, else the
    sidebar's tokenizer and GPT-4o (GPT-4 when the sidebar's is GPT-4o)."""
    link = compare_link.read_compare_link(st.query_params.to_dict())
    if link is None:
        own = current_spec().name
        other = bundled_label("o200k_base")
        return [own, bundled_label("cl100k_base") if own == other else other]
    for note in link.notes:
        st.info(markdown_text(note), icon=":material/info:")
    labels = []
    for key in link.runs:
        choice = choice_by_key(key, known)
        if choice is None:
            st.info(
                f"This link's run {markdown_text(key[:40])} is not in this session, so the "
                "comparison goes on without it.",
                icon=":material/link_off:",
            )
        else:
            labels.append(choice.label)
    return list(dict.fromkeys([*labels, *link.hub]))


def picked_choices(known: dict[str, Choice]) -> list[Choice]:
    """The picker, seeded once per session; the choices it holds, in its order."""
    state = st.session_state
    if keys.COMPARE_MODELS not in state:
        state[keys.COMPARE_MODELS] = first_choices(known)
    options = choice_labels(known)
    options += [label for label in state[keys.COMPARE_MODELS] if label not in options]
    picked = st.multiselect(
        "Tokenizers to compare (two to six)",
        options,
        key=keys.COMPARE_MODELS,
        max_selections=compare_link.MAX_MEMBERS,
        accept_new_options=True,
        placeholder=PLACEHOLDER,
        help="This session's tokenizers, GPT-2's, GPT-4's and GPT-4o's vocabularies, or any "
        "model on the Hugging Face Hub by its name (owner/name).",
    )
    return [choice_of(label, known) for label in picked]


def write_link(choices: Sequence[Choice]) -> None:
    """The address bar says this comparison (hub=, with=; run= is the shell's)."""
    hub = [c.label for c in choices if c.is_hub]
    runs = [c.link_key for c in choices if not c.is_hub]
    sidebar = current_spec().store_key
    urls.update(st.query_params, compare_link.compare_params(hub, runs, sidebar=sidebar))


def opened_members(choices: Sequence[Choice]) -> list[Member]:
    """The members the choices open; one that cannot gets one sentence and is left out."""
    members = []
    for choice in choices:
        try:
            with st.spinner(f"Opening {markdown_text(choice.label)}…"):
                members.append(open_member(choice))
        except HubError as exc:  # a Hub name: its one sentence names it
            st.error(markdown_text(str(exc)), icon=":material/error:")
        except ValueError as exc:
            st.error(
                f"{markdown_text(choice.label)} could not be opened: "
                f"{markdown_text(str(exc).rstrip('.'))}.",
                icon=":material/error:",
            )
    return members


def models_section() -> None:
    """Pick the tokenizers, then the languages chart, the passage and the overlap."""
    st.header("Compare real models")
    known = session_choices()
    choices = picked_choices(known)
    write_link(choices)
    members = opened_members(choices)
    if len(members) < compare_link.MIN_MEMBERS:
        st.info(
            "Choose two to six tokenizers: this session's, GPT's bundled vocabularies, or a "
            "model's Hub name typed into the box (for example meta-llama/Meta-Llama-3-8B)."
        )
        return
    models_languages(members)
    models_passage_section(members)
    models_overlap_section(members)


def models_languages(members: Sequence[Member]) -> None:
    """The 26 languages under every member, as the chosen measure, with its table."""
    metric = st.radio(
        "Measure",
        METRICS,
        horizontal=True,
        key=keys.COMPARE_MODELS_METRIC,
    )
    texts = udhr_texts()
    with st.spinner(f"Encoding the declaration in {len(texts)} languages…"):
        frame = models_frame(members, texts)
    show_chart(
        ("models-languages", metric, *(m.key for m in members)),
        lambda: models_chart(frame, metric),
    )
    with st.expander("The numbers"):
        st.dataframe(frame, hide_index=True, width="stretch")
