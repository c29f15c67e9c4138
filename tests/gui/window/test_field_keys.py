"""One key, one meaning in every text field of every window and dialog: Ctrl+D, Pin in the
window, deletes nothing on X11, where Qt's bindings make it a field's Delete — seen in a
real window on Xvfb (`fields_on_x11.py`), since the offscreen platform binds it to nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gui.every_dialog import dialog_classes
from support.x_display import fresh_x_display, xcb_child_env

CHILD = Path(__file__).with_name("fields_on_x11.py")
WITH_FIELDS = {
    "MainWindow": {"Description", "Memory file content", "Find in file", "Search memories"},
    "SettingsDialog": {"Model", "Base URL", "API key", "Writer memory file", "Codex directory"},
    "ShortcutsDialog": {"Filter shortcuts"},  # F1's filter
    "AddWorkspaceDialog": {"Project folder", "Workspace name"},
    "QInputDialog": {"QLineEdit"},  # Recently deleted's Restore to…
    "SyncSetupDialog": {"Remote"},
    "CopyToDialog": {"Name"},
    "NewItemDialog": {"Name", "Description"},
    "MoveDialog": {"New path"},  # Rename or move
    "DiffDialog": {"Text to keep"},  # the three-way view of Resolve conflicts
    "CodexNoteDialog": {"Note for Codex"},
    "EditProposalDialog": {"Proposed memory"},  # the Inbox's Edit, then accept
    "PaletteDialog": {"Quick open"},
    "ChangesReview": {"Text to keep"},  # Trust's Combine into… of whole files
}
"""The text fields each window and dialog has (at least), by accessible name."""


# slow: a window and every dialog in a process of its own on a fresh Xvfb (~3 s of CPU)
@pytest.mark.slow
def test_ctrl_d_deletes_nothing_in_any_text_field_of_any_dialog_on_x11() -> None:
    with fresh_x_display() as display:
        child = subprocess.run(
            [sys.executable, str(CHILD)],
            env=xcb_child_env(display),
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
    assert child.returncode == 0, child.stderr
    found = json.loads(child.stdout.strip().splitlines()[-1])
    assert dialog_classes() <= set(found["visited"]), "a dialog the walk does not open"
    fields: dict[str, set[str]] = {}
    for dialog, field, _before, _after in found["pressed"]:
        fields.setdefault(dialog, set()).add(field)
    assert all(WITH_FIELDS[name] <= fields.get(name, set()) for name in WITH_FIELDS), fields
    deleted = [(d, f, before, after) for d, f, before, after in found["pressed"] if before != after]
    assert deleted == []
