"""The entry file: opens on a trained sample, names it, and follows the vocab-size control."""

from __future__ import annotations

from tests.app_support import open_app, texts_of


def test_opens_on_a_trained_sample() -> None:
    app = open_app()
    assert app.sidebar.selectbox(key="sidebar_run").value.startswith("Shakespeare · gpt4")
    assert app.sidebar.slider(key="sidebar_view_size").value == 2000
    assert any("1,744 merges" in text for text in texts_of(app.sidebar.caption))


def test_the_url_chooses_the_sample() -> None:
    app = open_app(query={"sample": "aaabdaaabac", "vocab": "259", "pattern": "none"})
    assert app.sidebar.selectbox(key="sidebar_run").value == "aaabdaaabac · none · 259"
    assert any("3 merges" in text for text in texts_of(app.sidebar.caption))


def test_a_bad_url_falls_back_to_the_default() -> None:
    app = open_app(query={"sample": "<script>", "vocab": "lots"})
    assert app.sidebar.selectbox(key="sidebar_run").value.startswith("Shakespeare")


def test_a_link_with_a_broken_pattern_opens_on_the_samples_own() -> None:
    app = open_app(query={"sample": "aaabdaaabac", "vocab": "259", "pattern": "("})
    assert app.sidebar.selectbox(key="sidebar_run").value == "aaabdaaabac · none · 259"
    assert not app.error


def test_one_merge_is_singular() -> None:
    app = open_app(query={"sample": "aaabdaaabac", "vocab": "257", "pattern": "none"})
    caption = next(text for text in texts_of(app.sidebar.caption) if "pattern" in text)
    assert caption.endswith("· 1 merge")


def test_a_number_box_beside_the_view_slider_sets_the_size() -> None:
    app = open_app()
    box = app.sidebar.number_input(key="sidebar_view_size_box")
    assert box.value == 2000
    box.set_value(1234).run()
    assert app.sidebar.slider(key="sidebar_view_size").value == 1234
    app.sidebar.slider(key="sidebar_view_size").set_value(300).run()
    assert app.sidebar.number_input(key="sidebar_view_size_box").value == 300
    assert not app.exception
