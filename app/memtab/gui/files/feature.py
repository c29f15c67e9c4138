"""File operations as the window builds them: the tree's file actions (`FileActions`) and
the dialogs they ask with (`TabDialogs`).
"""

from __future__ import annotations

from memtab.gui.files.dialogs import TabDialogs
from memtab.gui.files.file_actions import FileActions

__all__ = ["FileActions", "TabDialogs"]
