"""Every number a link gives is read by one checked parser, and a link trains within a budget
(issue 21: `view=%C2%B2` and a token= of thousands of digits crashed pages; one link trained
for ten minutes). Property tests over arbitrary text: never an exception, always in range."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from explorer.encoding.pretokenize import PRESETS
from ui.session.encode_place import encode_place
from ui.session.links import budget as link_budget
from ui.session.links.reading import SHOWN_VALUE_CHARS, read_link_number
from ui.session.opening import MAX_TOKEN_ID
from ui.session.runs import MAX_APP_VOCAB_SIZE
from ui.tokens.encode_playback import MAX_LINK_STEP, seed_from_link

# what a link's value can be: any text, digits of any script, and very long numbers
LINK_VALUES = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(categories=["Nd", "No"]), max_size=30),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.integers(min_value=1, max_value=6000).map(lambda n: "9" * n),
    st.sampled_from(["²", "-1", "1e3", "", " 7", "+7", "1_000", "٣", "0x10", "7.0", "∞"]),
)
# (parameter, low, high) as ui/session/links/reading.py and ui/tokens/encode_playback.py read them
LINK_NUMBERS = [
    ("view", 256, MAX_APP_VOCAB_SIZE),
    ("token", 0, MAX_TOKEN_ID),
    ("vocab", 256, MAX_APP_VOCAB_SIZE),
    ("holdout", 0, 50),
]


@given(value=LINK_VALUES, which=st.sampled_from(LINK_NUMBERS))
@example(value="²", which=LINK_NUMBERS[0])
@example(value="9" * 5000, which=LINK_NUMBERS[1])
def test_a_link_number_is_in_range_or_left_out_with_a_short_note(
    value: str, which: tuple[str, int, int]
) -> None:
    name, low, high = which
    number, note = read_link_number(value, name, low, high)
    if number is None:
        assert note.startswith(f"The link's {name}=") and "left out" in note
        assert len(note) <= 120 + SHOWN_VALUE_CHARS  # a value of 5,000 digits is quoted short
    else:
        assert low <= number <= high and not note
        # only plain ASCII digits are read ("007" is 7)
        assert value.isascii() and value.isdigit() and int(value) == number


@given(value=LINK_VALUES)
def test_an_encode_step_from_a_link_is_always_a_step(value: str) -> None:
    state: dict[str, object] = {}
    seed_from_link(state, {"encode": "hello", "encode_step": value})
    step = encode_place(state).step
    assert isinstance(step, int) and 0 <= step <= MAX_LINK_STEP


@given(
    asked=st.integers(min_value=256, max_value=MAX_APP_VOCAB_SIZE),
    corpus_bytes=st.integers(min_value=0, max_value=10**9),
    pattern=st.one_of(st.sampled_from(list(PRESETS)), st.text(max_size=20)),
)
def test_a_link_never_trains_more_than_its_budget(
    asked: int, corpus_bytes: int, pattern: str
) -> None:
    given_size = link_budget.link_vocab_size(asked, corpus_bytes, pattern)
    assert 256 <= given_size <= asked
    assert (given_size - 256) * corpus_bytes <= link_budget.work_budget(pattern)
    if asked * corpus_bytes <= link_budget.LINK_WORK_BUDGET:  # small asks are untouched
        assert given_size == asked


def test_no_pattern_is_budgeted_as_tightly_as_a_custom_regex() -> None:
    """A custom regex can match the text whole, as no pattern does: it gets no more room."""
    assert link_budget.work_budget(r"[\s\S]+") == link_budget.work_budget("none")
    assert link_budget.work_budget("gpt4") > link_budget.work_budget("none")
