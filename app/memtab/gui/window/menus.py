"""The main window's menus and their shortcuts: File, Edit, View, Help.

Every command the window offers is a `QAction` here or on the Memory tab (the tab's own
actions — new, rename, delete, pin… — are reused, so a menu and a shortcut always do the
same thing). Help → Keyboard shortcuts lists the actions of these menus
(`shortcut_rows`), so it can never drift from what the keys really do.

A few actions run what lives in another part of the window: Save is the editor's (its
Ctrl+S belongs to the editor, so the menu only shows the keys), Consolidate now is the
footer's button, the view modes are the editor's. Edit → Undo takes back the tab's last
file operation (`set_undo`, brought up to date whenever the menu opens; in the tree,
Ctrl+Z does the same). File history, Recently deleted and Runs… are the window's
history's (`HistoryHub`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu

from memtab.components.tree.tree import NodeKind
from memtab.gui.editor.view import ViewMode

if TYPE_CHECKING:
    from memtab.gui.window.main_window import MainWindow

logger = logging.getLogger(__name__)

UNDO_UNAVAILABLE = "Nothing to undo: no file was created, moved, deleted or pinned here yet"
UNDO_TEXT = "&Undo last change\tCtrl+Z"  # Ctrl+Z is the tree's (the editor has its own)
_VIEW_MODE_KEYS = {ViewMode.SOURCE: "Ctrl+1", ViewMode.SPLIT: "Ctrl+2", ViewMode.PREVIEW: "Ctrl+3"}


def shortcut_text(action: QAction) -> str:
    """The keys of an action as the menu shows them: its shortcuts, or the keys written
    after a tab in its text (for keys another widget owns, like the editor's Ctrl+S)."""
    keys = [
        sequence.toString(QKeySequence.SequenceFormat.NativeText)
        for sequence in action.shortcuts()
        if not sequence.isEmpty()
    ]
    if not keys and "\t" in action.text():
        keys = [action.text().split("\t", 1)[1]]
    return ", ".join(keys)


def action_title(action: QAction) -> str:
    """An action's text without the `&` mnemonics, the keys after a tab or the "…"."""
    text = action.text().split("\t", 1)[0].replace("&&", "\0").replace("&", "")
    return text.replace("\0", "&").rstrip("…").strip()


def shortcut_rows(menus: list[QMenu]) -> list[tuple[str, str, str]]:
    """(menu, action, keys) for every action with keys in `menus`, in menu order."""
    rows: list[tuple[str, str, str]] = []
    for menu in menus:
        title = menu.title().replace("&", "")
        for action in menu.actions():
            keys = shortcut_text(action)
            if keys and not action.isSeparator():
                rows.append((title, action_title(action), keys))
    return rows


class WindowMenus(QObject):
    """Builds the window's menu bar (see the module docstring); the actions are
    attributes, for the window and the tests."""

    def __init__(self, window: MainWindow) -> None:
        """Fill `window`'s menu bar."""
        super().__init__(window)
        self._window = window
        self._undo: Callable[[], None] | None = None
        bar = window.menuBar()
        self.file_menu = bar.addMenu("&File")
        self.edit_menu = bar.addMenu("&Edit")
        self.view_menu = bar.addMenu("&View")
        self.help_menu = bar.addMenu("&Help")
        self._build_file_menu()
        self._build_edit_menu()
        self._build_view_menu()
        self._build_help_menu()
        self.edit_menu.aboutToShow.connect(self._on_edit_menu_about_to_show)
        self.edit_menu.aboutToHide.connect(self._on_edit_menu_about_to_hide)
        self.view_menu.aboutToShow.connect(self._on_view_menu_about_to_show)

    @property
    def menus(self) -> list[QMenu]:
        """The menus, in menu-bar order."""
        return [self.file_menu, self.edit_menu, self.view_menu, self.help_menu]

    def _action(
        self,
        text: str,
        slot: Callable[[], None],
        shortcut: str | QKeySequence.StandardKey | None = None,
        tip: str = "",
    ) -> QAction:
        action = QAction(text, self._window)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        return action

    # -- the menus ---------------------------------------------------------------------------

    def _build_file_menu(self) -> None:
        window, tab = self._window, self._window.memory_tab
        menu = self.file_menu
        menu.addAction(tab.new_file_action)
        menu.addAction(tab.new_folder_action)
        # Ctrl+S is the editor's own shortcut: the menu shows it without taking it.
        self.save_action = self._action("&Save\tCtrl+S", self._on_save_triggered)
        menu.addAction(self.save_action)
        menu.addSeparator()
        self.open_home_action = self._action(
            "&Open home…",
            window.open_home,
            QKeySequence.StandardKey.Open,
            "Open another memory home (a mux/xum home, or a folder for Memtab's own)",
        )
        self.add_workspace_action = self._action(
            "&Add workspace…",
            window.add_workspace,
            tip="Register a project folder and a workspace in this home",
        )
        menu.addAction(self.open_home_action)
        menu.addAction(self.add_workspace_action)
        menu.addSeparator()
        menu.addAction(tab.reload_action)
        menu.addSeparator()
        self.settings_action = self._action(
            "&Settings…", window.open_settings, QKeySequence.StandardKey.Preferences
        )
        self.settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        menu.addAction(self.settings_action)
        self.quit_action = self._action(
            "&Quit", self._on_quit_triggered, QKeySequence.StandardKey.Quit
        )
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        menu.addAction(self.quit_action)

    def _build_edit_menu(self) -> None:
        tab = self._window.memory_tab
        menu = self.edit_menu
        self.undo_action = self._action(UNDO_TEXT, self._on_undo_triggered)
        self.undo_action.setEnabled(False)
        self.undo_action.setToolTip(UNDO_UNAVAILABLE)
        menu.addAction(self.undo_action)
        menu.addSeparator()
        self.find_action = self._action(
            "&Find…",
            self._window.find_text,
            QKeySequence.StandardKey.Find,
            "Find in the open file (no file open: search memories)",
        )
        menu.addAction(self.find_action)
        in_file = tab.editor.commands  # their keys win while the focus is in the editor
        menu.addAction(in_file.replace_action)
        menu.addAction(in_file.find_next_action)
        menu.addAction(in_file.find_previous_action)
        menu.addSeparator()
        menu.addAction(tab.find_action)
        menu.addAction(tab.next_match_action)
        menu.addAction(tab.previous_match_action)
        menu.addSeparator()
        for action in (
            tab.rename_action,
            tab.delete_action,
            tab.pin_action,
            tab.commands.copy_to_action,
            tab.commands.copy_path_action,
            tab.commands.reveal_action,
        ):
            menu.addAction(action)
        menu.addSeparator()
        self.consolidate_action = self._action(
            "&Consolidate now",
            self._on_consolidate_triggered,
            "Ctrl+Shift+D",
            "Run the consolidator on this workspace's memory now",
        )
        menu.addAction(self.consolidate_action)
        self.pause_writer_action = self._action(
            "Pause the memory &writer", self._on_pause_writer_triggered, "Ctrl+Shift+P"
        )
        menu.addAction(self.pause_writer_action)

    def _build_view_menu(self) -> None:
        menu = self.view_menu
        self.view_mode_actions: dict[ViewMode, QAction] = {}
        group = QActionGroup(self)
        group.setExclusive(True)
        for mode in ViewMode:
            action = self._action(mode.value, self._on_view_mode_triggered, _VIEW_MODE_KEYS[mode])
            action.setCheckable(True)
            action.setData(mode.value)
            group.addAction(action)
            menu.addAction(action)
            self.view_mode_actions[mode] = action
        self.view_mode_actions[ViewMode.SOURCE].setChecked(True)
        menu.addSeparator()
        self.memory_tab_action = self._action("&Memory", self._on_memory_tab_triggered, "Alt+1")
        self.traces_tab_action = self._action("&Traces", self._on_traces_tab_triggered, "Alt+2")
        menu.addAction(self.memory_tab_action)
        menu.addAction(self.traces_tab_action)
        menu.addSeparator()
        self.switch_workspace_action = self._action(
            "Switch &workspace…", self._on_switch_workspace_triggered, "Ctrl+Shift+W"
        )
        history = self._window.history
        assert history is not None  # built with the menus
        self.runs_action = history.runs_action
        menu.addAction(self.switch_workspace_action)
        menu.addSeparator()
        menu.addAction(history.panel_action)
        menu.addAction(history.trash_action)
        menu.addAction(self.runs_action)

    def _build_help_menu(self) -> None:
        window = self._window
        self.shortcuts_action = self._action(
            "&Keyboard shortcuts", window.show_shortcuts, QKeySequence.StandardKey.HelpContents
        )
        self.about_action = self._action("&About Memtab", window.show_about)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.help_menu.addAction(self.shortcuts_action)
        self.help_menu.addAction(self.about_action)

    # -- the seam for the history ------------------------------------------------------------

    def set_undo(self, undo: Callable[[], None] | None, description: str = "") -> None:
        """What Edit → Undo does (None: nothing to undo); `description` names the change,
        e.g. "Undo delete of notes.md"."""
        self._undo = undo
        self.undo_action.setEnabled(undo is not None)
        self.undo_action.setText(description or UNDO_TEXT)
        self.undo_action.setToolTip(description if undo is not None else UNDO_UNAVAILABLE)

    # -- keeping the menus current -----------------------------------------------------------

    def refresh(self) -> None:
        """Bring the actions' states up to date (called before a menu shows)."""
        window, tab = self._window, self._window.memory_tab
        editor = tab.editor
        editor.commands.update()
        self.save_action.setEnabled(editor.is_dirty)
        node = tab.tree.current_node()
        tab.pin_action.setText("Unpin" if node is not None and node.pinned else "Pin")
        editable = node is not None and not node.read_only and node.path is not None
        tab.pin_action.setEnabled(editable and node is not None and node.kind is NodeKind.FILE)
        for action in (tab.rename_action, tab.delete_action, tab.commands.copy_path_action):
            action.setEnabled(
                editable and node is not None and node.kind in (NodeKind.FILE, NodeKind.DIRECTORY)
            )
        tab.commands.reveal_action.setEnabled(node is not None and bool(node.physical))
        copyable = node is not None and node.kind is NodeKind.FILE and node.orphan_dir is None
        tab.commands.copy_to_action.setEnabled(copyable)
        self.consolidate_action.setEnabled(tab.footer.consolidate_button.isEnabled())
        undo = tab.commands.undo_description
        if undo is None:
            self.set_undo(None)
        else:
            self.set_undo(tab.commands.undo_last, f"&Undo {undo.replace('&', '&&')}\tCtrl+Z")
        status = window.writer_status
        self.pause_writer_action.setEnabled(status is not None)
        paused = status is not None and status.isPaused()
        self.pause_writer_action.setText(
            "Resume the memory &writer" if paused else "Pause the memory &writer"
        )
        self.view_mode_actions[editor.view_mode].setChecked(True)
        self.traces_tab_action.setEnabled(window.has_traces_tab)

    @Slot()
    def _on_edit_menu_about_to_show(self) -> None:
        self.refresh()

    @Slot()
    def _on_edit_menu_about_to_hide(self) -> None:
        # The tree's shortcuts are these actions: they must work for the next selection.
        tab = self._window.memory_tab
        for action in (
            tab.pin_action,
            tab.rename_action,
            tab.delete_action,
            tab.commands.copy_path_action,
            tab.commands.reveal_action,
            tab.commands.copy_to_action,
        ):
            action.setEnabled(True)

    @Slot()
    def _on_view_menu_about_to_show(self) -> None:
        self.refresh()

    # -- slots -------------------------------------------------------------------------------

    @Slot()
    def _on_quit_triggered(self) -> None:
        self._window.close()

    @Slot()
    def _on_save_triggered(self) -> None:
        self._window.memory_tab.editor.save()

    @Slot()
    def _on_undo_triggered(self) -> None:
        if self._undo is not None:
            self._undo()

    @Slot()
    def _on_consolidate_triggered(self) -> None:
        button = self._window.memory_tab.footer.consolidate_button
        if button.isEnabled():
            button.click()
        else:
            self._window.status_bar.showMessage(
                button.toolTip() or "Consolidation cannot start now", 8000
            )

    @Slot()
    def _on_pause_writer_triggered(self) -> None:
        status = self._window.writer_status
        if status is not None:
            status.setPaused(not status.isPaused())

    @Slot()
    def _on_view_mode_triggered(self) -> None:
        action = self.sender()
        if isinstance(action, QAction):
            self._window.show_memory_tab()
            self._window.memory_tab.editor.set_view_mode(ViewMode(str(action.data())))

    @Slot()
    def _on_memory_tab_triggered(self) -> None:
        self._window.show_memory_tab()

    @Slot()
    def _on_traces_tab_triggered(self) -> None:
        self._window.show_traces_tab()

    @Slot()
    def _on_switch_workspace_triggered(self) -> None:
        self._window.show_memory_tab()
        combo = self._window.memory_tab.picker.combo
        combo.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if combo.isEnabled():
            combo.showPopup()
