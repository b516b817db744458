"""Links and reloads: a page's URL reopens its run, from the server's disk, with the page's state.

Each AppTest is a new session, as a reload or a link opened in another browser is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.app_support import APP, TIMEOUT, open_app, pasted_name, texts_of
from ui.session import state as keys
from ui.session.runs import MAX_RUNS
from ui.session.samples import sample_text

TEXT = sample_text("shakespeare")[:5000]


def train_pasted(app: AppTest, text: str = TEXT, vocab_size: int = 280, **form: object) -> str:
    """Train pasted text on the Train page; the run's key from the URL."""
    app.radio(key="train_source").set_value("paste").run()
    app.text_area(key="train_paste").input(text)
    app.number_input(key="train_vocab").set_value(vocab_size)
    for key, value in form.items():
        app.number_input(key=f"train_{key}").set_value(value)
    app.run().button(key="train_go").click().run()
    assert not app.exception, app.exception
    return app.query_params["run"]


def opened(page: str, query: dict[str, str]) -> AppTest:
    """A new session whose first request is `pages/<page>.py?<query>` (a followed link)."""
    app = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for name, value in query.items():
        app.query_params[name] = value
    app.switch_page(f"pages/{page}.py")
    app.run()
    assert not app.exception, app.exception
    return app


def current(app: AppTest) -> str:
    return app.sidebar.selectbox(key="sidebar_run").value


def test_a_link_opens_the_same_run_at_the_same_step() -> None:
    run = train_pasted(open_app("train"))
    app = opened("animate", {"run": run, "animate_step": "3"})
    assert current(app) == pasted_name(TEXT, 280)
    assert app.slider(key="animate_step").value == 3
    assert app.query_params["run"] == run
    assert not app.warning


def test_every_page_carries_the_run_and_its_own_state() -> None:
    app = open_app("train")
    run = train_pasted(app)
    app.sidebar.slider(key="sidebar_view_size").set_value(270).run()
    for page in ("animate", "tokens", "vocabulary", "compare"):
        app.switch_page(f"pages/{page}.py").run()
        assert app.query_params["run"] == run and app.query_params["view"] == "270", page
        assert ("token" in app.query_params) == (page == "vocabulary")  # its chosen token
    app.switch_page("pages/tokens.py").run()
    assert "token" not in app.query_params  # another page's state stays with its page
    app.text_area(key="tokens_text").input("the cat").run()
    assert app.query_params["text"] == "the cat"


def test_a_link_restores_view_token_and_text() -> None:
    run = train_pasted(open_app("train"))
    app = opened("vocabulary", {"run": run, "view": "270", "token": "257"})
    assert app.sidebar.slider(key="sidebar_view_size").value == 270
    assert app.selectbox(key=keys.VOCAB_TOKEN).value == 257
    app = opened("tokens", {"run": run, "text": "a rat & <b>cat</b>"})
    assert app.text_area(key="tokens_text").value == "a rat & <b>cat</b>"


def test_an_unknown_run_says_so_and_opens_the_default() -> None:
    app = opened("animate", {"run": "0123456789abcdef", "animate_step": "3"})
    assert current(app).startswith("Shakespeare")
    assert any("no longer on this server" in w for w in texts_of(app.warning))
    assert not _has(app, keys.LINK_RETRAIN)  # nothing in the link to train it from


def test_a_nonsense_run_is_only_a_notice() -> None:
    app = opened("train", {"run": "../../etc/passwd", "token": "x", "view": "-3"})
    assert current(app).startswith("Shakespeare")
    assert any("no longer on this server" in w for w in texts_of(app.warning))


def test_a_lost_sample_run_offers_to_train_it_again() -> None:
    query = {"run": "0123456789abcdef", "sample": "aaabdaaabac", "vocab": "258", "pattern": "none"}
    app = opened("train", query)
    assert current(app).startswith("Shakespeare")
    assert any("no longer on this server" in w for w in texts_of(app.warning))
    app.button(key=keys.LINK_RETRAIN).click().run()
    assert current(app) == "aaabdaaabac · none · 258" and not app.warning


def test_a_sample_link_whose_file_is_gone_trains_it_again_silently(runs_folder: Path) -> None:
    app = open_app(query={"sample": "aaabdaaabac", "vocab": "261", "pattern": "none"})
    run = app.query_params["run"]  # 261: a size no other test trains on the Train page
    # a sample's run opened by a link is never written (its link retrains it): links,
    # however many, cannot fill the runs folder and push out what people trained
    assert not (runs_folder / f"{run}.run").exists()
    again = opened("animate", {**app.query_params, "animate_step": "2"})
    assert current(again) == "aaabdaaabac · none · 261" and not again.warning
    assert again.slider(key="animate_step").value == 2


def test_a_damaged_run_file_is_a_plain_message(runs_folder: Path) -> None:
    run = train_pasted(open_app("train"), text="damaged " * 40)
    path = runs_folder / f"{run}.run"
    path.write_bytes(path.read_bytes()[:100])
    app = opened("tokens", {"run": run})
    assert any("damaged" in w for w in texts_of(app.warning)), texts_of(app.warning)
    assert current(app).startswith("Shakespeare") and not path.exists()


def test_a_bundled_vocabulary_is_linked_by_name() -> None:
    app = opened("vocabulary", {"run": "gpt2", "token": "400"})
    assert current(app) == "GPT-2 · gpt2"
    assert app.selectbox(key=keys.VOCAB_TOKEN).value == 400


def test_runs_alike_but_for_a_setting_are_named_apart() -> None:
    app = open_app("train")
    train_pasted(app)
    train_pasted(app, min_count=2)
    names = app.sidebar.selectbox(key="sidebar_run").options
    assert pasted_name(TEXT, 280) in names
    assert any(name.endswith("min count 2") for name in names), names


def test_a_dropped_run_is_named_in_a_toast() -> None:
    app = open_app("train")
    for n in range(MAX_RUNS):
        train_pasted(app, text=f"text number {n} " * 30, vocab_size=260)
    assert len(app.sidebar.selectbox(key="sidebar_run").options) == MAX_RUNS
    assert any("Shakespeare" in str(toast.value) for toast in app.toast)


def test_with_the_store_off_training_still_works(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BPE_EXPLORER_RUNS_DIR", "off")
    run = train_pasted(open_app("train"))
    app = opened("animate", {"run": run})
    assert any("no longer on this server" in w for w in texts_of(app.warning))


def _has(app: AppTest, key: str) -> bool:
    try:
        app.button(key=key)
    except KeyError:
        return False
    return True


def test_a_name_set_apart_in_one_session_is_plain_in_the_next() -> None:
    app = open_app("train")
    train_pasted(app)
    run = train_pasted(app, min_count=2)
    assert current(app).endswith("min count 2")
    again = opened("train", {"run": run})
    assert current(again) == pasted_name(TEXT, 280)
