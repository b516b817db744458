"""A .model whose special token has the largest id a file may give (2**31 - 1) loads, and
the Vocabulary page shows it (issue 21: an id of 24 digits loaded, then the page's table
crashed with "Python int too large to convert to C long"; such an id is now refused).
"""

from __future__ import annotations

from explorer.files.limits import MAX_TOKEN_ID
from tests.app.train.test_app_history_run import current, load_errors, upload
from tests.app_support import open_app, texts_of

MODEL = f"minbpe v1\n\n2\n<|big|> {MAX_TOKEN_ID}\n<img src=x> 300\n97 97\n256 97\n"


def test_a_special_token_with_the_largest_id_shows_on_the_vocabulary_page() -> None:
    app = open_app("train")
    upload(app, ("big-ids.model", MODEL.encode()))
    assert not load_errors(app)
    assert current(app).startswith("big-ids")
    app.switch_page("pages/vocabulary.py").run()
    assert not app.exception, app.exception
    shown = " ".join(
        [*texts_of(app.markdown), *texts_of(app.caption), *texts_of(app.html)]
        + [frame.value.to_string() for frame in app.dataframe]
    )
    assert str(MAX_TOKEN_ID) in shown.replace(",", "")
    for page in ("tokens", "animate", "compare", "train"):  # and every other page draws
        app.switch_page(f"pages/{page}.py").run()
        assert not app.exception, (page, app.exception)


def test_a_special_token_id_of_24_digits_is_refused_before_any_page_sees_it() -> None:
    app = open_app("train")
    upload(app, ("huge.model", MODEL.replace(str(MAX_TOKEN_ID), "9" * 24).encode()))
    [error] = load_errors(app)
    assert "has 24 digits; it must be 0 to 2,147,483,647" in error
    app.switch_page("pages/vocabulary.py").run()
    assert not app.exception, app.exception
