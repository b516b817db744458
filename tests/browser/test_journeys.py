"""What a user does in a real browser: open every page, upload, train, play, search, download.

Each test is a new Streamlit session (a new browser context) that opens on the trained
sample; its screenshot lands in artifacts/browser/<test name>.png.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    ROOT,
    SAMPLE_TOKENIZER,
    after_step_label,
    choose_radio,
    go_to,
    grid_cells,
    keyed,
    main_area,
    open_tab,
    set_text_area,
    sidebar_tokenizer,
    wait_until_idle,
)
from tests.browser.test_accessibility import assert_accessible
from tests.conftest import SHARED

TOKEN_SPANS = '.bpe span[class^="c-"]'  # a coloured token, as explorer.html.render draws it
ENCODE_ME = "First Citizen: Before we proceed any further, hear me speak. Zwölf Boxkämpfer!"


def upload_file() -> Path:
    """The developers' Taylor Swift article when ../shared is here, else a bundled sample."""
    shared = SHARED / "corpora" / "taylorswift.txt"
    return shared if shared.exists() else ROOT / "sample_texts" / "shakespeare.txt"


def token_ids_on_tokens_page(page: Page, text: str, tokenizer: str) -> list[int]:
    """Encode `text` with the named tokenizer on the Tokens page; read its ids to copy."""
    go_to(page, "Tokens")
    expect(main_area(page).get_by_text(f"Encoding with {tokenizer} at")).to_be_visible()
    set_text_area(keyed(page, "tokens_text").locator("textarea"), text)
    wait_until_idle(page)
    expect(page.locator(".bpe")).to_contain_text("hear me speak", use_inner_text=True)  # ö: 2 bytes
    expander = main_area(page).locator('[data-testid="stExpander"]', has_text="Token ids")
    expander.locator("summary").click()
    code = expander.locator('[data-testid="stCode"]')
    expect(code).to_be_visible()
    return [int(i) for i in code.inner_text().split()]


def shown_step(page: Page) -> int:
    """The Animate step on screen, from the heading over the passage after the merge."""
    heading = main_area(page).get_by_text(re.compile(r"^After step [\d,]+"))
    expect(heading).to_have_count(1)
    return int(re.search(r"After step ([\d,]+)", heading.inner_text())[1].replace(",", ""))


def test_first_open_every_page_shows_the_trained_sample(app: Page) -> None:
    main = main_area(app)
    expect(main.get_by_role("heading", name="Tokenizer: Shakespeare · gpt4 · 2k")).to_be_visible()
    expect(main.locator('[data-testid="stMetric"]', has_text="Merges learned")).to_contain_text(
        "1,744"
    )
    go_to(app, "Animate merges")
    expect(main.get_by_text("Step (of 1,744 merges)")).to_be_visible()
    expect(main.get_by_role("button", name="Play")).to_be_visible()
    go_to(app, "Tokens")
    expect(main.get_by_text(f"Encoding with {SAMPLE_TOKENIZER}")).to_be_visible()
    assert app.locator(TOKEN_SPANS).count() > 100
    go_to(app, "Vocabulary")
    expect(main.get_by_text("2,000 of 2,000 tokens match")).to_be_visible()
    cells = grid_cells(main)
    assert len(cells) >= 50 and "1999" in cells  # ten rows or more; the newest token first
    expect(main.locator('[data-testid="stGraphVizChart"] svg')).to_be_visible()
    go_to(app, "Compare")
    chart = main.locator('[data-testid="stVegaLiteChart"]').first
    expect(chart.locator("svg.marks, canvas").first).to_be_visible()
    expect(chart).to_contain_text("Bytes per token as the vocabulary grows")
    assert sidebar_tokenizer(app) == SAMPLE_TOKENIZER


def test_upload_a_file_train_it_and_see_its_tokens(app: Page) -> None:
    path = upload_file()
    choose_radio(app, "train_source", "Upload files")
    app.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(path)
    wait_until_idle(app)
    main = main_area(app)
    size = f"{path.stat().st_size:,} bytes"
    expect(main.get_by_text(f"1 document · {size}")).to_be_visible()
    keyed(app, "train_go").get_by_role("button").click()
    progress = main.locator('[data-testid="stProgress"]')
    result = main.get_by_role("heading", name=f"Tokenizer: {path.name} · gpt4 · 2k")
    expect(progress.or_(result).first).to_be_visible()
    expect(result).to_be_visible()
    wait_until_idle(app)
    assert sidebar_tokenizer(app) == f"{path.name} · gpt4 · 2k"
    go_to(app, "Tokens")
    expect(main.get_by_text(f"Encoding with {path.name} · gpt4 · 2k")).to_be_visible()
    start = path.read_text(encoding="utf-8")[:40]
    assert keyed(app, "tokens_text").locator("textarea").input_value().startswith(start)
    assert app.locator(TOKEN_SPANS).count() > 100
    assert app.locator(".bpe").inner_text().startswith(start.split("\n")[0])


