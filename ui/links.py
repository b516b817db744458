"""What a link says about a run: the URL's parameters for a run trained on a bundled sample."""

from __future__ import annotations

from ui.runs import RunSpec
from ui.samples import SAMPLES, Sample


def sample_of(spec: RunSpec) -> Sample | None:
    """The bundled sample a run was trained on, if it was."""
    if not spec.kind.has_corpus:
        return None
    return next((s for s in SAMPLES.values() if s.title == spec.source), None)


def url_params(spec: RunSpec) -> dict[str, str]:
    """What the URL should say for a run: only bundled samples can be shared by link."""
    sample = sample_of(spec)
    if sample is None:
        return {}
    return {"sample": sample.key, "vocab": str(spec.vocab_size), "pattern": spec.pattern}
