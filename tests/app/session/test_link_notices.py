"""A link's notes and notices are typed values in session state (ui/session/links/notices.py),
and a link's sample settings are read without touching the session or training
(ui/session/links/reading.py)."""

from __future__ import annotations

from ui.session import state as keys
from ui.session.links import notices
from ui.session.links.reading import read_sample_link
from ui.session.samples import DEFAULT_SAMPLE, SAMPLES


def test_link_notes_default_when_absent_and_round_trip() -> None:
    state: dict[str, object] = {}
    assert notices.link_notes(state) == notices.LinkNotes()
    written = notices.LinkNotes("run A", ("a note",), cut=True)
    notices.set_link_notes(state, written)
    assert notices.link_notes(state) == written and state[keys.LINK_NOTES] == written
    notices.drop_link_notes(state)
    assert keys.LINK_NOTES not in state and notices.link_notes(state) == notices.LinkNotes()


def test_a_note_is_added_once_and_kept_for_the_run_the_link_opened() -> None:
    state: dict[str, object] = {}
    notices.set_link_notes(state, notices.LinkNotes(None, ("first",), cut=True))
    for note in ("second", "first", "second"):
        notices.add_link_note(state, note)
    notices.keep_link_notes(state, "run B")
    assert notices.link_notes(state) == notices.LinkNotes("run B", ("first", "second"), True)


def test_an_old_untyped_value_reads_as_nothing() -> None:
    """A session from before the typed values (a dict) reads as no notes, not a crash."""
    state: dict[str, object] = {
        keys.LINK_NOTES: {"run": "x", "notes": ["n"]},
        keys.LINK_NOTICE: {"key": "k"},
        keys.LINK_PATTERN_NOTICE: {"pattern": "p"},
    }
    assert notices.link_notes(state) == notices.LinkNotes()
    assert notices.run_not_found(state) is None
    assert notices.pop_pattern_not_used(state) is None


def test_run_not_found_round_trip() -> None:
    state: dict[str, object] = {}
    assert notices.run_not_found(state) is None
    notice = notices.RunNotFound("abc", "", "Shakespeare", {"sample": "shakespeare"})
    notices.set_run_not_found(state, notice)
    assert notices.run_not_found(state) == notice
    notices.drop_run_not_found(state)
    assert notices.run_not_found(state) is None


def test_a_pattern_notice_is_taken_once() -> None:
    state: dict[str, object] = {}
    notice = notices.PatternNotUsed("(a+)+$", "too slow.", "gpt4")
    notices.set_pattern_not_used(state, notice)
    assert notices.pop_pattern_not_used(state) == notice
    assert notices.pop_pattern_not_used(state) is None


def test_reading_a_sample_link_names_the_default_sample_with_notes_in_link_order() -> None:
    linked = read_sample_link({"sample": "nope", "vocab": "²", "holdout": "-1"})
    assert linked.sample == SAMPLES[DEFAULT_SAMPLE]
    assert linked.spec == read_sample_link({}).spec
    assert [note.split("=")[0] for note in linked.notes] == [
        "The link's sample",
        "The link's vocab",
        "The link's holdout",
    ]
    assert not linked.cut and linked.pattern_not_used is None


def test_a_refused_pattern_gives_way_to_the_samples_own_with_a_notice() -> None:
    sample = SAMPLES[DEFAULT_SAMPLE]
    linked = read_sample_link({"pattern": "(unclosed"})
    assert linked.spec.pattern == sample.pattern
    assert linked.pattern_not_used is not None
    assert linked.pattern_not_used.pattern == "(unclosed" and linked.pattern_not_used.problem
    assert read_sample_link({"pattern": "(unclosed"}, pattern="gpt4").pattern_not_used is None


def test_a_vocab_over_the_budget_is_lowered_with_a_note_and_marked_cut() -> None:
    linked = read_sample_link({"vocab": "50000", "pattern": "none"})
    assert linked.cut and linked.spec.vocab_size < 50_000
    assert len(linked.notes) == 1 and "50,000" in linked.notes[0]
