"""Quick open's and the command palette's rows and matching, without Qt."""

from __future__ import annotations

from memtab.components.window.palette import (
    SHOWN_AT_MOST,
    PaletteEntry,
    action_entry,
    by_label,
    letter_runs,
    matched_letters,
    matching,
    moved_row,
)


def nothing() -> None:
    return None


DELETED = PaletteEntry("Recently deleted", "View", nothing)
PREVIOUS = PaletteEntry("Previous tab", "View · Ctrl+Shift+Tab", nothing)
NOTES = PaletteEntry("notes.md", "/memories/review/notes.md", nothing)


def test_a_blank_query_shows_every_entry_in_order_up_to_the_limit() -> None:
    entries = [PaletteEntry(f"file{n}.md", "", nothing) for n in range(SHOWN_AT_MOST + 5)]
    assert matching("  ", entries) == entries[:SHOWN_AT_MOST]


def test_what_an_entry_is_called_ranks_before_its_path_or_menu() -> None:
    # "de": in "Recently deleted"'s name; in notes.md's path only ("notes.md /memories…").
    assert matching("de", [NOTES, PREVIOUS, DELETED]) == [DELETED, NOTES]
    assert matching("review", [NOTES]) == [NOTES]


def test_an_entry_matched_by_its_name_is_not_shown_again_by_its_detail() -> None:
    shown = matching("notes", [NOTES])
    assert shown == [NOTES]


def test_nothing_matches_an_absent_letter() -> None:
    assert matching("zzz", [DELETED, PREVIOUS, NOTES]) == []


def test_keys_move_within_the_list() -> None:
    assert moved_row(0, 1, 3) == 1
    assert moved_row(2, 1, 3) == 2
    assert moved_row(1, -10, 3) == 0
    assert moved_row(0, 10, 3) == 2
    assert moved_row(0, 1, 0) is None


def test_an_actions_row_shows_its_menu_and_first_key() -> None:
    assert action_entry("Undo", "edit", ["Ctrl+Z", "Ctrl+Shift+Z"], nothing).text == (
        "Undo    Edit · Ctrl+Z"
    )
    assert action_entry("Help", None, ["F1"], nothing).text == "Help    F1"
    assert action_entry("Trust", "view", [], nothing).text == "Trust    View"
    assert action_entry("Quit", None, [], nothing).text == "Quit"


REJECT = action_entry("Reject proposals", None, ["Del"], nothing)
WHO = action_entry("Who wrote this line", "view", ["Ctrl+Alt+L"], nothing)
RECALL = action_entry("What each agent recalls for a prompt…", "view", ["Ctrl+Alt+R"], nothing)


def test_typing_never_matches_a_key() -> None:
    # "recall" listed Reject proposals (the "l" of Del) and Who wrote this line (Ctrl+Alt+L).
    assert matching("recall", [REJECT, WHO, RECALL]) == [RECALL]
    assert matching("ctrl", [WHO]) == []
    assert matching("view", [WHO]) == [WHO]  # its menu is matched


def test_no_letter_of_a_key_is_bold() -> None:
    for query in ("recall", "whl", "who view", "wv"):
        for entry in (REJECT, WHO, RECALL):
            key_starts = len(entry.text) - len(entry.keys)
            assert all(at < key_starts for at in matched_letters(query, entry)), (query, entry)
    # A menu's letters are bold where they are: "Who wrote this line    View · Ctrl+Alt+L".
    assert [WHO.text[at] for at in matched_letters("wv", WHO)] == ["W", "V"]


def test_the_rows_text_and_the_palettes_order() -> None:
    assert NOTES.text == "notes.md    /memories/review/notes.md"
    assert PaletteEntry("Quit", "", nothing).text == "Quit"
    lower = PaletteEntry("about", "", nothing)
    assert by_label([PREVIOUS, lower, DELETED]) == [lower, PREVIOUS, DELETED]


def test_the_letters_typed_are_where_the_row_shows_them() -> None:
    """Quick open shows why a row matched: the letters typed, in bold (issue 74)."""
    git = PaletteEntry("git.md", "/memories/global/tools/git.md", lambda: None)
    assert [git.text[at] for at in matched_letters("gtm", git)] == ["g", "t", "m"]
    assert matched_letters("gtm", git) == (0, 2, 4)  # in its name, when all are there
    notes = PaletteEntry("notes.md", "/memories/global/tools/x.md", lambda: None)
    across = matched_letters("ntx", notes)  # its path holds the x
    assert [notes.text[at] for at in across] == ["n", "t", "x"]
    assert across[-1] > len(notes.label)  # in the path, as the row shows it
    assert matched_letters("  ", notes) == () and matched_letters("zz", notes) == ()
    assert letter_runs("git.md", (0, 2)) == [("g", True), ("i", False), ("t", True), (".md", False)]
