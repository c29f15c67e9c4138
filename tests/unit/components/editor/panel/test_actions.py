"""Which of the editor's actions apply, and what they say, without Qt."""

from __future__ import annotations

from memtab.components.editor.panel import (
    actions_now,
    opened_elsewhere_note,
    tab_moves_focus_said,
)


def test_actions_apply_to_what_is_shown() -> None:
    nothing = actions_now(has_file=False, read_only=False, on_disk=False)
    assert nothing == (False, False, False, False)
    editable = actions_now(has_file=True, read_only=False, on_disk=True)
    assert editable == (True, True, True, True)
    # Another agent's file it writes itself: found in, never replaced in.
    read_only = actions_now(has_file=True, read_only=True, on_disk=True)
    assert (read_only.find, read_only.replace, read_only.close) == (True, False, True)
    # A file Memtab cannot place on disk: no external editor, no real path.
    assert not actions_now(has_file=True, read_only=False, on_disk=False).on_disk


def test_what_the_actions_say() -> None:
    assert tab_moves_focus_said(True).startswith("Tab moves the focus now")
    assert tab_moves_focus_said(False).startswith("Tab indents again")
    assert opened_elsewhere_note("vim", dirty=False) is None
    note = opened_elsewhere_note("vim", dirty=True)
    assert note is not None and note.startswith("Opened the file on disk with vim;")
