"""The Tokens page: any text encoded with the sidebar's tokenizer, as a user sees it."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from explorer import train
from explorer.analysis.compression.stats import text_stats
from explorer.files.formats import model_text
from tests.app_support import open_app, texts_of, use_run
from ui.session.run_spec import RunSpec, text_key
from ui.session.samples import sample_text

EOT = "<|endoftext|>"


def metric(app: AppTest, label: str) -> str:
    return next(str(m.value) for m in app.metric if m.label == label)


def count(app: AppTest, label: str) -> int:
    return int(metric(app, label).replace(",", ""))


def tokens_html(app: AppTest) -> str:
    return app.get("html")[0].proto.body


def shown(page: str, symbol: str) -> bool:
    """Whether a token's text (not only its hover title) starts with the symbol."""
    return f">{symbol}" in page


def test_opens_on_the_training_text_and_names_the_tokenizer() -> None:
    app = open_app("tokens")
    text = app.text_area(key="tokens_text").value
    assert sample_text("shakespeare").startswith(text) and 1000 < len(text) <= 1500
    assert any("Shakespeare · gpt4 · 2k" in c and "**2,000**" in c for c in texts_of(app.caption))
    stats = text_stats(train(sample_text("shakespeare"), 2000, pattern="gpt4").tokenizer, text)
    assert count(app, "Characters") == stats.chars and count(app, "Tokens") == stats.tokens
    assert metric(app, "Bytes per token") == f"{stats.bytes_per_token:.2f}"
    assert re.fullmatch(r"\d\.\d\d", metric(app, "Characters per token"))


def test_the_sidebar_view_size_changes_the_tokens() -> None:
    app = open_app("tokens")
    full = count(app, "Tokens")
    app.sidebar.slider(key="sidebar_view_size").set_value(300).run()
    assert count(app, "Tokens") > full
    assert any("vocab size **300**" in text for text in texts_of(app.caption))
    app.sidebar.slider(key="sidebar_view_size").set_value(256).run()
    assert count(app, "Tokens") == count(app, "Bytes (UTF-8)")
    assert metric(app, "Bytes per token") == "1.00"


def test_the_toggles_change_the_tokens() -> None:
    app = open_app("tokens")
    app.text_area(key="tokens_text").input("the cat sat\non the mat").run()
    plain = tokens_html(app)
    assert "<sub>" not in plain and not shown(plain, "·") and 'role="tooltip"' in plain
    app.toggle(key="tokens_show_ids").set_value(True).run()
    ids = app.code[0].value.split()
    assert all(f"<sub>{i}</sub>" in tokens_html(app) for i in ids)
    app.toggle(key="tokens_whitespace").set_value(True).run()
    assert shown(tokens_html(app), "·") and shown(tokens_html(app), "↵")
    app.toggle(key="tokens_colorblind").set_value(True).run()
    assert "c-77aadd" in tokens_html(app) or "c-ee8866" in tokens_html(app)
    by_id = tokens_html(app)
    app.radio(key="tokens_color_by").set_value("length").run()
    assert tokens_html(app) != by_id
    assert any("Short tokens are purple" in text for text in texts_of(app.caption))


def test_user_text_is_escaped() -> None:
    app = open_app("tokens")
    text = "<script>alert(1)</script> </span><b>bold</b>"
    app.text_area(key="tokens_text").input(text).run()
    page = tokens_html(app)
    assert "<script" not in page and "<b>" not in page and "</b>" not in page
    assert "&lt;" in page and "&gt;" in page
    assert count(app, "Characters") == len(text)


def test_the_id_list_is_the_encoding() -> None:
    app = open_app("tokens")
    app.sidebar.slider(key="sidebar_view_size").set_value(256).run()
    app.text_area(key="tokens_text").input("Hi!").run()
    assert app.code[0].value == "72 105 33"
    app.radio(key="tokens_id_separator").set_value("comma").run()
    assert app.code[0].value == "72, 105, 33"


def test_a_sample_can_be_loaded() -> None:
    app = open_app("tokens")
    app.selectbox(key="tokens_load").set_value("udhr").run()
    assert sample_text("udhr").startswith(app.text_area(key="tokens_text").value)
    assert app.selectbox(key="tokens_load").value is None
    assert not app.exception


def test_long_texts_are_counted_in_full_but_drawn_in_part() -> None:
    app = open_app("tokens")
    text = sample_text("udhr")
    app.text_area(key="tokens_text").input(text).run()
    tokens = count(app, "Tokens")
    assert tokens > 10_000 and count(app, "Characters") == len(text)
    assert tokens_html(app).count('<span class="c-') == 10_000  # token spans, not their cards
    assert any(f"first 10,000 of {tokens:,} tokens" in c for c in texts_of(app.caption))


def test_special_tokens_are_encoded_as_one_token() -> None:
    app = open_app("tokens")
    texts = (sample_text("python"),)
    spec = RunSpec("with eot", "Python", text_key(texts), 300, "gpt4", special_tokens=(EOT,))
    use_run(app, spec, texts)
    assert any(EOT in text for text in texts_of(app.caption))
    app.text_area(key="tokens_text").input(f"def f():{EOT}pass").run()
    assert not app.exception
    assert any(EOT in text and "one special token" in text for text in texts_of(app.info))
    assert tokens_html(app).count('class="c-404040 s ') == 1
    assert "&lt;|endoftext|&gt;" in tokens_html(app)


def test_a_loaded_model_shows_a_sample() -> None:
    app = open_app("tokens")
    model = model_text(train("aaabdaaabac", 259, pattern="none").tokenizer)
    spec = RunSpec("loaded", "model.model", text_key((model,)), 259, "", kind="model")
    use_run(app, spec, (model,))
    app.text_area(key="tokens_text").input("aaabdaaabac").run()
    assert count(app, "Tokens") == 5
    assert "This tokenizer's training text" not in app.selectbox(key="tokens_load").options


def test_an_empty_text_says_what_to_do() -> None:
    app = open_app("tokens")
    app.text_area(key="tokens_text").input("").run()
    assert any("Type or paste" in text for text in texts_of(app.info))
    assert not app.metric


def test_the_text_and_toggles_survive_a_visit_to_another_page() -> None:
    app = open_app("tokens")
    app.text_area(key="tokens_text").input("kept across pages").run()
    app.toggle(key="tokens_show_ids").set_value(True).run()
    app.switch_page("pages/compare.py").run()
    app.switch_page("pages/tokens.py").run()
    assert app.text_area(key="tokens_text").value == "kept across pages"
    assert app.toggle(key="tokens_show_ids").value is True


def test_another_run_brings_its_own_text_unless_the_user_typed() -> None:
    app = open_app("tokens")
    assert "First Citizen" in app.text_area(key="tokens_text").value
    cats = ("the cat sat on the mat with the other cat",)
    spec = RunSpec(
        name="cats", source="cats", text_key=text_key(cats), vocab_size=262, pattern="gpt4"
    )
    use_run(app, spec, cats)
    assert app.text_area(key="tokens_text").value == cats[0]  # not Shakespeare's
    app.text_area(key="tokens_text").input("my own words").run()
    app.sidebar.selectbox(key="sidebar_run").set_value("Shakespeare · gpt4 · 2k").run()
    assert app.text_area(key="tokens_text").value == "my own words"
