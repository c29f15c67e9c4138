"""Background work for the GUI: a generic QThread runner and the domain facades on it.

`runner` holds the generic machinery (`TaskRunner`, `TaskContext`); each domain
(consolidation, writer, scans, file operations) adds its facade in a module of its own
next to it.
"""

from memtab.gui.tasks.runner import TaskCancelledError, TaskContext, TaskFunction, TaskRunner

__all__ = ["TaskCancelledError", "TaskContext", "TaskFunction", "TaskRunner"]
