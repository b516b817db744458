"""Issue 11 in a real browser: what a teacher shows a class, page after page, in Chromium.

One numbering (merge k makes id 255 + k on every page), colour as a function of the id
alone, and pages that follow the run the sidebar chooses. The AppTests check the same
state (tests/app/test_app_one_numbering.py, test_render.py, the "another run" tests of
test_app_tokens, _animate and _compare); these check what the browser draws from it.
"""

from __future__ import annotations

import re
from collections import defaultdict

from playwright.sync_api import Locator, Page, expect

from harness.app_server import Server
from tests.browser.conftest import (
    SAMPLE_TOKENIZER,
    go_to,
    grid_rows,
    keyed,
    main_area,
    open_tab,
    set_text_area,
    sidebar_tokenizer_input,
    train_pasted,
    wait_for_card,
    wait_until_idle,
)
from ui.session.samples import ENGLISH_UDHR

AAAB = "sample=aaabdaaabac&vocab=259&pattern=none"  # the worked example
TOKEN, MERGE = 258, 3  # 'aaab', made by the third merge: merge k creates id 255 + k
TOKENS = ".bpe > span"  # one coloured token, of class kN for its id N
NARRATION = re.compile(r"^Step \d+: ")
GERMAN = (
    "Es war einmal ein kleines Dorf am Rande eines großen Waldes. In dem Dorf lebte eine "
    "alte Frau, die jeden Morgen Brot backte und es den Kindern schenkte, die an ihrem "
    "Fenster vorbeigingen. Die Kinder liebten die alte Frau und ihr warmes Brot."
)
OWN_WORDS = "Meine eigenen Worte, vor dem Wechsel getippt."


def narration(page: Page) -> Locator:
    """Animate's paragraph that says what the step on screen did."""
    return main_area(page).get_by_text(NARRATION)


def textarea(page: Page, key: str) -> Locator:
    return keyed(page, key).locator("textarea")


def metric(page: Page, label: str) -> Locator:
    return main_area(page).locator('[data-testid="stMetric"]', has_text=label)


def choose_run(page: Page, name: str) -> None:
    """Switch the sidebar's tokenizer, as a user does from its menu."""
    sidebar_tokenizer_input(page).click()
    page.get_by_role("option").filter(has_text=name).first.click()
    expect(sidebar_tokenizer_input(page)).to_have_value(name)
    wait_until_idle(page)


# --- 1. one numbering -----------------------------------------------------------------


def merge_log_rows(page: Page) -> list[list[str]]:
    """The cells of each row of the Train page's merge log (its last table)."""
    table = main_area(page).locator('[data-testid="stDataFrame"]').last
    return grid_rows(table)


def test_one_token_has_the_same_number_on_every_page(app: Page, streamlit_server: Server) -> None:
    app.goto(f"{streamlit_server.url}?{AAAB}")  # the worked example, in a new session
    wait_until_idle(app)
    main = main_area(app)

    go_to(app, "Animate merges")
    expect(narration(app)).to_contain_text("Step 0:")
    for step in range(1, MERGE + 1):
        keyed(app, "animate_next").get_by_role("button").click()
        expect(narration(app)).to_contain_text(f"Step {step}:")
        wait_until_idle(app)
    expect(narration(app)).to_contain_text(
        re.compile(rf"^Step {MERGE}: .* becomes token {TOKEN} 'aaab'")
    )

    go_to(app, "Vocabulary")
    search = keyed(app, "vocab_query").locator("input")
    search.fill(str(TOKEN))
    search.press("Enter")
    wait_until_idle(app)
    expect(keyed(app, "vocab_token").locator("input")).to_have_value(f"{TOKEN} · 'aaab'")
    expect(main.get_by_text(f"was created at step {MERGE} ")).to_contain_text(f"Token {TOKEN}")
    vocab = main.locator('[data-testid="stDataFrame"]').first
    headers = vocab.locator('[role="columnheader"]').all_inner_texts()
    by_id = {cells[0]: cells for cells in grid_rows(vocab)}
    step_column = [h.strip().lower() for h in headers].index("step")
    assert by_id[str(TOKEN)][step_column] == str(MERGE), (headers, by_id)

    go_to(app, "Train")
    log = merge_log_rows(app)
    assert [str(MERGE), str(TOKEN)] in [cells[:2] for cells in log], log

    go_to(app, "Tokens")
    token = app.locator(f"{TOKENS}.k{TOKEN}").first
    token.hover()
    card = wait_for_card(token)
    assert card.startswith(f"id {TOKEN}: 'aaab'\n")
    assert f"merge {MERGE}: 'aaa' + 'b'" in card


