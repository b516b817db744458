"""The overlay's figures: one encode per run and text (kept per run and text digest, so a
rerun, another measure or other sizes cost no encode), then every metric at the sizes
asked for (explorer.analysis.compression.metrics).

A text above ENCODE_HERE_MAX_CHARS, or a run whose pattern is not a preset, is encoded in
a child Python (ui.server.heavy_work: the server's slots and queue, the page's regex
time), a block at a time with a progress bar; smaller work stays here, where it is
quicker than starting a child.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from explorer.analysis.compression.block_counts import counts_in_blocks
from explorer.analysis.compression.metrics import MetricCounts, SizeMetrics, metrics_at
from explorer.encoding.regex_budget import BudgetSpent
from explorer.encoding.tokenizer import Tokenizer
from ui.compare.overlay.texts import EvalText
from ui.server.child_jobs import JobCancelled
from ui.server.heavy_work import WAITING, in_a_child, is_preset
from ui.server.lru import SharedLru
from ui.session.runs import Run
from ui.views.formatting import markdown_text, plural

# count_text of 1 MB took 0.44-0.56 s here (Shakespeare 2k to GPT-4o), and a child costs
# 0.1-0.35 s to start (heavy_work): above this, the child keeps the server's pages moving
ENCODE_HERE_MAX_CHARS = 512 * 1024
# a run's counts hold one entry per distinct id of the text (and of its merge trees);
# 1 MB of mixed text under GPT-4o gives ~60,000: the bound keeps ~30 such texts
_counts = SharedLru(64, max_weight=2_000_000)
_metrics = SharedLru(256)


@dataclass(frozen=True)
class RunFigures:
    """One run's metrics on the text at the sizes asked for (those it has)."""

    run: Run
    by_size: dict[int, SizeMetrics]

    @property
    def name(self) -> str:
        return self.run.spec.name

    @property
    def full(self) -> int:
        return full_size(self.run)


def full_size(run: Run) -> int:
    """The largest vocab size the metrics have for a run: the bytes and every merge
    (special tokens are not counted)."""
    return 256 + len(run.tokenizer.merges)


def count_run(
    tokenizer: Tokenizer, text: str, progress: Callable[[str, int, int], None] | None = None
) -> MetricCounts:
    """The text's counts under the tokenizer: here when small and a preset, else in a child."""
    if len(text) <= ENCODE_HERE_MAX_CHARS and is_preset(tokenizer.pattern):
        return counts_in_blocks(tokenizer, text, progress=progress)
    return in_a_child(counts_in_blocks, tokenizer, text, progress=progress)


def _weight(counts: MetricCounts) -> int:
    return len(counts.final) + len(counts.inner_joins) + len(counts.whole_until)


def cached_counts(run: Run, text: EvalText) -> MetricCounts | None:
    """The counts already kept for this run and text, if any."""
    return _counts.get((run.key, text.digest))


def run_counts(
    run: Run, text: EvalText, progress: Callable[[str, int, int], None] | None = None
) -> MetricCounts:
    """The counts of the text under the run (one encode, kept for every session)."""
    return _counts.get_or_make(
        (run.key, text.digest), lambda: count_run(run.tokenizer, text.text, progress), _weight
    )


def run_figures(run: Run, text: EvalText, counts: MetricCounts, sizes: Sequence[int]) -> RunFigures:
    """The run's metrics at the sizes in `sizes` it has (kept per run, text and sizes)."""
    own = tuple(sorted({size for size in sizes if 256 <= size <= full_size(run)}))
    found = _metrics.get_or_make(
        (run.key, text.digest, own), lambda: tuple(metrics_at(run.tokenizer, counts, own)), len
    )
    return RunFigures(run, {m.size: m for m in found})


def measure_runs(runs: Sequence[Run], text: EvalText, sizes: Sequence[int]) -> list[RunFigures]:
    """Every run's figures on the text; the encodes not kept yet run behind a progress bar.
    A run whose encode fails is left out with a sentence saying why."""
    missing = [run for run in runs if cached_counts(run, text) is None]
    bar = st.progress(0.0, text="Encoding…") if missing else None
    figures: list[RunFigures] = []
    for run in runs:
        report = None
        if bar is not None and run in missing:
            report = _reporter(bar, run.spec.name, missing.index(run), len(missing))
        try:
            counts = run_counts(run, text, report)
        except JobCancelled:  # the session has gone: nobody is left to show it to
            break
        except (ValueError, BudgetSpent) as exc:
            st.warning(
                f"{markdown_text(run.spec.name)} is left out: its encode of this text "
                f"stopped ({markdown_text(str(exc).rstrip('.'))})."
            )
            continue
        figures.append(run_figures(run, text, counts, sizes))
    if bar is not None:
        bar.empty()
    return figures


def _reporter(
    bar: DeltaGenerator, name: str, index: int, count: int
) -> Callable[[str, int, int], None]:
    """Progress of run `index` of `count` as the bar's fraction and a sentence."""
    which = f"{markdown_text(name)} ({index + 1:,} of {count:,})"

    def report(phase: str, done: int, total: int) -> None:
        if phase == WAITING:  # done is the number of jobs ahead in the server's queue
            bar.progress(
                index / count, text=f"{which}: waiting for the server, {plural(done, 'job')} ahead…"
            )
            return
        share = done / total if total else 1.0
        bar.progress(
            min(1.0, (index + share) / count),
            text=f"Encoding the text with {which}: {done / 2**20:.1f} of {total / 2**20:.1f} MB",
        )

    return report
