"""Which of the editor's actions apply to the file shown, and what they say — no Qt
(`gui.editor.editor_actions.EditorActions` registers them and enables what this says).

An action that does not apply is disabled, so that a key the editor claims reaches the
window's shortcut instead (the window's Ctrl+F searches memories when no file is shown).
"""

from __future__ import annotations

from typing import NamedTuple


class ActionsNow(NamedTuple):
    """Which of the editor's actions apply now."""

    find: bool
    """Find, find next and previous, go to line: a file is shown."""
    replace: bool
    """Replace: a file that can be edited is shown."""
    on_disk: bool
    """Open in an external editor, copy the real path: the file is somewhere on disk."""
    close: bool
    """Close the tab: a file is shown."""


def actions_now(*, has_file: bool, read_only: bool, on_disk: bool) -> ActionsNow:
    """What applies to the file shown (`has_file`: one is; `on_disk`: its real path is known)."""
    return ActionsNow(has_file, has_file and not read_only, on_disk, has_file)


def tab_moves_focus_said(on: bool) -> str:
    """What the status bar says once Ctrl+M turned "Tab moves focus" on or off."""
    if on:
        return "Tab moves the focus now (Ctrl+M: Tab indents again)"
    return "Tab indents again (Ctrl+M: Tab moves the focus)"


def opened_elsewhere_note(name: str, *, dirty: bool) -> str | None:
    """What the bar says once the file opened in the external editor `name`: the unsaved
    changes here are not in what it shows (None: there are none)."""
    if not dirty:
        return None
    return (
        f"Opened the file on disk with {name}; your unsaved changes here are not in it. "
        "Save first, or merge when it changes."
    )
