"""Helpers for AppTest: open the app (optionally on one page) the way a user does."""

from __future__ import annotations

import html
import re

from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT
from ui.session import state as keys
from ui.session.markdown import WORD_JOINER
from ui.session.run_spec import RunSpec, first_words, run_name

APP = ROOT / "streamlit_app.py"
TIMEOUT = 60  # seconds per run: the first run trains the default sample


def open_app(
    page: str | None = None, query: dict[str, str] | None = None, *, timeout: float = TIMEOUT
) -> AppTest:
    """The entry file after its first run, switched to `pages/<page>.py` when given."""
    app = AppTest.from_file(str(APP), default_timeout=timeout)
    for name, value in (query or {}).items():
        app.query_params[name] = value
    app.run()
    assert not app.exception, app.exception
    if page is not None:
        app.switch_page(f"pages/{page}.py")
        app.run()
        assert not app.exception, app.exception
    return app


def open_compare(tab: str, query: dict[str, str] | None = None) -> AppTest:
    """Compare opened on one of its tabs (pages/compare.py's SECTIONS), as a link to that
    tab does (`?compare_section=`): only the open tab's sections run."""
    return open_app("compare", {**(query or {}), keys.COMPARE_SECTION: tab})


def open_tab(app: AppTest, tab: str) -> AppTest:
    """Open another of Compare's tabs, as a click on it does; then run the page."""
    app.session_state[keys.COMPARE_SECTION] = tab
    app.run()
    assert not app.exception, app.exception
    return app


def raw_texts(elements) -> list[str]:
    """The Markdown sources of a list of elements (markdown, captions, titles...)."""
    return [str(element.value) for element in elements]


def plain(markdown: str) -> str:
    r"""A user's text as a reader sees it once markdown_text's escapes are rendered:
    `plain(r"big\.model \(x\)") == "big.model (x)"`; our own `**bold**` stays."""
    return _ESCAPED.sub(r"\1", markdown).replace(WORD_JOINER, "")


_ESCAPED = re.compile(r"""\\([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])""")


def texts_of(elements) -> list[str]:
    """The text values of a list of elements (markdown, captions, titles...), as a reader
    sees them: a user's names and the engine's messages unescaped (see plain)."""
    return [plain(text) for text in raw_texts(elements)]


def pasted_name(text: str, vocab_size: int, pattern: str = "gpt4") -> str:
    """The name of a run trained on pasted text that reached `vocab_size`."""
    return run_name(first_words(text), pattern, vocab_size)


def token_views(app: AppTest) -> list[str]:
    """The HTML of each coloured passage on the page; each of Animate's panes is one."""
    views: list[str] = []
    for element in app.html:
        value = str(element.value)
        if 'class="bpe' in value:
            panes = re.split(r'<div class="am-pane[^"]*">', value)[1:] or [value]
            views.extend(pane for pane in panes if 'class="bpe' in pane)
    return views


def spelled(view: str) -> str:
    """The text a coloured passage spells out, as a reader sees it (hover cards left out)."""
    # the cards' descriptions (a card's lines end in newlines)
    without_cards = re.sub(r"<div hidden>.*?</div>", "", view, flags=re.S)
    return html.unescape("".join(re.findall(r">([^<]*)</span>", without_cards)))


def labels(app: AppTest) -> list[str]:
    """Markdown texts without the bold marks, and the labels over Animate's passages."""
    found = [text.replace("**", "") for text in texts_of(app.markdown)]
    for element in app.html:
        for bold, rest in re.findall(
            r'<p class="am-label"><strong>(.*?)</strong>(.*?)</p>', str(element.value)
        ):
            found.append(html.unescape(bold + rest))
    return found


def stage_captions(app: AppTest) -> list[str]:
    """Captions, and the caption under Animate's passages, as a user reads them."""
    found = texts_of(app.caption)
    for element in app.html:
        found += map(html.unescape, re.findall(r'class="am-caption">(.*?)</p>', str(element.value)))
    return found


def pair_tables(app: AppTest) -> list[list[dict[str, object]]]:
    """Each pair table on the page (ui.animate.pair_table.table_html), as rows keyed by its columns:
    numbers as ints, text unescaped."""
    from ui.animate.pair_table.table_html import COLUMNS

    tables = []
    for element in app.html:
        value = str(element.value)
        if 'class="pt"' not in value:
            continue
        rows = []
        body = value.split("<tbody>")[1]
        for row in re.findall(r"<tr(?: class=\"pt-winner\")?>(.*?)</tr>", body):
            cells = [html.unescape(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            rows.append(
                {
                    key: int(cell.replace(",", "")) if number else cell
                    for (key, _, number), cell in zip(COLUMNS, cells, strict=True)
                }
            )
        tables.append(rows)
    return tables


def narration(app: AppTest) -> str:
    """Animate's narration paragraph (there is one), as a user reads it."""
    found = [
        html.unescape(text)
        for element in app.html
        for text in re.findall(r'<p class="am-narration"[^>]*>(.*?)</p>', str(element.value))
    ]
    assert len(found) == 1, found
    return found[0]


def pair_table_lines(app: AppTest) -> list[str]:
    """The pair table's heading and notes (ui.animate.pair_table.table_html), as a user reads
    them."""
    return [
        html.unescape(re.sub(r"<[^>]+>", "", text))
        for element in app.html
        for text in re.findall(r'<p class="pt-(?:head|note)">(.*?)</p>', str(element.value))
    ]


def use_run(app: AppTest, spec: RunSpec, texts: tuple[str, ...] = ()) -> None:
    """Keep a run (and its texts, when given) in the session and make it the sidebar's
    choice, as the Train page does; then run the page."""
    app.session_state[keys.RUNS] = {**app.session_state[keys.RUNS], spec.name: spec}
    if texts:
        app.session_state[keys.TEXTS] = {**app.session_state[keys.TEXTS], spec.text_key: texts}
    app.session_state[keys.PENDING_RUN] = spec.name
    app.run()
    assert not app.exception, app.exception
