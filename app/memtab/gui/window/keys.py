"""The keys features are given to each other by (`MainWindow.part(key)`): each names one
feature of `WINDOW_FEATURES` and the type it builds, so mypy checks what a feature asks for.
"""

from __future__ import annotations

from memtab.components.window.phases import FeatureKey
from memtab.gui.activity.edit_marks import EditMarks
from memtab.gui.activity.mux_presence import MuxPresence
from memtab.gui.blame.feature import BlameFeature
from memtab.gui.check.feature import CheckFeature
from memtab.gui.consolidation.footer import ConsolidationFooter
from memtab.gui.consolidation.tasks import ConsolidationTasks
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.editor.tab.bar import MessageBar
from memtab.gui.files.dialogs import TabDialogs
from memtab.gui.files.file_actions import FileActions
from memtab.gui.first_paint.main_window import OWN_ACTIONS, TRACES
from memtab.gui.history.hub import HistoryHub
from memtab.gui.loads.feature import LoadsFeature
from memtab.gui.memory_tab.controller import MemoryTabController, TabFiles, TabHost
from memtab.gui.search.box import SearchBox
from memtab.gui.sync.feature import SyncFeature
from memtab.gui.tree.editor_link import TreeEditorLink
from memtab.gui.tree.sources import SourcesFollower
from memtab.gui.trust.feature import TrustFeature
from memtab.gui.window.menus import WindowMenus
from memtab.gui.window.palette import Palette
from memtab.gui.writer.feedback import WriterFeedback, WriterStatusWidget, WriterSupervisor
from memtab.gui.writer.inbox_panel import InboxPanel

# The Memory tab's parts, then its controller built with them.
CONSOLIDATION = FeatureKey[ConsolidationTasks]("consolidation")
EDITOR = FeatureKey[EditorPanel]("editor")
FOOTER = FeatureKey[ConsolidationFooter]("footer")
DIALOGS = FeatureKey[TabDialogs]("dialogs")
MARKS = FeatureKey[EditMarks]("marks")
INBOX = FeatureKey[InboxPanel]("inbox")
MUX = FeatureKey[MuxPresence]("mux")
EDITOR_LINK = FeatureKey[TreeEditorLink]("editor link")
SOURCES = FeatureKey[SourcesFollower]("sources")
SEARCH_BOX = FeatureKey[SearchBox]("search box")
TAB_HOST = FeatureKey[TabHost]("tab host")
FILE_ACTIONS = FeatureKey[FileActions]("file actions")
MESSAGE_BAR = FeatureKey[MessageBar]("message bar")
NEWS_BAR = FeatureKey[MessageBar]("news bar")
FILES = FeatureKey[TabFiles]("files")
MEMORY_TAB = FeatureKey[MemoryTabController]("memory tab controller")

# The window's features that use them.
HISTORY = FeatureKey[HistoryHub]("history")
BLAME = FeatureKey[BlameFeature]("blame")
CHECK = FeatureKey[CheckFeature]("check")
LOADS = FeatureKey[LoadsFeature]("loads")
TRUST = FeatureKey[TrustFeature]("trust")
PALETTE = FeatureKey[Palette]("palette")
SYNC = FeatureKey[SyncFeature]("sync")
MENUS = FeatureKey[WindowMenus]("menus")

# Once the first scan is shown: the writer, where one runs.
WRITER = FeatureKey[WriterSupervisor | None]("writer")
WRITER_STATUS = FeatureKey[WriterStatusWidget | None]("writer status")
WRITER_FEEDBACK = FeatureKey[WriterFeedback | None]("writer feedback")


__all__ = ["OWN_ACTIONS", "TRACES"]  # the window's own keys, named here with the others
