"""The state and rules behind the GUI's views, in plain Python — no Qt (napari's
`components/` to `gui/`'s `_qt/`).

What the Memory tab shows and does is decided here and tested without a QApplication:
the home scan (`scan`), the tree built from it (`tree`), search (`search`), what a change
on disk concerns (`changes`), which writes were Memtab's own (`own_writes`) and which
files an agent edited (`badges`), file operations (`file_ops`), and the editor's open
file and conflict rules (`editor_session`, `text_buffer`, `text_diff`). `gui/` holds the
Qt adapters over them. An import-linter contract keeps PySide6 out.
"""
