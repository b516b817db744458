"""Hostile links (issue 21): no value of any link parameter raises on any page, a link trains
within its budget and says what it gave instead, and a stored run is never shown under a
name another visitor chose."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.strategies import sampled_from
from hypothesis.strategies import text as st_text
from streamlit.testing.v1 import AppTest

from tests.app_support import APP, TIMEOUT, open_app, texts_of
from ui.session import run_store
from ui.session.run_spec import RunKind
from ui.session.samples import sample_text
from ui.session.train_inputs import Corpus, training_spec

# the front door's first request with a query is forwarded to Train (ui/shell.py)
PAGES = ["front", "train", "animate", "tokens", "vocabulary", "compare"]
HOSTILE = ["²", "9" * 5000, "-1", "1e3", "", "\x00", "[Log in again](https:evil.example)", "٣"]
# every parameter a page reads from its URL (ui/session/links/urls.py), but run= and sample=
PAGE_PARAMS = [
    "vocab", "pattern", "tie_rule", "holdout", "view", "token", "text", "encode",
    "encode_step", "animate_step", "present",
]  # fmt: skip
EVIL = "[Log in again](https:evil.example) ![x](track.png).txt"


def opened(page: str, query: dict[str, str]) -> AppTest:
    """A new session whose first request is `pages/<page>.py?<query>`: no exception."""
    app = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for name, value in query.items():
        app.query_params[name] = value
    app.switch_page(f"pages/{page}.py").run()
    assert not app.exception, [str(e.value)[:300] for e in app.exception]
    return app


def plain(texts: list[str]) -> str:
    """Notes as a reader sees them (markdown's backslash escapes removed)."""
    return re.sub(r"\\(.)", r"\1", " ".join(texts))


@pytest.fixture(scope="module")
def sample_run() -> str:
    """The key of the tiny sample's run, trained on the Train page and so kept on the server."""
    app = open_app("train", {"sample": "aaabdaaabac"})
    app.button(key="train_go").click().run()
    assert not app.exception, app.exception
    return app.query_params["run"]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("value", HOSTILE, ids=lambda v: repr(v[:8]))
def test_every_parameter_hostile_at_once(sample_run: str, page: str, value: str) -> None:
    query = dict.fromkeys(PAGE_PARAMS, value) | {"sample": "aaabdaaabac", "run": sample_run}
    app = opened(page, query)
    assert app.sidebar.selectbox(key="sidebar_run").value.startswith("aaabdaaabac")
    assert not app.error, texts_of(app.error)


@pytest.mark.parametrize("name", ["run", "sample"])
@pytest.mark.parametrize("value", HOSTILE, ids=lambda v: repr(v[:8]))
def test_a_hostile_run_or_sample_opens_a_sample(name: str, value: str) -> None:
    query = {"sample": "aaabdaaabac", "vocab": "²"} | {name: value}
    app = opened("vocabulary", query)
    assert app.sidebar.selectbox(key="sidebar_run").value


def test_an_unreadable_number_is_left_out_with_a_note(sample_run: str) -> None:
    app = opened("vocabulary", {"run": sample_run, "view": "²", "token": "9" * 5000})
    notes = plain(texts_of(app.info))
    assert "view=² was left out" in notes and "token=999" in notes
    assert "9" * 100 not in notes  # a long value is quoted short
    app.switch_page("pages/train.py").run()  # the note stays with the linked run
    assert "view=² was left out" in plain(texts_of(app.info))


def test_a_link_over_the_budget_trains_what_fits_and_says_so() -> None:
    """Issue 21: this link trained for ten minutes, took 13 GB and evicted every other run."""
    app = opened("train", {"sample": "shakespeare", "vocab": "50000", "pattern": "none"})
    notes = plain(texts_of(app.info))
    assert "asked for a vocab size of 50,000 on Shakespeare with pattern none" in notes
    assert "The Train page can train more" in notes
    assert app.query_params["vocab"] == "756" and app.query_params["pattern"] == "none"


def test_an_old_link_over_the_budget_opens_within_it_not_a_stand_in() -> None:
    """A link made before the budget (its run= key is for 10,000 tokens) trains what fits."""
    query = {
        "run": "0123456789abcdef",
        "sample": "shakespeare",
        "vocab": "10000",
        "pattern": "none",
    }
    app = opened("train", query)
    assert app.sidebar.selectbox(key="sidebar_run").value.startswith("Shakespeare · none")
    assert "asked for a vocab size of 10,000" in plain(texts_of(app.info))
    assert not app.warning


def poisoned_save(texts: tuple[str, ...], vocab_size: int, pattern: str) -> str:
    """A run kept under a hostile file's name, as another visitor's upload would keep it."""
    spec = training_spec(Corpus(EVIL, EVIL, texts), vocab_size, pattern, (), 1)
    config = run_store.config_from_env()
    run_store.save(config, spec.store_key, run_store.StoredRun(spec.as_dict(), texts))
    return spec.store_key


def test_a_sample_run_saved_under_another_name_opens_as_the_sample() -> None:
    """Link poisoning: the sample uploaded as "[Log in again](…)" at the teacher's settings
    first must not name the teacher's link."""
    key = poisoned_save((sample_text("aaabdaaabac"),), 258, "none")
    app = opened("tokens", {"run": key, "sample": "aaabdaaabac", "vocab": "258", "pattern": "none"})
    shown = app.sidebar.selectbox(key="sidebar_run").value
    assert shown == "aaabdaaabac · none · 258" and app.query_params["run"] == key
    everything = " ".join(texts_of(app.caption) + texts_of(app.sidebar.caption) + [shown])
    assert "Log in" not in plain([everything]) and "evil" not in plain([everything])
    assert app.query_params["sample"] == "aaabdaaabac"  # the URL keeps its sample settings


def test_an_upload_opened_by_link_shows_a_neutral_name() -> None:
    """Identical bytes uploaded under two names: the link opener sees neither name."""
    text = "low lower lowest newer newest wider widest " * 4
    key = poisoned_save((text,), 270, "gpt4")
    app = opened("train", {"run": key})
    shown = app.sidebar.selectbox(key="sidebar_run").value
    everything = plain([shown, *texts_of(app.sidebar.caption), *texts_of(app.caption)])
    assert shown.startswith("“low lower lowest newer…”") and "Uploaded text" in everything
    assert "Log in" not in everything and "evil" not in everything
    assert app.query_params["run"] == key  # the same run: its key did not change


def test_a_loaded_model_opened_by_link_is_named_by_what_it_is(tmp_path) -> None:
    from ui.session.opening import shown_to_link_opener
    from ui.session.run_spec import RunSpec

    spec = RunSpec(EVIL, EVIL, "k" * 16, 300, "gpt4", kind=RunKind.MODEL)
    shown = shown_to_link_opener(spec, ("model text",))
    assert shown.store_key == spec.store_key and "evil" not in shown.name + shown.source
    assert shown.name.startswith("Loaded .model")


def test_a_run_too_large_to_keep_says_so_and_evicts_nobody(
    monkeypatch: pytest.MonkeyPatch, runs_folder
) -> None:
    before = sorted(path.name for path in runs_folder.glob("*.run"))
    assert before  # the other tests' runs are there to be evicted, or not
    monkeypatch.setenv("BPE_EXPLORER_RUN_MB", "0.0001")  # 100 bytes a run
    app = opened("train", {"sample": "aaabdaaabac"})
    app.radio(key="train_source").set_value("paste").run()
    app.text_area(key="train_paste").input("too large " * 20)
    app.run().button(key="train_go").click().run()
    assert any("too large to keep on the server" in str(t.value) for t in app.toast)
    assert sorted(path.name for path in runs_folder.glob("*.run")) == before
    assert app.sidebar.selectbox(key="sidebar_run").value.startswith("“too large")


def test_links_never_write_to_the_runs_folder(runs_folder) -> None:
    """However many sample links are opened, none adds a file that could evict another."""
    before = sorted(path.name for path in runs_folder.glob("*.run"))
    for vocab in ("300", "301", "302"):
        opened("train", {"sample": "shakespeare", "vocab": vocab, "pattern": "gpt4"})
    assert sorted(path.name for path in runs_folder.glob("*.run")) == before


def test_an_unknown_sample_opens_the_default_with_a_note() -> None:
    app = opened("train", {"sample": "x" * 500})
    assert app.sidebar.selectbox(key="sidebar_run").value.startswith("Shakespeare")
    notes = plain(texts_of(app.info))
    assert "is not one of the app's samples" in notes and "x" * 100 not in notes


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    value=st_text(),
    name=sampled_from(["view", "token", "vocab", "holdout", "encode_step", "animate_step"]),
    page=sampled_from(PAGES),
)
def test_any_text_in_a_number_parameter_opens_the_page(
    sample_run: str, value: str, name: str, page: str
) -> None:
    """Arbitrary text (hypothesis) in one numeric parameter: the page opens, no exception."""
    query = {"sample": "aaabdaaabac", "run": sample_run, "encode": "ab", name: value}
    app = opened(page, query)
    assert not app.error, texts_of(app.error)
