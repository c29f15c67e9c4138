"""The editor as the window builds it: the panel (`EditorPanel`), the tab's message bar
(`MessageBar`) and what the text shows (`ViewMode`: text, preview, both).
"""

from __future__ import annotations

from memtab.components.editor.panel.view import ViewMode
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.editor.tab.bar import MessageBar

__all__ = ["EditorPanel", "MessageBar", "ViewMode"]
