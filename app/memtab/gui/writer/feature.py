"""The writer as the window builds it: the supervisor of its runs (`WriterSupervisor`), its
status-bar line (`WriterStatusWidget`), what the window does with its news
(`WriterFeedback`) and the Inbox (`InboxPanel`).
"""

from __future__ import annotations

from memtab.gui.writer.feedback import WriterFeedback, WriterStatusWidget, WriterSupervisor
from memtab.gui.writer.inbox_panel import InboxPanel

__all__ = ["InboxPanel", "WriterFeedback", "WriterStatusWidget", "WriterSupervisor"]
