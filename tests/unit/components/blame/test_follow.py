"""The blame gutter following the editor, without Qt: nothing while hidden, what the gutter
says while a file is read, an answer taken only for the file still open, realigning once a
file has a blame."""

from __future__ import annotations

from memtab.components.blame import NO_HISTORY, READING, BlameFollow, Refresh
from memtab.file_protocol.file_ref import MemoryFileRef

NOTES = MemoryFileRef("mux", "/memories/global/notes.md")
OTHER = MemoryFileRef("mux", "/memories/global/other.md")


def shown() -> BlameFollow[str]:
    follow: BlameFollow[str] = BlameFollow()
    follow.shown = True
    return follow


def test_nothing_is_blamed_while_hidden_or_closing() -> None:
    follow: BlameFollow[str] = BlameFollow()
    assert follow.refresh(NOTES) == Refresh(None, blame=False)
    assert shown().refresh(NOTES, closing=True) == Refresh(None, blame=False)


def test_a_file_blamed_first_is_read_then_blamed_again_without_a_word() -> None:
    follow = shown()
    assert follow.refresh(NOTES) == Refresh(READING, blame=True)
    assert follow.answered(NOTES, "blame of notes", NOTES)
    assert follow.refresh(NOTES) == Refresh(None, blame=True)
    assert follow.blame == "blame of notes"  # kept while the new one comes
    assert follow.refresh(OTHER) == Refresh(READING, blame=True)
    assert follow.blame is None


def test_no_file_open_has_no_history() -> None:
    follow = shown()
    follow.refresh(NOTES)
    follow.answered(NOTES, "b", NOTES)
    assert follow.refresh(None) == Refresh(NO_HISTORY, blame=False)
    assert follow.blame is None and follow.blamed is None


def test_an_answer_for_a_file_no_longer_open_or_while_hidden_is_dropped() -> None:
    follow = shown()
    follow.refresh(OTHER)
    assert not follow.answered(NOTES, "b", OTHER)
    assert not follow.answered(NOTES, "b", None)
    follow.shown = False
    assert not follow.answered(OTHER, "b", OTHER)
    assert follow.blame is None


def test_typing_realigns_only_a_file_with_a_blame() -> None:
    follow = shown()
    follow.refresh(NOTES)
    assert not follow.realigns() and follow.to_realign() is None
    follow.answered(NOTES, "b", NOTES)
    assert follow.realigns() and follow.to_realign() == (NOTES, "b")
    assert follow.to_realign(closing=True) is None
    follow.closed()
    assert not follow.realigns()
