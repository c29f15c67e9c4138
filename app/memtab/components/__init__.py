"""The state and rules behind the GUI, in plain Python — no Qt (napari's `components/` to
`gui/`'s `_qt/`)."""