def test_animate_play_pause_and_step(app: Page) -> None:
    go_to(app, "Animate merges")
    main = main_area(app)
    expect(main.get_by_text("The passage as bytes")).to_be_visible()  # step 0
    main.get_by_role("button", name="Play").click()
    playing = main.locator('[data-testid="stProgress"]')
    expect(playing).to_contain_text("Playing: step")
    # the timer advances the step with no click: wait for step 2 to be drawn by itself
    expect(playing).to_contain_text(re.compile(r"Playing: step ([2-9]|\d\d)"), timeout=20_000)
    main.get_by_role("button", name="Pause").click()
    expect(main.get_by_role("button", name="Play")).to_be_visible()
    wait_until_idle(app)
    paused = shown_step(app)
    assert paused >= 2
    assert f"animate_step={paused}" in app.url
    app.wait_for_timeout(2_500)  # at 1 step a second, a running timer would move it
    assert shown_step(app) == paused
    keyed(app, "animate_next").get_by_role("button").click()
    expect(after_step_label(main, paused + 1)).to_be_visible()
    wait_until_idle(app)
    assert shown_step(app) == paused + 1
    keyed(app, "animate_back").get_by_role("button").click()
    expect(after_step_label(main, paused)).to_be_visible()
    wait_until_idle(app)
    assert shown_step(app) == paused
    assert f"animate_step={paused}" in app.url


def test_vocabulary_search_shows_the_token_and_its_lineage(app: Page) -> None:
    go_to(app, "Vocabulary")
    main = main_area(app)
    search = keyed(app, "vocab_query").locator("input")
    search.fill("·Citizen")
    search.press("Enter")
    expect(main.get_by_text(re.compile(r"^\d+ of 2,000 tokens match"))).to_be_visible()
    wait_until_idle(app)
    cells = grid_cells(main)
    assert "·Citizen" in cells  # "·" is a space: the token " Citizen"
    assert "·citizens" in cells and "·the" not in cells  # matches any case, only matches
    chosen = keyed(app, "vocab_token").locator("input")
    expect(chosen).to_have_value(re.compile(r"^\d+ · '·Citizen'$"))
    graph = main.locator('[data-testid="stGraphVizChart"] svg')
    expect(graph).to_be_visible()
    expect(graph.locator("g.node")).not_to_have_count(0)
    expect(graph).to_contain_text("Citizen")


def test_compare_draws_its_charts(app: Page) -> None:
    go_to(app, "Compare")
    main = main_area(app)
    chart = main.locator('[data-testid="stVegaLiteChart"]').first
    expect(chart.locator("svg.marks, canvas").first).to_be_visible()
    expect(chart).to_contain_text("Bytes per token as the vocabulary grows")
    expect(chart).to_contain_text("Training corpus")
    expect(chart).to_contain_text("Your text")
    assert chart.bounding_box()["height"] > 200
    expect(main.get_by_text("Training corpus at vocab size 2,000")).to_be_visible()
    open_tab(app, "One passage")
    sizes = main.locator('[data-testid="stTabPanel"] [data-testid="stTabPanel"]').first
    expect(sizes.locator(TOKEN_SPANS).first).to_be_visible()
    assert sizes.locator(".bpe").count() >= 2  # the passage at two vocab sizes or more
    assert_accessible(app, "Compare, one passage")  # the first tab is test_accessibility's


def test_download_the_model_and_load_it_back(app: Page, tmp_path: Path) -> None:
    original = token_ids_on_tokens_page(app, ENCODE_ME, SAMPLE_TOKENIZER)
    assert len(original) < len(ENCODE_ME.encode("utf-8"))  # merges were used
    go_to(app, "Train")
    with app.expect_download() as download:
        keyed(app, "train_download_model").get_by_role("button").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "shakespeare-gpt4-2k.model"
    assert saved.read_text(encoding="utf-8").startswith("minbpe v1\n")
    loader = main_area(app).locator('[data-testid="stExpander"]', has_text="Load a saved tokenizer")
    loader.locator("summary").click()
    loader.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(saved)
    wait_until_idle(app)
    loaded = "shakespeare-gpt4-2k · gpt4 · 2k"
    expect(main_area(app).get_by_role("heading", name=f"Tokenizer: {loaded}")).to_be_visible()
    assert sidebar_tokenizer(app) == loaded
    assert token_ids_on_tokens_page(app, ENCODE_ME, loaded) == original
