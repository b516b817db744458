"""One numbering, said plainly (issue 36 §2): with a real model every page that shows it
names the id and the merge rank apart, and the step where there is one; none speaks of
our runs' 'merge k makes id 255 + k' or of a merge number."""

from __future__ import annotations

import pytest

from tests.app.models.model_runs import open_with_model
from tests.app_support import plain, texts_of

# page, and the numbers it names (a step exists where a text is encoded merge by merge)
PAGES = {
    "tokens": ("**id**", "**rank**", "**step**"),
    "vocabulary": ("**id**", "**rank**"),
    "animate": ("**id**", "**rank**", "**step**"),
}


@pytest.mark.parametrize("page", list(PAGES))
def test_each_page_names_the_id_the_rank_and_the_step_apart(page: str) -> None:
    app = open_with_model("deepseek_v3", page)  # its bytes are ids 3-258: nothing lines up
    assert not app.exception, app.exception
    said = " ".join(plain(text) for text in texts_of(app.caption))
    for number in PAGES[page]:
        assert number in said, (page, number, said)
    everything = said + " ".join(texts_of(app.markdown)) + " ".join(texts_of(app.info))
    assert "255 + k" not in everything and "merge number" not in everything
