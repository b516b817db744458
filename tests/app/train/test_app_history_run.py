"""A corpus trained on the command line, loaded in the app with its merge history.

`python -m explorer train` writes X.model and X.history.json; uploaded together through the
Train page's loader, they make a run every page shows as it shows a run trained in the app.
The files come from the real command line (explorer.cli.main) on a real text; the uploads
go through AppTest's file uploader, so the page's own callback reads them.
"""

from __future__ import annotations

import json
from pathlib import Path
from uuid import uuid4

import pytest
from streamlit.testing.v1 import AppTest

from explorer import parse_history_json, parse_model
from explorer.cli import main as cli
from tests.app_support import narration, open_app, texts_of
from ui.session import state as keys
from ui.session.run_spec import RunKind
from ui.session.runs import MAX_RUNS
from ui.session.samples import sample_text

VOCAB = 400
MERGES = VOCAB - 256
UPLOADER = "train_model_upload"
ERROR_PREFIX = "This file cannot be loaded: "


@pytest.fixture(scope="module")
def cli_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """Two tokenizers trained with the command line: big.* (Shakespeare) and other.* (UDHR)."""
    folder = tmp_path_factory.mktemp("cli")
    files: dict[str, bytes] = {}
    for stem, sample, vocab in [("big", "shakespeare", VOCAB), ("other", "udhr", 300)]:
        corpus = folder / f"{stem}.txt"
        corpus.write_text(sample_text(sample)[:20_000], encoding="utf-8")
        argv = ["train", str(corpus), "--vocab-size", str(vocab), "--output", str(folder / stem)]
        assert cli([*argv, "--workers", "1"]) == 0
        for suffix in (".model", ".history.json"):
            files[stem + suffix] = Path(f"{folder / stem}{suffix}").read_bytes()
    return files


def upload(app: AppTest, *files: tuple[str, bytes]) -> AppTest:
    """Add files to the Train page's tokenizer loader, as dropping them on it does.

    The files already in the loader stay, with their ids (which tell the loader it has
    read them). subtle: AppTest's own upload() starts from no files after each run,
    where a browser keeps them, so the list is set here.
    """
    uploader = app.file_uploader(key=UPLOADER)
    kept = [(f.file_id, f.name, f.getvalue(), f.type) for f in uploader.value or []]
    added = [(str(uuid4()), name, data, "application/octet-stream") for name, data in files]
    uploader._files = [*kept, *added]
    app.run()
    assert not app.exception, app.exception
    return app


def current(app: AppTest) -> str:
    return str(app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value)


def runs(app: AppTest) -> dict[str, str]:
    """The session's runs, name → kind."""
    return {name: spec.kind for name, spec in app.session_state[keys.RUNS].items()}


def load_errors(app: AppTest) -> list[str]:
    return [e.removeprefix(ERROR_PREFIX) for e in texts_of(app.error) if e.startswith(ERROR_PREFIX)]


# --- a model with its history: every page ---------------------------------------------------


def test_a_cli_model_with_its_history_shows_on_every_page(cli_files: dict[str, bytes]) -> None:
    app = open_app("train")
    upload(
        app,
        ("big.model", cli_files["big.model"]),
        ("big.history.json", cli_files["big.history.json"]),
    )
    assert current(app) == "big · gpt4 · 400"
    assert runs(app)["big · gpt4 · 400"] == RunKind.MODEL_HISTORY and len(runs(app)) == 2
    caption = " ".join(texts_of(app.sidebar.caption))
    assert "**big.model with its merge history (big.history.json)** ·" in caption
    assert "outside" not in caption  # a file carries no provenance: it may come from here
    # Train: the history's metrics, the merge log with counts and ties, the history download
    metrics = {m.label: str(m.value) for m in app.metric}
    assert metrics["Merges learned"] == f"{MERGES}" and metrics["Corpus bytes"] == "20,000"
    assert (
        "The training text is not in the app: this tokenizer was loaded from a .model file with "
        "its merge history, so its counts, ties and lengths are that corpus's."
        in " ".join(texts_of(app.caption))
    )
    log = app.dataframe[-1].value
    assert len(log) == MERGES and {"count", "merged", "length_after", "ties"} <= set(log.columns)
    history = parse_history_json(cli_files["big.history.json"].decode())
    assert list(log["count"]) == [step.count for step in history.steps]
    assert "History (.json)" in [b.proto.label for b in app.get("download_button")]

    # Animate: steps with counts, charts, and a note for the passage
    app.switch_page("pages/animate.py").run()
    assert not app.exception, app.exception
    assert app.slider(key="animate_step").max == MERGES
    assert "corpus of 20,000 bytes is 20,000 tokens" in narration(app)
    notes = [c for c in texts_of(app.caption) if "training text is not in the app" in c]
    assert notes and "The passage is a bundled sample (Shakespeare)" in notes[0]
    app.button(key="animate_next").click().run()
    first = history.steps[0]
    assert f"most frequent pair ({first.count:,} times)" in narration(app)
    assert len(app.get("vega_lite_chart")) == 2
    assert not texts_of(app.info)  # no "no history" message

    # Vocabulary: counts and uses in the corpus; Compare: the training curve
    app.switch_page("pages/vocabulary.py").run()
    assert not app.exception, app.exception
    table = app.dataframe[0].value
    assert {"count", "uses"} <= set(table.columns) and len(table) == VOCAB
    app.switch_page("pages/compare.py").run()
    assert not app.exception, app.exception
    labels = [m.label for m in app.metric]
    assert f"Training corpus at vocab size {VOCAB}" in labels


