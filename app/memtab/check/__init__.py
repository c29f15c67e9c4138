"""Check: is what a memory says still true of the code? (docs/formats.md §19)

Qt-free and free of the GUI and CLI (an import contract keeps it so): the CLI's
`memtab check` and, later, the window's Check panel call `engine.CheckEngine` — the window
from a worker thread, cancellable, re-checking one changed file cheaply — and get
`model.Finding` records. `fixes` turns the obvious fixes into the tool calls of a plan
the user reviews like a consolidation's.
"""
