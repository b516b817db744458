"""A .model loaded with its merge history: a corpus trained outside the app, explored whole.

`python -m explorer train corpus.txt --vocab-size N --output big` writes big.model and
big.history.json. Uploaded together, they make a run with everything a run trained in
the app has (counts, ties, corpus lengths, token usage) except the training text, which
stays where it was trained. Reading and pairing the files is the engine's
(`explorer.loading`, `explorer.file_kinds`); what the app calls such a run is here.
"""

from __future__ import annotations

HISTORY_KIND = "model_history"  # RunSpec.kind of a .model loaded with its history


def loaded_source(model_name: str, history_name: str) -> str:
    """What the sidebar calls such a run.

    >>> loaded_source("big.model", "big.history.json")
    'big.model with its merge history (big.history.json), trained outside the app'
    """
    return f"{model_name} with its merge history ({history_name}), trained outside the app"
