"""Codex as a source: where its memory is (`source.py`), what it requires of its summary
(`summary.py`), its extensions and their manifests (`extensions.py`, `manifest.py`)."""
