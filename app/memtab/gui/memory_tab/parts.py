"""What the Memory tab is given to build after its first paints (see `tab.py`'s docstring)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from memtab.gui.consolidation.footer import ConsolidationFooter
    from memtab.gui.editor.editor import EditorPanel


class Stoppable(Protocol):
    """A collaborator with a worker thread to stop when the window closes."""

    def shutdown(self, timeout_ms: int = ...) -> bool: ...


@dataclass(frozen=True)
class TabParts:
    """The tab's parts that the first paints do not show (built by `assemble()`)."""

    editor: EditorPanel
    footer: ConsolidationFooter
