"""What the window's features do off the GUI thread, as plain functions: Qt-free (Anki's
`aqt/operations` without Qt).

Each module holds one feature's operations: functions that call the engines (`store`,
`sync`, `check`, `blame`, the writer…) and `components`, and return records or values,
never widgets. Their last argument is the job's context (`job.JobContext`: its cancel
event and progress), so `functools.partial(operation, *args)` is a job the window's job
service runs (`gui/tasks/jobs.py`), and a test runs it in place without a QApplication
(`JobContext.standalone()`). The import contract "operations" holds them to it: no
PySide6, no `memtab.gui`, no `memtab.cli`.

This package's `__init__` imports nothing: the first scan's operation (`tree`) loads
before the first paint, the others with the features that use them.
"""
