"""A tab's bars over Claude Code's cut of its MEMORY.md, without Qt."""

from __future__ import annotations

from memtab.components.editor.panel import (
    KEEP,
    CutFollow,
    has_cut,
    note_after_saving_anyway,
)
from memtab.components.editor.session import OpenFile, Situation
from memtab.components.loads.loads import NOTE_CHOICES, SAVE_CHOICES
from memtab.file_protocol.file_ref import MemoryFileRef

WITHIN = "".join(f"- line {number}\n" for number in range(199))
PAST = WITHIN + "- one\n- two\n- three\n"
INDEX = MemoryFileRef("claude-code:memory-app", "MEMORY.md")


def _index(clean: str = WITHIN) -> OpenFile:
    file = OpenFile(INDEX)
    file.clean_text = clean
    return file


def _ids(choices: tuple[tuple[str, str], ...]) -> list[str]:
    return [choice for choice, _label in choices]


def test_only_claude_codes_memory_md_is_followed() -> None:
    assert has_cut(INDEX)
    assert not has_cut(MemoryFileRef("claude-code:memory-app", "notes.md"))
    assert not has_cut(None)
    follow = CutFollow()
    topic = OpenFile(MemoryFileRef("claude-code:memory-app", "notes.md"))
    assert follow.follow(topic, PAST, ("", [])) is KEEP


def test_the_note_comes_when_lines_go_past_the_cut_and_goes_when_they_are_back() -> None:
    file, follow = _index(), CutFollow()
    follow.opened(file.clean_text)
    step = follow.follow(file, PAST, ("", []))
    assert (step.clear, step.situation, step.choices) == (False, Situation.CUT_NOTE, NOTE_CHOICES)
    assert step.text.startswith("Claude Code does not read 2 lines of MEMORY.md")
    file.situation = Situation.CUT_NOTE
    # The same words and buttons shown: nothing to do.
    assert follow.follow(file, PAST, (step.text, _ids(step.choices))) is KEEP
    assert follow.follow(file, WITHIN, (step.text, _ids(step.choices))).clear
    # Dismissed while lines are past the cut: it does not come again.
    file.situation = Situation.NONE
    assert follow.follow(file, PAST, ("", [])).situation is Situation.CUT_NOTE
    assert follow.follow(file, PAST + "- four\n", ("", [])) is KEEP


def test_another_bar_is_not_the_cuts_to_change() -> None:
    file, follow = _index(), CutFollow()
    file.situation = Situation.CONFLICT
    assert follow.follow(file, PAST, ("Changed on disk", ["compare"])) is KEEP


def test_a_save_past_the_cut_waits_unless_the_user_said_save_anyway() -> None:
    file, follow = _index(), CutFollow()
    warning = follow.save_waits(file, PAST)
    assert warning is not None and warning.startswith("Not saved")
    file.situation = Situation.PAST_CUT
    step = follow.follow(file, PAST + "- four\n", (warning, _ids(SAVE_CHOICES)))
    assert (step.situation, step.choices) == (Situation.PAST_CUT, SAVE_CHOICES)
    assert "3 more than the file on disk" in step.text
    follow.save_anyway(PAST)
    assert follow.save_waits(file, PAST) is None
    assert follow.save_waits(file, PAST + "- four\n") is not None
    note = note_after_saving_anyway(True, Situation.NONE, PAST)
    assert note is not None and note.startswith("Claude Code does not read")
    assert note_after_saving_anyway(False, Situation.NONE, PAST) is None
    assert note_after_saving_anyway(True, Situation.CONFLICT, PAST) is None
    assert note_after_saving_anyway(True, Situation.NONE, WITHIN) is None
