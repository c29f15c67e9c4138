"""The state and rules behind the GUI, in plain Python — no Qt (napari's `components/` to
`gui/`'s `_qt/`).

What the Memory tab shows and does is decided here and tested without a QApplication, in
one folder per feature that `gui/` mirrors: `tree` (the home scan and the tree built from
it), `search`, `editor` (the open file and its conflict rules), `history`, `files` (file
operations and their undo), `sources` (other agents' memory), `activity` (what a change on
disk concerns, which writes were Memtab's own, which files an agent edited) and `writer`;
`glossary`, `cancel` and `text_diff` are shared. `gui/` holds the Qt adapters over them. An
import-linter contract keeps PySide6 out.
"""
