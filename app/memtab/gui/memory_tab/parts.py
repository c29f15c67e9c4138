"""What the Memory tab is given to build after its first paints (see `tab.py`'s docstring)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Protocol

if TYPE_CHECKING:
    from memtab.gui.consolidation.footer import ConsolidationFooter
    from memtab.gui.editor.editor import EditorPanel


class Stoppable(Protocol):
    """A collaborator with a worker thread to stop when the window closes."""

    def shutdown(self, timeout_ms: int = ...) -> bool: ...


class TabParts(NamedTuple):
    """The tab's parts that the first paints do not show (built by `assemble()`)."""

    editor: EditorPanel
    footer: ConsolidationFooter
