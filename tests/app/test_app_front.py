"""The front door (pages/front.py, ui/front/): the page a link without a path opens —
what BPE is, the classic example playing, three doors — and every old link to "/",
from when "/" was Train, still opens Train with what it said."""

from __future__ import annotations

from harness.hub_cache import HubCache
from tests.app_support import open_app, texts_of
from ui.session import state as keys

DOORS = ["Explore a real model's tokenizer", "Train your own", "Teach a class"]


def example_html(app) -> str:
    (html,) = [str(e.value) for e in app.html if "am-narration" in str(e.value)]
    return html


def test_the_address_with_no_path_is_the_front_door() -> None:
    app = open_app()
    assert not app.exception and not app.error
    assert texts_of(app.title) == ["BPE Merge Explorer"]
    assert "Byte-pair encoding" in " ".join(texts_of(app.markdown))
    assert [h.value for h in app.header] == DOORS  # h2 under the title: heading order kept
    assert "Step 0: the starting point" in example_html(app)
    assert len(app.query_params) == 0  # the front door's address stays bare: a reload is it
    assert app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value.startswith("Shakespeare")


def test_the_example_plays_merge_by_merge_and_stops_when_asked() -> None:
    app = open_app()
    steps = []
    for _ in range(4):
        app.run()  # a tick of the example's timer reruns its fragment; a rerun does too
        steps.append(example_html(app))
    assert [("After step 1" in s, "After step 2" in s, "After step 3" in s) for s in steps[:3]] == [
        (True, False, False),
        (False, True, False),
        (False, False, True),
    ]
    assert "Step 0" in steps[3]  # round again
    assert "'a' + 'a'" not in steps[3]
    app.toggle(key=keys.FRONT_PLAYING).set_value(False).run()
    held = example_html(app)
    app.run()
    assert example_html(app) == held  # paused: the same step


def test_old_links_to_the_root_open_train_with_what_they_say() -> None:
    app = open_app(query={"sample": "aaabdaaabac", "vocab": "259", "pattern": "none"})
    assert texts_of(app.title) == ["Train a tokenizer"]
    assert app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value == "aaabdaaabac · none · 259"
    assert app.query_params["sample"] == "aaabdaaabac"  # the link's words kept, on /train
    bundled = open_app(query={"run": "o200k_base"})
    assert texts_of(bundled.title) == ["Train a tokenizer"]
    assert bundled.sidebar.selectbox(key=keys.SIDEBAR_RUN).value == "GPT-4o · o200k_base"
    student = open_app(query={"class": "ZZZZZ"})  # a class link made on Train before
    assert texts_of(student.title) == ["Train a tokenizer"]
    assert any("no class on this server" in text for text in texts_of(student.warning))


def test_train_has_its_own_address() -> None:
    app = open_app("train")
    assert texts_of(app.title) == ["Train a tokenizer"]


def submit_hub_name(app, name: str):
    app.text_input(key=keys.FRONT_HUB).input(name)
    (button,) = [b for b in app.button if b.label == "Open its tokenizer"]
    return button.click().run()


def test_the_hub_door_asks_for_a_name_then_opens_tokens_with_it(hub_cache: HubCache) -> None:
    """The model comes from the offline Hub cache (tests/conftest.py; skipped without
    ../shared): without it, the name's sentence says it could not be fetched."""
    app = submit_hub_name(open_app(), "  ")
    assert "Type a model's name on the Hub first" in " ".join(texts_of(app.info))
    app = submit_hub_name(app, "Qwen/Qwen3-0.6B")
    assert not app.exception
    assert texts_of(app.title)[0] == "Tokens"
    assert app.query_params["hub"] == "Qwen/Qwen3-0.6B"  # the link says the model
    shown = app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value
    assert shown.startswith("Qwen/Qwen3-0.6B · 151,669 ids")


def test_the_gpt4o_door_opens_its_tokens() -> None:
    app = open_app()
    app.button(key=keys.FRONT_GPT4O).click().run()
    assert not app.exception and not app.error
    assert texts_of(app.title)[0] == "Tokens"
    assert app.sidebar.selectbox(key=keys.SIDEBAR_RUN).value == "GPT-4o · o200k_base"