def test_a_history_added_after_its_model_replaces_the_model_alone(
    cli_files: dict[str, bytes],
) -> None:
    app = open_app("train")
    upload(app, ("big.model", cli_files["big.model"]))
    assert runs(app)["big · gpt4 · 400"] == "model"
    assert any("no merge history" in text for text in texts_of(app.info))
    upload(app, ("big.history.json", cli_files["big.history.json"]))
    assert runs(app) == {
        "Shakespeare · gpt4 · 2k": "text",
        "big · gpt4 · 400": RunKind.MODEL_HISTORY,
    }
    assert not load_errors(app) and "count" in app.dataframe[-1].value.columns


def test_a_lone_pair_goes_together_whatever_their_names(cli_files: dict[str, bytes]) -> None:
    app = open_app("train")
    upload(
        app, ("tok.model", cli_files["big.model"]), ("run-3.json", cli_files["big.history.json"])
    )
    assert runs(app)["tok · gpt4 · 400"] == RunKind.MODEL_HISTORY


def test_a_model_alone_still_loads_without_history(cli_files: dict[str, bytes]) -> None:
    app = open_app("animate")
    app.switch_page("pages/train.py").run()
    upload(app, ("big.model", cli_files["big.model"]))
    assert runs(app)["big · gpt4 · 400"] == "model"
    app.switch_page("pages/animate.py").run()
    assert any("not a training history" in text for text in texts_of(app.info))


def test_runs_with_a_history_count_towards_the_sessions_limit(cli_files: dict[str, bytes]) -> None:
    app = open_app("train")
    pairs = [
        (f"{stem}{suffix}", cli_files[f"big{suffix}"])
        for stem in "abcdefghijkl"[:MAX_RUNS]
        for suffix in (".model", ".history.json")
    ]
    upload(app, *pairs)
    assert len(runs(app)) == MAX_RUNS and "Shakespeare · gpt4 · 2k" not in runs(app)
    assert set(runs(app).values()) == {RunKind.MODEL_HISTORY}


# --- bad input: a clear message, nothing lost -------------------------------------------------


def assert_refused(app: AppTest, message: str) -> None:
    """The loader shows `message` and the session keeps only the run it had."""
    assert load_errors(app) == [message] or message in load_errors(app)[0], load_errors(app)
    assert runs(app) == {"Shakespeare · gpt4 · 2k": "text"}
    assert current(app) == "Shakespeare · gpt4 · 2k"


def test_a_history_of_another_tokenizer_names_the_first_merge_that_differs(
    cli_files: dict[str, bytes],
) -> None:
    ours = parse_model(cli_files["big.model"].decode()).merges
    theirs = parse_history_json(cli_files["other.history.json"].decode()).merges
    rank = next(i for i, (a, b) in enumerate(zip(theirs, ours)) if a != b)
    app = open_app("train")
    upload(
        app,
        ("big.model", cli_files["big.model"]),
        ("big.history.json", cli_files["other.history.json"]),
    )
    assert_refused(
        app,
        f"big.history.json belongs to another tokenizer: its merge {rank + 1} is {theirs[rank]}, "
        f"big.model's is {ours[rank]}. Upload the history written together with big.model.",
    )


def test_a_history_cut_short_says_how_many_merges_each_has(cli_files: dict[str, bytes]) -> None:
    data = json.loads(cli_files["big.history.json"])
    data["steps"] = data["steps"][:100]
    app = open_app("train")
    upload(
        app, ("big.model", cli_files["big.model"]), ("big.history.json", json.dumps(data).encode())
    )
    assert_refused(app, f"big.history.json has 100 merges but big.model has {MERGES}")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"format": ', "big.history.json, line 1, column 12: not valid JSON"),
        (b'{"steps": []}', "big.history.json, format: expected 'bpe-merge-explorer history'"),
        (b"[1, 2]", "big.history.json: expected a JSON object"),
    ],
    ids=["not-json", "not-a-history", "not-an-object"],
)
def test_a_malformed_history_names_the_file(
    cli_files: dict[str, bytes], data: bytes, message: str
) -> None:
    app = open_app("train")
    upload(app, ("big.model", cli_files["big.model"]), ("big.history.json", data))
    assert_refused(app, message)


def test_a_history_alone_asks_for_its_model_then_loads_with_it(
    cli_files: dict[str, bytes],
) -> None:
    app = open_app("train")
    upload(app, ("big.history.json", cli_files["big.history.json"]))
    assert_refused(app, "big.history.json is a merge history, which needs the tokenizer")
    assert "upload big.model" in load_errors(app)[0]
    upload(app, ("big.model", cli_files["big.model"]))  # the history is read again with it
    assert not load_errors(app)
    assert runs(app)["big · gpt4 · 400"] == RunKind.MODEL_HISTORY
