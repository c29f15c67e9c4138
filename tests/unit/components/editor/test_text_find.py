"""Find and replace in the editor's text (no Qt)."""

from __future__ import annotations

import pytest

from memtab.components.editor.find import (
    MAX_MATCHES,
    FindOptions,
    find_all,
    is_match,
    next_match,
    replace_all,
)

TEXT = "Token refresh: the token (TOKEN) expires; tokens rotate."


def test_find_is_literal_and_case_insensitive_by_default() -> None:
    assert find_all(TEXT, "token") == [(0, 5), (19, 24), (26, 31), (42, 47)]
    assert find_all(TEXT, "Token", FindOptions(case_sensitive=True)) == [(0, 5)]
    # Regular expression characters are text.
    assert find_all("a.b axb (a)", "a.b") == [(0, 3)]
    assert find_all("a.b axb (a)", "(a)") == [(8, 11)]
    assert find_all(TEXT, "") == []


def test_whole_words() -> None:
    assert find_all(TEXT, "token", FindOptions(whole_words=True)) == [(0, 5), (19, 24), (26, 31)]


def test_matches_are_capped() -> None:
    assert len(find_all("a" * (MAX_MATCHES + 5), "a")) == MAX_MATCHES


@pytest.mark.parametrize(
    ("position", "backwards", "expected"),
    [
        (0, False, 0),  # a match at the cursor counts
        (5, False, 1),  # after the selected first match: the next one
        (47, False, 0),  # past the last: wraps to the first
        (19, True, 0),  # selection starts at the second: the one before
        (0, True, 3),  # before the first: wraps to the last
        (30, True, 2),  # inside the third: that one
    ],
)
def test_next_match_wraps_around(position: int, backwards: bool, expected: int) -> None:
    matches = find_all(TEXT, "token")
    assert next_match(matches, position, backwards=backwards) == expected


def test_next_match_without_matches() -> None:
    assert next_match([], 3) is None


def test_replace_all_is_literal() -> None:
    assert replace_all(TEXT, "token", "key") == (
        "key refresh: the key (key) expires; keys rotate.",
        4,
    )
    # A replacement with backslashes or group references is text too.
    assert replace_all("a-a", "a", r"\1\n") == (r"\1\n-\1\n", 2)
    assert replace_all(TEXT, "absent", "x") == (TEXT, 0)
    assert replace_all(TEXT, "", "x") == (TEXT, 0)


def test_is_match_checks_the_selection() -> None:
    assert is_match(TEXT, (19, 24), "token")
    assert not is_match(TEXT, (19, 23), "token")
    assert not is_match(TEXT, (42, 47), "token", FindOptions(whole_words=True))
    assert not is_match(TEXT, (0, 5), "")
