"""The find bar's state without Qt: its matches in the document's positions, the count."""

from __future__ import annotations

from memtab.components.editor.find import MAX_MATCHES, FindOptions
from memtab.components.text import (
    MAX_HIGHLIGHTS,
    FindKey,
    FindState,
    count_words,
    find_key,
    replaced_words,
)

# "🙂" takes two positions in a QTextDocument: the spans after it move by one.
TEXT = "token 🙂 token TOKEN"


def _found(query: str = "token") -> FindState:
    state = FindState()
    state.refresh(TEXT, query, FindOptions())
    return state


def test_targets_are_document_positions_and_wrap_around() -> None:
    state = _found()
    assert not state.stale
    assert state.matches == [(0, 5), (8, 13), (14, 19)]
    assert state.highlights() == [(0, 5), (9, 14), (15, 20)]
    # From the cursor at 0: the match there; past the first: the second (after the emoji).
    assert state.target(0, 0, backwards=False) == (0, 5)
    assert state.target(0, 5, backwards=False) == (9, 14)
    # A query typed with the first match selected stays on it.
    assert state.target(0, 5, backwards=False, from_start=True) == (0, 5)
    # Past the last, the first; before the first, the last.
    assert state.target(15, 20, backwards=False) == (0, 5)
    assert state.target(0, 5, backwards=True) == (15, 20)
    assert _found("nothing").target(0, 0, backwards=False) is None


def test_which_match_the_selection_is() -> None:
    state = _found()
    assert state.index_of(9, 14) == 1
    assert state.index_of(8, 13) is None  # the text's indices are not the document's
    assert state.index_of(9, 9) is None  # no selection
    assert state.is_match_at(15, 20, "token", FindOptions())
    assert not state.is_match_at(15, 20, "token", FindOptions(case_sensitive=True))
    assert not state.is_match_at(9, 9, "token", FindOptions())


def test_replace_all_and_what_the_bar_says() -> None:
    state = _found()
    assert state.replace_all("token", "key", FindOptions(whole_words=True)) == (
        "key 🙂 key key",
        3,
    )
    assert replaced_words(3) == "Replaced 3"
    assert replaced_words(0) == "No matches"
    assert count_words("", 0, None) == ""
    assert count_words("x", 0, None) == "No matches"
    assert count_words("x", 1, None) == "1 match"
    assert count_words("x", 1_200, None) == "1,200 matches"
    assert count_words("x", 12, 2) == "3 of 12"
    assert count_words("x", MAX_MATCHES, 0) == f"1 of {MAX_MATCHES:,}+"


def test_highlights_are_capped() -> None:
    state = FindState()
    state.refresh("a" * (MAX_HIGHLIGHTS + 10), "a", FindOptions())
    assert len(state.matches) == MAX_HIGHLIGHTS + 10
    assert len(state.highlights()) == MAX_HIGHLIGHTS


def _key(**pressed: bool) -> FindKey:
    keys = {"escape": False, "enter": False, "shift": False}
    where = {"in_text": False, "in_replace": False, "shown": True}
    return find_key(**(keys | where | pressed))


def test_enter_and_esc_in_the_bar_and_in_the_text() -> None:
    assert _key(enter=True) is FindKey.NEXT
    assert _key(enter=True, shift=True) is FindKey.PREVIOUS
    assert _key(enter=True, in_replace=True) is FindKey.REPLACE
    assert _key(escape=True) is FindKey.CLOSE
    assert _key(escape=True, in_text=True) is FindKey.CLOSE  # the bar shows: Esc closes it
    assert _key(escape=True, in_text=True, shown=False) is FindKey.PASS  # else the text's
    assert _key(enter=True, in_text=True) is FindKey.PASS  # a line break, as ever
    assert _key() is FindKey.PASS
