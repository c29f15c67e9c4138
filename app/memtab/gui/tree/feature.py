"""The tree's settled parts as the window builds them: the tree kept in step with the
editor (`TreeEditorLink`) and other agents' memory followed (`SourcesFollower`). The model,
view and scans are the first paint's.
"""

from __future__ import annotations

from memtab.gui.tree.editor_link import TreeEditorLink
from memtab.gui.tree.sources import SourcesFollower

__all__ = ["SourcesFollower", "TreeEditorLink"]
