"""Compare: two tokenizers' merges side by side — what both learned (a scatter of merge
number in A against merge number in B), what only one learned (searchable tables), and
the first merge at which they part ways. The comparison is explorer.analysis.diffs.merge_diff's.

    >>> token_label(b" the"), token_label("’".encode()[:2])
    ('·the', '<0xE2><0x80>')
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import altair as alt
import pandas as pd
import streamlit as st

from explorer import Tokenizer, render_token
from explorer.analysis.diffs.merge_diff import LoneMerge, MergeDiff, merge_diff, merge_tokens
from ui.compare.pair.side import Side
from ui.session import state as keys
from ui.views.cells import cut_columns
from ui.views.formatting import markdown_text, plural
from ui.views.token_view import fmt_int

MAX_POINTS = 5_000  # points drawn in the scatter; more are thinned evenly
MAX_ROWS = 5_000  # rows a table shows; its CSV holds every row
TABLE_COLUMNS = ["Merge", "Token", "Bytes (hex)", "Length"]
POINT_COLOR = "#4C78A8"
TITLE = "When each shared merge was learned, in A and in B"


@st.cache_resource(max_entries=8, ttl="1h", show_spinner=False)
def diff_cached(_a: Tokenizer, key_a: str, _b: Tokenizer, key_b: str) -> MergeDiff:
    """The two tokenizers' merges compared (keys name a run at a size)."""
    return merge_diff(merge_tokens(_a), merge_tokens(_b))


def token_label(token: bytes) -> str:
    """A token as printable text: spaces as ·, control characters escaped, broken UTF-8 in hex."""
    return render_token(token, visible_whitespace=True)


def scatter_frame(diff: MergeDiff, max_points: int = MAX_POINTS) -> pd.DataFrame:
    """One row per shared merge (evenly thinned to `max_points`): both numbers, the token."""
    shared = diff.shared
    if len(shared) > max_points:
        step = (len(shared) - 1) / (max_points - 1)
        shared = tuple(shared[round(i * step)] for i in range(max_points))
    return pd.DataFrame(
        {
            "Merge in A": [m.merge_a for m in shared],
            "Merge in B": [m.merge_b for m in shared],
            "Token": [token_label(m.token) for m in shared],
            "Bytes (hex)": [m.token.hex(" ").upper() for m in shared],
        }
    )


def scatter_chart(frame: pd.DataFrame, a: Side, b: Side) -> alt.LayerChart:
    """Merge number in A against merge number in B, a diagonal where they are equal."""
    top = max(a.size, b.size) - 256
    points = (
        alt.Chart(cut_columns(frame, ["Token", "Bytes (hex)"]))
        .mark_circle(size=22, opacity=0.55, color=POINT_COLOR)
        .encode(
            x=alt.X(
                "Merge in A:Q", title=f"Merge number in A ({a.name})", axis=alt.Axis(format=",d")
            ),
            y=alt.Y(
                "Merge in B:Q", title=f"Merge number in B ({b.name})", axis=alt.Axis(format=",d")
            ),
            tooltip=[
                alt.Tooltip("Token:N"),
                alt.Tooltip("Bytes (hex):N"),
                alt.Tooltip("Merge in A:Q", format=",d"),
                alt.Tooltip("Merge in B:Q", format=",d"),
            ],
        )
    )
    diagonal = (
        alt.Chart(pd.DataFrame({"Merge in A": [1, top], "Merge in B": [1, top]}))
        .mark_line(color="#767676", strokeDash=[4, 4])
        .encode(x="Merge in A:Q", y="Merge in B:Q")
    )
    subtitle = (
        "Each point is a token both learned. On the dashed diagonal both learned it at the "
        "same merge; above it, B learned it later. Hover for the token; drag to pan, scroll "
        "to zoom."
    )
    layers = alt.layer(diagonal, points)
    # alt.layer makes a FacetChart only when every layer has the same row/column/facet
    # encoding; none of these has one
    assert isinstance(layers, alt.LayerChart)
    return layers.properties(title=alt.Title(TITLE, subtitle=subtitle), height=420).interactive()


def lone_frame(merges: Sequence[LoneMerge]) -> pd.DataFrame:
    """Merges only one tokenizer learned: number, printable token, hex, length in bytes."""
    return pd.DataFrame(
        {
            "Merge": [m.merge for m in merges],
            "Token": [token_label(m.token) for m in merges],
            "Bytes (hex)": [m.token.hex(" ").upper() for m in merges],
            "Length": [len(m.token) for m in merges],
        },
        columns=TABLE_COLUMNS,
    )


@st.cache_resource(max_entries=16, ttl="1h", show_spinner=False)
def lone_frame_cached(_merges: Sequence[LoneMerge], table_key: str) -> pd.DataFrame:
    """lone_frame, once per table (GPT-4o's in full has ~190,000 rows): do not change it."""
    return lone_frame(_merges)


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """A table as CSV, made when the user asks for it (a download button's callable)."""
    return frame.to_csv(index=False).encode("utf-8")


def filtered(frame: pd.DataFrame, query: str) -> pd.DataFrame:
    """Rows whose token (as shown, or with real spaces) or hex contains the query."""
    query = query.strip("\n").casefold()
    if not query:
        return frame
    shown = frame["Token"].str.casefold()
    spaced = shown.str.replace("·", " ", regex=False)
    hex_digits = frame["Bytes (hex)"].str.replace(" ", "", regex=False).str.casefold()
    wanted = (
        shown.str.contains(query, regex=False)
        | spaced.str.contains(query, regex=False)
        | hex_digits.str.contains(query.replace(" ", ""), regex=False)
    )
    return frame[wanted]


