"""One pane at a time when the Memory tab is narrow: the files, or the editor with a "Files"
button (Ctrl+0; Ctrl+E back to the editor). Going wide again restores the sizes the user
gave the panes (`wide_sizes`).
"""

from __future__ import annotations

import enum
import functools
import logging
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, Signal, SignalInstance, Slot
from PySide6.QtGui import QPalette, QResizeEvent
from PySide6.QtWidgets import QSplitter, QToolButton, QWidget

from memtab.gui.actions import ActionRegistry, Focus
from memtab.gui.toolkit.icons import tinted_icon
from memtab.gui.toolkit.widgets import holds_keyboard, named
from memtab.gui.tree.view import MemoryTreeView

logger = logging.getLogger(__name__)

NARROW_WIDTH = 760
"""Below this width (the tab's), one pane shows at a time."""
SHOW_FILES_KEY = "Ctrl+0"
SHOW_EDITOR_KEY = "Ctrl+E"


class Pane(enum.Enum):
    """The tab's two panes."""

    FILES = "files"
    EDITOR = "editor"


class KeyboardText(Protocol):
    """The editor's text, as the switch needs it (`SourceEdit`)."""

    def take_keyboard(self) -> None: ...


class PaneEditor(Protocol):
    """The editor, as the switch needs it (`EditorPanel`)."""

    @property
    def file_opened(self) -> SignalInstance: ...
    @property
    def file_closed(self) -> SignalInstance: ...
    @property
    def text_edit(self) -> KeyboardText: ...
    @property
    def current_ref(self) -> object | None: ...


