"""The Train page on the quadratic text: training ends with the token-bytes sentence and
the run it kept, downloads that would not read back say why (issue 35 §1)."""

from __future__ import annotations

from tests.app_support import open_app, texts_of
from tests.engine.training.test_token_budget import quadratic_text


def test_the_quadratic_text_ends_with_the_sentence_and_a_run() -> None:
    app = open_app("train")
    app.radio(key="train_source").set_value("paste").run()
    app.text_area(key="train_paste").input(quadratic_text(20_000))
    app.number_input(key="train_vocab").set_value(50_000)
    app.run().button(key="train_go").click().run(timeout=240)
    assert not app.exception, app.exception
    assert not texts_of(app.error), texts_of(app.error)
    warnings = [w for w in texts_of(app.warning) if w.startswith("Training stopped at merge")]
    assert warnings, texts_of(app.warning)
    assert "tokens reached 32 MiB" in warnings[0] and "repeats long stretches" in warnings[0]
    merges = warnings[0].split("merge ")[1].split(":")[0]
    assert dict((m.label, m.value) for m in app.metric)["Merges learned"] == merges
    captions = " ".join(texts_of(app.caption))
    assert "No tokenizer.json download: a tokenizer.json of this tokenizer would take" in captions
    assert "No .tiktoken download: a .tiktoken of this tokenizer" in captions
    assert "No .model download" not in captions