# --- 2. colour is a function of the id alone -------------------------------------------

# Each token's id (from its class kN), background colour, inset edge, and boxes on screen.
TOKEN_LOOKS = """spans => spans.map(e => {
    const style = getComputedStyle(e);
    const rects = [...e.getClientRects()].map(r => ({left: r.left, right: r.right, top: r.top}));
    return {
        id: Number([...e.classList].find(c => /^k\\d+$/.test(c)).slice(1)),
        colour: style.backgroundColor,
        edge: style.boxShadow,
        first: rects[0],
        last: rects[rects.length - 1],
    };
})"""


def test_each_id_has_one_colour_and_same_coloured_neighbours_stay_apart(app: Page) -> None:
    go_to(app, "Tokens")
    passage = main_area(app).locator(".bpe").first
    expect(passage.locator("> span").first).to_be_visible()
    looks = passage.locator("> span").evaluate_all(TOKEN_LOOKS)
    colours: dict[int, set[str]] = defaultdict(set)
    for look in looks:
        colours[look["id"]].add(look["colour"])
    assert len(looks) > 100 and len(colours) < len(looks)  # ids repeat: there is a check
    assert {i: c for i, c in colours.items() if len(c) != 1} == {}
    assert len({c for cs in colours.values() for c in cs}) > 1  # not one colour for all

    neighbours = [
        (left, right)
        for left, right in zip(looks, looks[1:])
        if left["colour"] == right["colour"] and left["last"]["top"] == right["first"]["top"]
    ]
    assert neighbours, "the default text has no two neighbours of one colour on one line"
    for left, right in neighbours:
        assert right["first"]["left"] - left["last"]["right"] >= 0.5, (left, right)
        assert "inset" in left["edge"] and "inset" in right["edge"], (left, right)


# --- 5. state follows the run -----------------------------------------------------------


def test_the_pages_follow_a_second_run_and_keep_what_the_user_typed(app: Page) -> None:
    main = main_area(app)
    go_to(app, "Tokens")  # each page shows the first run's text before the second run
    expect(textarea(app, "tokens_text")).to_have_value(re.compile(r"^First Citizen"))
    go_to(app, "Compare")
    open_tab(app, "One passage")
    expect(textarea(app, "compare_passage")).to_have_value(re.compile(r"^First Citizen"))
    go_to(app, "Animate merges")
    for step in (1, 2):
        keyed(app, "animate_next").get_by_role("button").click()
        expect(narration(app)).to_contain_text(f"Step {step}:")
        wait_until_idle(app)

    go_to(app, "Train")
    german = train_pasted(app, GERMAN, 300)

    go_to(app, "Animate merges")
    expect(narration(app)).to_contain_text("Step 0:")  # the new run's start, not step 2
    expect(main.get_by_text(re.compile(r"^After step"))).to_have_count(0)
    expect(textarea(app, "animate_passage")).to_have_value(re.compile(r"^Es war einmal"))

    go_to(app, "Tokens")
    expect(main.get_by_text(f"Encoding with {german}")).to_be_visible()
    expect(textarea(app, "tokens_text")).to_have_value(GERMAN)  # not Shakespeare's
    expect(main.locator(".bpe").first).to_contain_text("Es war einmal", use_inner_text=True)
    ratio = metric(app, "Bytes per token").locator('[data-testid="stMetricValue"]')
    expect(ratio).not_to_have_text("1.00")
    assert float(ratio.inner_text()) > 1.0  # the run's merges compress its own text

    go_to(app, "Compare")  # on the tab it was left on
    expect(textarea(app, "compare_passage")).to_have_value(re.compile(r"^Es war einmal"))
    open_tab(app, "Compression")
    expect(main.get_by_text(f"Your text is {ENGLISH_UDHR}")).to_be_visible()

    go_to(app, "Tokens")
    set_text_area(textarea(app, "tokens_text"), OWN_WORDS)
    wait_until_idle(app)
    expect(main.locator(".bpe").first).to_contain_text("eigenen", use_inner_text=True)
    choose_run(app, SAMPLE_TOKENIZER)
    expect(main.get_by_text(f"Encoding with {SAMPLE_TOKENIZER}")).to_be_visible()
    expect(textarea(app, "tokens_text")).to_have_value(OWN_WORDS)
    choose_run(app, german)
    expect(textarea(app, "tokens_text")).to_have_value(OWN_WORDS)
