"""The Memory tab's own rules, without Qt: Back and Forward through the files the editor
showed (`VisitedFiles`), and the open file followed through rescans and file operations
(`FileFollowUps`; `gui/memory_tab/` opens, selects and shows what it says)."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable

from memtab.components.files.ops import OpResult, open_file
from memtab.components.tree.marks import MarkTone, RowMark
from memtab.components.tree.nodes import ref_key
from memtab.components.tree.scan import HomeScan
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError, parse_file_ref
from memtab.file_protocol.memory_file import MemoryFile
from memtab.store.paths import PathError

HISTORY_LIMIT = 100  # The most steps kept: the oldest go first.


class VisitedFiles:
    """The files shown, in order, and where Back and Forward stand among them."""

    def __init__(self, limit: int = HISTORY_LIMIT) -> None:
        self._keys: list[str] = []
        self._at = -1
        self._limit = limit

    @property
    def current(self) -> str | None:
        """The key of the step Back and Forward stand at."""
        return self._keys[self._at] if self._at >= 0 else None

    def visited(self, key: str) -> None:
        """`key`'s file is shown: a new step, unless it is the step already current (as
        when Back's file arrives)."""
        if self.current == key:
            return
        del self._keys[self._at + 1 :]
        self._keys.append(key)
        del self._keys[: -self._limit]
        self._at = len(self._keys) - 1

    def can_go(self, step: int) -> bool:
        """Whether there is a step `step` (-1: back, +1: forward) away."""
        return 0 <= self._at + step < len(self._keys)

    def go(self, step: int, opens: Callable[[str], bool]) -> bool:
        """Step back (-1) or forward (+1) to the nearest file `opens` can open (it says
        False for a file that is gone, which is then forgotten); False if none."""
        while self.can_go(step):
            self._at += step
            key = self._keys[self._at]
            if opens(key):
                return True
            del self._keys[self._at]
            if step > 0:
                self._at -= 1
        return False


UNSAVED_MARK = RowMark("● unsaved", MarkTone.UNSAVED, "Unsaved changes in the editor")
"""The mark on the row of a file an editor tab holds unsaved changes to."""


def unsaved_marks(tabs: Iterable[tuple[MemoryFileRef | None, bool]]) -> dict[str, RowMark]:
    """The marks for the editor's tabs, each (its file, whether it has unsaved changes)."""
    return {ref_key(ref): UNSAVED_MARK for ref, dirty in tabs if ref is not None and dirty}


def remembered_ref(key: str) -> MemoryFileRef | None:
    """The file a remembered key names; None when it names none any more (a source gone,
    a key from another version)."""
    try:
        return parse_file_ref(key)
    except (PathError, SourceError):
        return None


def tabs_to_reopen(
    keys: Iterable[str], scan: HomeScan | None, is_open: Callable[[MemoryFileRef], bool]
) -> list[MemoryFile]:
    """The files of the remembered tabs (`keys`, in the tabs' order) to open again: those
    `scan` can open (a mux file of its workspace, another agent's while its source is
    listed) that no tab holds (`is_open`); a key naming no file is skipped."""
    if scan is None:
        return []
    refs = (remembered_ref(key) for key in keys)
    files = (open_file(scan, ref) for ref in refs if ref is not None)
    return [file for file in files if file is not None and not is_open(file.ref)]


class OpShown(enum.Enum):
    """How an operation's result is shown."""

    DONE = "done"  # its message in the status bar, the tab's bar cleared
    ASK_WITHOUT_COPY = "ask"  # refused only for the copy history cannot keep: ask
    FAILED = "failed"  # its error in the tab's bar


def op_shown(result: OpResult, can_go_without_copy: bool) -> tuple[OpShown, str]:
    """How `result` is shown, and its words."""
    if result.ok:
        return OpShown.DONE, result.message
    if result.unkept is not None and can_go_without_copy:
        return OpShown.ASK_WITHOUT_COPY, result.error or result.message
    return OpShown.FAILED, f"{result.message}: {result.error}"


class FileFollowUps:
    """What is still to be done once a tree is shown."""

    def __init__(self) -> None:
        self._reopen_pending = False
        self._reopen_waits = False  # for the remembered file's row, until the sources show
        self._select: tuple[str, bool] | None = None
        self._edit: MemoryFileRef | None = None

    def workspace_shown(self) -> None:
        """Another workspace is shown: reopen its remembered file once its tree is."""
        self._reopen_pending = True

    def reopens(self, loaded: bool, nothing_open: bool) -> bool:
        """A tree was shown: whether to reopen the remembered file now (`loaded`: the tab
        has shown its first scan; `nothing_open`: no file was opened meanwhile)."""
        if self._reopen_pending and loaded:
            self._reopen_pending = False
            return True
        if self._reopen_waits:
            self._reopen_waits = False
            return nothing_open
        return False

    def not_shown(self, sources_shown: bool) -> None:
        """The remembered file's row is not in the tree: look again after the next tree
        while other agents' memory is still to come."""
        self._reopen_waits = not sources_shown

    def created(self, result: OpResult, *, open_created: bool, edit_created: bool) -> None:
        """An operation finished: select what it created once the tree shows it."""
        if result.created is not None:
            self._select = (ref_key(result.created, folder=not open_created), open_created)
            self._edit = result.created if edit_created else None

    @property
    def to_select(self) -> tuple[str, bool] | None:
        """The row to select once shown, and whether to open it."""
        return self._select

    def selected(self) -> None:
        """The row to select was."""
        self._select = None

    def edits(self, opened: MemoryFileRef) -> bool:
        """A file opened: whether the typing goes to its body (the file just created)."""
        if opened != self._edit:
            return False
        self._edit = None
        return True