class PaneSwitch(QObject):
    """Shows both panes, or one at a time when narrow (see the module docstring)."""

    narrow_changed = Signal(bool)  # the tab went narrow (one pane) or wide (both)

    def __init__(
        self,
        splitter: QSplitter,
        files_pane: QWidget,
        editor_pane: QWidget,
        back_button: QToolButton,
        wide_sizes: list[int],
        parent: QObject | None = None,
    ) -> None:
        """Switch between `files_pane` and `editor_pane`, the two widgets of `splitter`;
        `wide_sizes` are both panes' sizes, wide (remembered, or the default) until the
        user drags the splitter; `back_button` (in the editor pane) shows only while
        narrow."""
        super().__init__(parent)
        self._splitter = splitter
        self._panes = {Pane.FILES: files_pane, Pane.EDITOR: editor_pane}
        self._back = back_button
        self.narrow = False
        self._shown = Pane.FILES
        # Both panes' sizes, wide: the user's (a drag), never what a resize squeezed them
        # to — nor a splitter's not laid out yet (64 + 32 px, which left the files 321 px
        # of a 1366-px window once the tab, first laid out narrow, went wide).
        self._wide_sizes = list(wide_sizes)
        splitter.splitterMoved.connect(self._on_splitter_moved)
        tab = splitter.parentWidget()
        if tab is not None:
            tab.installEventFilter(self)  # its resizes
        self._focus: dict[Pane, Callable[[], None]] = {}
        self._is_file_row: Callable[[QModelIndex], bool] = lambda _index: False
        self._editor: PaneEditor | None = None
        back_button.setText("Files")
        back_button.setIcon(
            tinted_icon("chevron-left", back_button.palette().color(QPalette.ColorRole.ButtonText))
        )
        back_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        back_button.setAutoRaise(True)
        named(
            back_button, accessible="Back to the files", tip=f"Back to the files ({SHOW_FILES_KEY})"
        )
        back_button.hide()
        back_button.clicked.connect(self._on_back_button_clicked)

    @property
    def shown(self) -> Pane | None:
        """The pane shown while narrow (None: both show)."""
        return self._shown if self.narrow else None

    def wide_sizes(self) -> list[int]:
        """Both panes' sizes, wide, as the user left them (what the tab remembers)."""
        return list(self._wide_sizes)

    def one_pane_width(self) -> int:
        """The least width the tab needs: one pane's."""
        return max(pane.minimumSizeHint().width() for pane in self._panes.values())

    def two_pane_width(self) -> int:
        """The least width of both panes side by side."""
        panes = sum(pane.minimumSizeHint().width() for pane in self._panes.values())
        return panes + self._splitter.handleWidth()

    def follow(self, actions: ActionRegistry, tree: MemoryTreeView, editor: PaneEditor) -> None:
        """Switch panes as the user picks files (see the module docstring): a click or
        Enter on a file row of `tree`, a file `editor` opened while the keyboard is
        elsewhere, its last file closed; register Files in `actions`; follow the
        tab's width."""
        self._is_file_row = tree.is_file_row
        self._focus = {Pane.FILES: tree.setFocus, Pane.EDITOR: self._focus_text}
        self._editor = editor
        tree.clicked.connect(self._on_tree_row_chosen)
        tree.activated.connect(self._on_tree_row_chosen)
        editor.file_opened.connect(self._on_file_opened)
        editor.file_closed.connect(self._on_last_file_closed)
        tab = self._splitter.parentWidget()
        actions.add(
            "memory.show_files",
            "&Files",
            functools.partial(self.show_pane, Pane.FILES),
            keys=[SHOW_FILES_KEY],
            focus=Focus.WITHIN,
            on=tab,
            tip="Show the memory files and put the keyboard in the tree",
        )
        actions.add(
            "memory.show_editor",
            "&Editor",
            self.show_editor,
            keys=[SHOW_EDITOR_KEY],
            focus=Focus.WITHIN,
            on=tab,
            tip="Put the keyboard in the open file's text",
        )

    def show_editor(self) -> None:
        """Editor (Ctrl+E): the keyboard in the open file's text (narrow: the editor shown);
        with no file open it stays where it is."""
        if self._editor is not None and self._editor.current_ref is not None:
            self.show_pane(Pane.EDITOR)

    def take_keyboard_home(self) -> None:
        """The keyboard where it belongs once what held it is gone
        (`toolkit.keyboard_home`): the open file's text where the editor shows one, else
        the tree (narrow: the files shown for it)."""
        has_file = self._editor is not None and self._editor.current_ref is not None
        if has_file and (not self.narrow or self._shown is Pane.EDITOR):
            self.show_pane(Pane.EDITOR)
        else:
            self.show_pane(Pane.FILES)

    def _focus_text(self) -> None:
        """The keyboard in the editor's text: the current tab's (asked for now), past the
        frontmatter when the file was just opened (`SourceEdit.take_keyboard`)."""
        if self._editor is not None:
            self._editor.text_edit.take_keyboard()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The tab was resized (its layout already was): go narrow or wide."""
        if event.type() == QEvent.Type.Resize and watched is self._splitter.parentWidget():
            assert isinstance(event, QResizeEvent)
            self.fit(event.size().width())
        return False

    def fit(self, width: int) -> None:
        """Go narrow or wide for a tab `width` pixels wide (the tab's resize)."""
        narrow = width < max(NARROW_WIDTH, self.two_pane_width())
        if narrow == self.narrow:
            return
        if narrow:
            self.narrow = True
            self._apply(Pane.EDITOR if holds_keyboard(self._panes[Pane.EDITOR]) else Pane.FILES)
        else:
            self.narrow = False
            for pane in self._panes.values():
                pane.show()
            self._back.hide()
            self._splitter.setSizes(self._wide_sizes)
        logger.debug("Memory tab %s at %d px", "narrow" if narrow else "wide", width)
        self.narrow_changed.emit(narrow)

    def show_pane(self, pane: Pane, *, focus: bool = True) -> None:
        """Show `pane` (narrow: instead of the other) and, with `focus`, put the keyboard
        in it."""
        if self.narrow and pane is not self._shown:
            self._apply(pane)
        if focus and pane in self._focus:
            self._focus[pane]()

    def _apply(self, pane: Pane) -> None:
        self._shown = pane
        for each, widget in self._panes.items():
            widget.setVisible(each is pane)
        self._back.setVisible(pane is Pane.EDITOR)

    @Slot(int, int)
    def _on_splitter_moved(self, _position: int, _index: int) -> None:
        if not self.narrow:
            self._wide_sizes = self._splitter.sizes()

    @Slot()
    def _on_back_button_clicked(self) -> None:
        self.show_pane(Pane.FILES)

    @Slot(QModelIndex)
    def _on_tree_row_chosen(self, index: QModelIndex) -> None:
        if self.narrow and self._is_file_row(index):
            self.show_pane(Pane.EDITOR)

    @Slot(object)
    def _on_file_opened(self, _ref: object) -> None:
        if not self.narrow or self._shown is Pane.EDITOR:
            return
        if holds_keyboard(self._panes[Pane.FILES]):
            return  # walking the tree, or searching: the user stays in the files
        self.show_pane(Pane.EDITOR, focus=False)

    @Slot()
    def _on_last_file_closed(self) -> None:
        if self.narrow and self._shown is Pane.EDITOR:
            self.show_pane(Pane.FILES)
