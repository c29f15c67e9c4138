"""Go to Claude Code's cut and Move lines past it, without Qt: each is for Claude Code's
MEMORY.md only, says why it goes nowhere, and a move made is taken by the editor only for
the file it was of and a text not typed in meanwhile."""

from __future__ import annotations

from memtab.components.loads.loads import (
    MOVE_ONLY,
    NO_CUT,
    NOTHING_TO_MOVE,
    MoveLanded,
    PendingMove,
    cut_line,
    is_cut_file,
    move_refused,
)
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.sources.claude.index import INDEX_MAX_LINES

INDEX = MemoryFileRef("claude-code:proj-a", "MEMORY.md")
TOPIC = MemoryFileRef("claude-code:proj-a", "testing.md")
MUX = MemoryFileRef("mux", "/memories/global/MEMORY.md")
LONG = "".join(f"- line {n}\n" for n in range(1, INDEX_MAX_LINES + 11))


def test_only_claude_codes_memory_md_has_a_cut() -> None:
    assert is_cut_file(INDEX)
    assert not is_cut_file(TOPIC) and not is_cut_file(MUX) and not is_cut_file(None)


def test_the_cursor_goes_to_the_first_line_not_read_or_nowhere() -> None:
    assert cut_line(LONG) == INDEX_MAX_LINES + 1
    assert cut_line("- short\n") == NO_CUT


def test_a_move_is_refused_for_another_file_a_missing_source_or_nothing_past_the_cut() -> None:
    assert move_refused(INDEX, has_source=True, text=LONG) is None
    assert move_refused(TOPIC, has_source=True, text=LONG) == MOVE_ONLY
    assert move_refused(INDEX, has_source=False, text=LONG) == MOVE_ONLY
    assert move_refused(None, has_source=True, text=LONG) == MOVE_ONLY
    assert move_refused(INDEX, has_source=True, text="- short\n") == NOTHING_TO_MOVE


def test_a_move_made_is_taken_when_the_text_is_as_it_was() -> None:
    moving = PendingMove()
    moving.started(INDEX.key, LONG)
    assert moving.landed(INDEX.key, LONG) == MoveLanded(take_text=True, follow=True)
    assert moving.landed(INDEX.key, LONG) == MoveLanded(take_text=False, follow=False)  # once


def test_text_typed_meanwhile_is_kept_and_the_disk_followed() -> None:
    moving = PendingMove()
    moving.started(INDEX.key, LONG)
    assert moving.landed(INDEX.key, LONG + "- typed\n") == MoveLanded(take_text=False, follow=True)


def test_another_file_open_takes_nothing() -> None:
    moving = PendingMove()
    moving.started(INDEX.key, LONG)
    assert moving.landed(TOPIC.key, LONG) == MoveLanded(take_text=False, follow=False)
    moving.started(INDEX.key, LONG)
    assert moving.landed(None, LONG) == MoveLanded(take_text=False, follow=False)