def metrics(diff: MergeDiff, a: Side, b: Side) -> None:
    """Shared, only A, only B and the first divergence, in four columns."""
    first = diff.first_divergence
    cells = [
        (
            "Merges both learned",
            fmt_int(len(diff.shared)),
            f"of A's {fmt_int(diff.merges_a)} and B's {fmt_int(diff.merges_b)}",
        ),
        (
            "Only A learned",
            fmt_int(len(diff.only_a)),
            f"merges of {markdown_text(a.name)} that {markdown_text(b.name)} lacks",
        ),
        (
            "Only B learned",
            fmt_int(len(diff.only_b)),
            f"merges of {markdown_text(b.name)} that {markdown_text(a.name)} lacks",
        ),
        (
            "First divergence",
            "none" if first is None else f"merge {fmt_int(first)}",
            "the first merge number at which A and B make different tokens",
        ),
    ]
    for column, (label, value, help_text) in zip(st.columns(4), cells):
        column.metric(label, value, help=help_text)


def divergence_sentence(diff: MergeDiff, a: Side, b: Side) -> str:
    """Where the two lists part, in words (Markdown)."""
    first = diff.first_divergence
    if first is None:
        return "A and B learned the same merges in the same order."
    at_a, at_b = merge_tokens_at(a, first), merge_tokens_at(b, first)
    if at_a is None or at_b is None:
        shorter = "A" if at_a is None else "B"
        last = fmt_int(first - 1)
        return f"A and B agree merge for merge until {shorter} stops, after merge {last}."
    agreed = "merge" if first == 2 else plural(first - 1, "merge")
    before = "A and B part" if first == 1 else f"A and B agree on their first {agreed}, then part"
    return (
        f"{before} at merge {fmt_int(first)}: A makes “{markdown_text(at_a)}”, "
        f"B makes “{markdown_text(at_b)}”."
    )


def merge_tokens_at(side: Side, number: int) -> str | None:
    """The printable token merge `number` of a side makes, None past its last merge."""
    if number > len(side.tokenizer.merges):
        return None
    return token_label(side.tokenizer.vocab[255 + number])


def lone_table(
    title: str, merges: Sequence[LoneMerge], query_key: str, file_name: str, table_key: str
) -> None:
    """A searchable table of merges one tokenizer alone learned, with a CSV download."""
    st.markdown(f"**{markdown_text(title)}**")
    if not merges:
        st.caption("None: the other tokenizer learned every one of these merges.")
        return
    query = st.text_input(
        "Filter",
        key=query_key,
        persist_state="session",  # kept while another of Compare's tabs is open
        placeholder="text or hex, e.g. ing or E2 80",
        help="Shows the merges whose token contains this text (· or a space for spaces), "
        "or whose bytes contain these hex digits.",
    )
    rows = filtered(lone_frame_cached(merges, table_key), query)
    shown = rows.head(MAX_ROWS)
    shown = cut_columns(shown, ["Token", "Bytes (hex)"])  # a token can be the whole text
    st.dataframe(shown, hide_index=True, width="stretch", height=320)
    cut = f"; the first {fmt_int(MAX_ROWS)} are shown" if len(rows) > MAX_ROWS else ""
    st.caption(f"{plural(len(rows), 'merge')}{' match' if query else ''}{cut}.")
    st.download_button(
        "Download as CSV",
        partial(csv_bytes, rows),  # only when clicked: ~2 s for GPT-4o's in full
        file_name=file_name,
        mime="text/csv",
        key=f"{query_key}_csv",
        on_click="ignore",
        icon=":material/download:",
    )


def merges_section(a: Side, b: Side) -> None:
    """The merge-by-merge comparison of A and B, or why there is none to draw."""
    if a.key == b.key:
        st.info(
            f"A and B are the same tokenizer, {markdown_text(a.name)}, at the same size: every "
            "merge is shared. Choose another tokenizer for B."
        )
        return
    empty = [side for side in (a, b) if not side.tokenizer.merges]
    if empty:
        names = " and ".join(f"{s.letter} ({markdown_text(s.name)})" for s in empty)
        st.info(
            f"{names} {'has' if len(empty) == 1 else 'have'} no merges at vocab size 256 "
            "(bytes only), so there is nothing to "
            "compare merge by merge. Raise the sidebar's view size or choose another tokenizer."
        )
        return
    diff = diff_cached(a.tokenizer, a.key, b.tokenizer, b.key)
    metrics(diff, a, b)
    st.markdown(divergence_sentence(diff, a, b))
    if diff.shared:
        frame = scatter_frame(diff)
        st.altair_chart(scatter_chart(frame, a, b), width="stretch")
        if len(frame) < len(diff.shared):
            st.caption(
                f"{fmt_int(len(frame))} of the {fmt_int(len(diff.shared))} shared merges are "
                "drawn, evenly spaced in A's order."
            )
    else:
        st.info("A and B share no merge: no token of one is a token of the other.")
    left, right = st.columns(2)
    with left:
        lone_table(
            f"Only A learned · {a.name}",
            diff.only_a,
            keys.COMPARE_ONLY_A_QUERY,
            "merges-only-in-a.csv",
            f"{a.key}|{b.key}|A",
        )
    with right:
        lone_table(
            f"Only B learned · {b.name}",
            diff.only_b,
            keys.COMPARE_ONLY_B_QUERY,
            "merges-only-in-b.csv",
            f"{a.key}|{b.key}|B",
        )
