"""Quick open's and the command palette's fuzzy match: letters in order, word starts and
runs first, shorter first, the given order on ties — in linear time."""

from __future__ import annotations

import pytest

from memtab.components.window.palette import fuzzy_score, rank


@pytest.mark.parametrize(
    ("query", "text", "matches"),
    [
        ("notes", "/memories/workspace/notes.md", True),
        ("wsn", "/memories/workspace/notes.md", True),
        ("NOTES", "notes.md", True),
        ("dev set", "dev-setup.md", True),
        ("seton", "notes.md", False),  # the letters are there, not in order
        ("x", "notes.md", False),
        ("", "anything", True),
    ],
)
def test_every_letter_in_order_case_ignored(query: str, text: str, matches: bool) -> None:
    assert (fuzzy_score(query, text) is not None) is matches


def test_word_starts_and_runs_rank_first_then_shorter() -> None:
    files = ["/memories/global/unrelated-notes-on-testing.md", "/memories/project/testing.md"]
    assert rank("testing", files, str) == files[::-1]  # shorter
    commands = ["Restore this version", "Reload from disk", "Rename or move"]
    assert rank("rm", commands, str)[0] == "Rename or move"  # R…m at word starts
    assert rank("rel", commands, str) == ["Reload from disk"]


def test_ties_keep_the_given_order_and_the_limit_holds() -> None:
    names = [f"note-{n}.md" for n in range(50)]
    assert rank("note", names, str, limit=5) == names[:5]


def test_a_long_candidate_costs_linear_time() -> None:
    # A regex or backtracking matcher explodes here; a greedy scan does not.
    text = "a" * 200_000
    assert fuzzy_score("a" * 40 + "b", text) is None
    assert fuzzy_score("a" * 40, text) is not None
