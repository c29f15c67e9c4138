"""The editor as the window builds it: the panel (`EditorPanel`), the tab's message bar
(`MessageBar`) and what the text shows (`ViewMode`: text, preview, both).
"""

from __future__ import annotations

from memtab.gui.editor.editor import EditorPanel
from memtab.gui.editor.tab.bar import MessageBar
from memtab.gui.editor.text.view import ViewMode

__all__ = ["EditorPanel", "MessageBar", "ViewMode"]
