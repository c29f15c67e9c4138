"""The window's features follow the disk through the window context, not the watcher.

The watcher's batches are classified once and published on the context
(`WindowContext.changes`); a feature subscribes to `context.changes.published`. Only the
window feeds the context from the watcher, so a new feature that connects to
`HomeWatcher.paths_changed` itself (and classifies every path again) fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import memtab

APP = Path(memtab.__file__).parent
FEEDS_THE_CONTEXT = {"gui/first_paint/main_window.py"}


def _connections_to_paths_changed(path: Path) -> list[int]:
    """The lines of `path` that connect a slot to a `paths_changed` signal."""
    source = path.read_text(encoding="utf-8")
    if "paths_changed" not in source:  # parsing every module took ~2 s; 3 name it
        return []
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        signal = node.func.value
        if (
            node.func.attr == "connect"
            and isinstance(signal, ast.Attribute)
            and signal.attr == "paths_changed"
        ):
            lines.append(node.lineno)
    return lines


def test_only_the_window_connects_to_the_watchers_batches() -> None:
    found = {
        str(path.relative_to(APP)): lines
        for path in APP.rglob("*.py")
        if (lines := _connections_to_paths_changed(path))
    }
    assert set(found) == FEEDS_THE_CONTEXT and all(len(lines) == 1 for lines in found.values()), (
        f"connected to HomeWatcher.paths_changed: {found} — subscribe to the window "
        "context's classified batches instead (`context.changes.published`, a ChangeBatch)"
    )
