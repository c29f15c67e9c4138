"""What sync's conflict bars need of the editor, as small protocols the composition
(`gui/window/features.py`) fills with the editor's own (`EditorPanel`, its `FileTab`s): the
open tabs, each tab's file and message bar, and when files open or tabs come and go.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QPushButton

from memtab.components.editor.document import OpenDocument
from memtab.components.editor.session import BarKind
from memtab.file_protocol.file_ref import MemoryFileRef


class ConflictBar(Protocol):
    """A tab's message bar (`MessageBar`): the conflict's words and its choices."""

    def show_message(
        self,
        kind: BarKind,
        text: str,
        actions: list[tuple[str, str]] | tuple[tuple[str, str], ...] = (),
        *,
        default: str | None = None,
    ) -> None: ...
    def button(self, action_id: str) -> QPushButton: ...
    def action_ids(self) -> list[str]: ...


class ConflictPrompts(Protocol):
    """A tab's prompts (`EditorPrompts`): its bar, and the choice made on it."""

    @property
    def bar(self) -> ConflictBar: ...
    @property
    def action_chosen(self) -> SignalInstance: ...


class ConflictTab(Protocol):
    """One open file (`FileTab`): which it is, its document, its bar, and saving it."""

    @property
    def key(self) -> str | None: ...
    @property
    def doc(self) -> OpenDocument: ...
    @property
    def reading(self) -> bool: ...
    @property
    def is_dirty(self) -> bool: ...
    @property
    def prompts(self) -> ConflictPrompts: ...
    @property
    def destroyed(self) -> SignalInstance: ...
    def save(self, then: Callable[[bool], None] | None = None) -> None: ...


class EditorConflicts(Protocol):
    """The editor's own conflicts (`BarKeys`): a draft the disk changed under."""

    def resolve_first(self) -> str | None: ...


class ConflictEditor(Protocol):
    """The editor (`EditorPanel`): its tabs, when files open or tabs change, and its own
    conflicts (File → Resolve conflicts… goes to them when sync has none)."""

    @property
    def bar_keys(self) -> EditorConflicts: ...
    @property
    def file_opened(self) -> SignalInstance: ...
    @property
    def tabs_changed(self) -> SignalInstance: ...
    @property
    def tabs(self) -> Sequence[ConflictTab]: ...
    def tab_for(self, ref: MemoryFileRef) -> ConflictTab | None: ...
