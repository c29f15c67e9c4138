"""The window's own actions, registered as actions once the Memory tab is assembled:
Open home, Add workspace, Settings, Quit, Find, Consolidate now and the current row's
scope alone ("Consolidate Global only", also in a scope's context menu), pausing the
writer, the editor's view modes, the tabs, Switch workspace, Keyboard shortcuts, About
(ids `window.*`, `consolidation.run_now`, `consolidation.run_scope`, `writer.pause`).

They act on the window through `CommandWindow` (what `MainWindow` provides) and on the
Memory tab it shows; dialogs run through the window's seams (`exec_dialog`,
`choose_folder`, `confirm`), which tests answer instead.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path
from typing import Any, Protocol, TypeVar

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDialog, QMessageBox

from memtab import __version__
from memtab.components.consolidation import CONSOLIDATE_SCOPE
from memtab.components.editor.panel import ViewMode
from memtab.components.files.rules import consolidate_text, consolidated_scope
from memtab.components.window.menus import (
    HomeFolder,
    about_html,
    describe_home_folder,
    open_home_step,
    writer_pause_title,
)
from memtab.components.window.phases import FeatureKey
from memtab.components.window.settings_news import settings_change
from memtab.fs.config.settings_file import SettingsFileError, load_settings_file, settings_path
from memtab.gui.context import WindowContext, WindowShell
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.first_paint.main_window import TracesPage
from memtab.gui.first_paint.memory_tab import MemoryTab
from memtab.gui.memory_tab.controller import MemoryTabController
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.dialog_layout import give_mnemonics, small_dialog
from memtab.gui.window.home_dialogs import AddWorkspaceDialog
from memtab.gui.window.keys import WRITER_STATUS
from memtab.gui.window.menus import shortcut_rows
from memtab.gui.window.shortcuts_dialog import ShortcutsDialog
from memtab.logs import log_file
from memtab.store.paths import Scope
from memtab.store.sidecars.journal import run_scope

logger = logging.getLogger(__name__)
T = TypeVar("T")

OPEN_HOME_KEY = "open-home"
_VIEW_MODE_KEYS = ("Ctrl+1", "Ctrl+2", "Ctrl+3")


def _settings_now() -> dict[str, Any] | None:
    """settings.json as it is (None when it cannot be read: every section then counts as
    changed). A small file in the config dir, read as the dialog reads it."""
    try:
        return load_settings_file(settings_path())
    except SettingsFileError as error:
        logger.info("Settings: %s", error)
        return None


def _shows(editor: EditorPanel, mode: ViewMode) -> bool:
    return editor.view_mode is mode


class WindowForActions(WindowShell, Protocol):
    """What the actions need of the window (`MainWindow`)."""

    @property
    def memory_tab(self) -> MemoryTab: ...

    def built_part(self, key: FeatureKey[T]) -> T | None: ...

    @property
    def has_traces_tab(self) -> bool: ...

    @property
    def shown_traces_tab(self) -> TracesPage | None: ...

    @property
    def is_closing(self) -> bool: ...

    def show_traces_tab(self) -> None: ...

    def exec_dialog(self, dialog: QDialog) -> int: ...

    def choose_folder(self, title: str, start: str) -> Path | None: ...

    def confirm(self, title: str, text: str) -> bool: ...

    def open_home_window(self, folder: Path) -> object: ...

    def close(self) -> bool: ...


class WindowActions(QObject):
    """The window's actions and their actions (see the module docstring)."""

    def __init__(
        self,
        context: WindowContext,
        window: WindowForActions,
        memory_tab: MemoryTabController,
        parent: QObject,
    ) -> None:
        """Register the actions in `context.actions`; `memory_tab` is the Memory tab's
        settled half (its editor, footer)."""
        super().__init__(parent)
        self._context = context
        self._window = window
        self._tab = memory_tab
        self._home_client: JobClient | None = None
        self._register()

    def _register(self) -> None:
        add = self._context.actions.add
        window = self._window
        standard = QKeySequence.StandardKey
        add(
            "window.open_home",
            "&Open home…",
            self.open_home,
            keys=["Ctrl+O", standard.Open],
            menu="file",
            tip="Open another memory home (a mux/xum home, or a folder for Memtab's own)",
        )
        add(
            "window.add_workspace",
            "&Add workspace…",
            self.add_workspace,
            menu="file",
            tip="Register a project folder and a workspace in this home",
        )
        add(
            "window.settings",
            "&Settings…",
            self.open_settings,
            keys=["Ctrl+,", standard.Preferences],
            menu="file",
            role=QAction.MenuRole.PreferencesRole,
        )
        add(
            "window.quit",
            "&Quit",
            window.close,
            keys=["Ctrl+Q", standard.Quit],
            menu="file",
            role=QAction.MenuRole.QuitRole,
        )
        add(
            "window.find",
            "&Find…",
            self.find_text,
            keys=["Ctrl+F", standard.Find],
            menu="edit",
            tip="Find in the open file (no file open: search memories; on the Traces tab: "
            "in the dump being read)",
        )
        add(
            "consolidation.run_now",
            "&Consolidate now",
            self.consolidate_now,
            keys=["Ctrl+Shift+D"],
            menu="edit",
            tip="Run the consolidator on this workspace's memory now",
            enabled_when=self._tab.footer.consolidate_button.isEnabled,
        )
        add(
            CONSOLIDATE_SCOPE,
            "Consolidate this scope",
            self.consolidate_scope,
            menu="edit",
            tip="Run the consolidator on the selected row's scope alone: only its files change",
            enabled_when=lambda: self._scope_to_consolidate() is not None,
            text_when=lambda: consolidate_text(self._window.memory_tab.tree.current_node()),
        )
        add(
            "writer.pause",
            "Pause the memory &writer",
            self.toggle_writer_pause,
            menu="edit",
            enabled_when=lambda: window.built_part(WRITER_STATUS) is not None,
            text_when=self._writer_pause_text,
        )
        modes = QActionGroup(self)
        modes.setExclusive(True)
        editor = self._tab.editor
        for mode, key in zip(ViewMode, _VIEW_MODE_KEYS, strict=True):
            modes.addAction(
                add(
                    f"window.view_{mode.name.lower()}",
                    mode.value,
                    functools.partial(self.set_view_mode, mode),
                    keys=[key],
                    menu="view",
                    checkable=True,
                    checked_when=functools.partial(_shows, editor, mode),
                )
            )
        modes.actions()[0].setChecked(True)
        add("window.show_memory", "&Memory", window.show_memory_tab, keys=["Alt+1"])
        add(
            "window.show_traces",
            "&Traces",
            window.show_traces_tab,
            keys=["Alt+2"],
            enabled_when=lambda: window.has_traces_tab,
        )
        add(
            "window.switch_workspace",
            "Switch &workspace…",
            self.open_workspace_picker,
            keys=["Ctrl+Shift+W"],
            menu="view",
        )
        add(
            "window.shortcuts",
            "&Keyboard shortcuts",
            self.show_shortcuts,
            keys=["F1", standard.HelpContents],
            menu="help",
        )
        add(
            "window.about",
            "&About Memtab",
            self.show_about,
            menu="help",
            role=QAction.MenuRole.AboutRole,
        )

    def shutdown(self) -> None:
        """Drop the jobs of Open home and Add workspace (on window close)."""
        if self._home_client is not None:
            self._home_client.shutdown()

    # -- the actions ------------------------------------------------------------------------

    def find_text(self) -> None:
        """Edit → Find (Ctrl+F): on the Traces tab, find in the dump being read; else
        find in the open file, or search memories when no file is open (in the editor,
        its own Ctrl+F wins)."""
        traces = self._window.shown_traces_tab
        if traces is not None:
            traces.find_in_trace()
            return
        self._window.show_memory_tab()
        tab = self._window.memory_tab
        editor = self._tab.editor
        editor.editor_actions.update()
        if editor.editor_actions.find_action.isEnabled():
            editor.find_in_file()
        else:
            tab.focus_search()

    def consolidate_now(self) -> None:
        """Edit → Consolidate now: the footer's button, or why it cannot start."""
        button = self._tab.footer.consolidate_button
        if button.isEnabled():
            button.click()
        else:
            self._context.status.show(button.toolTip() or "Consolidation cannot start now")

    def consolidate_scope(self) -> None:
        """Consolidate the current row's scope alone: the footer's run, or why not now."""
        scope = run_scope(self._scope_to_consolidate())
        if scope is not None:
            self._tab.footer.consolidate_scope(scope)
        else:
            button = self._tab.footer.consolidate_button
            self._context.status.show(button.toolTip() or "Consolidation cannot start now")

    def _scope_to_consolidate(self) -> Scope | None:
        """The scope "Consolidate this scope" runs: the current row's, while a run may
        start (Consolidate now is enabled)."""
        if not self._tab.footer.consolidate_button.isEnabled():
            return None
        return consolidated_scope(self._window.memory_tab.tree.current_node())

    def toggle_writer_pause(self) -> None:
        """Edit → Pause (Resume) the memory writer."""
        status = self._window.built_part(WRITER_STATUS)
        if status is not None:
            status.setPaused(not status.isPaused())

    def _writer_pause_text(self) -> str:
        status = self._window.built_part(WRITER_STATUS)
        return writer_pause_title(status is not None and status.isPaused())

    def set_view_mode(self, mode: ViewMode) -> None:
        """View → Source, Split, Preview: the editor's view, in front."""
        self._window.show_memory_tab()
        self._tab.editor.set_view_mode(mode)

    def open_workspace_picker(self) -> None:
        """View → Switch workspace: the picker, open."""
        self._window.show_memory_tab()
        combo = self._window.memory_tab.picker.combo
        combo.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if combo.isEnabled():
            combo.showPopup()

    def open_settings(self) -> None:
        """File → Settings."""
        # lazy: the dialog and the engines' settings (~40 modules) when it opens
        from memtab.gui.settings.dialog import SettingsDialog

        window = self._window
        before = _settings_now()
        dialog = SettingsDialog(
            window.as_widget(), jobs=self._context.jobs, home=self._context.home
        )
        if window.exec_dialog(dialog):
            self._context.status.show("Settings saved.")
            # News, as a change on disk is: each feature applies what it holds at once.
            self._context.settings.publish(settings_change(before, _settings_now()))

    def show_shortcuts(self) -> None:
        """Help → Keyboard shortcuts: the table made from the registered actions."""
        rows = shortcut_rows(self._context.actions)
        self._window.exec_dialog(ShortcutsDialog(rows, self._window.as_widget()))

    def show_about(self) -> None:
        """Help → About."""
        box = self.about_box()
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._window.exec_dialog(box)

    def about_box(self) -> QMessageBox:
        """Help → About's box: a small dialog (`QMessageBox.about`'s has maximize)."""
        box = QMessageBox(
            QMessageBox.Icon.Information,
            "About Memtab",
            self.about_text(),
            parent=self._window.as_widget(),
        )
        small_dialog(box)
        give_mnemonics(box)
        return box

    def about_text(self) -> str:
        """Help → About: the version, the home and where the log is."""
        return about_html(__version__, self._context.home.root, log_file())

    def add_workspace(self) -> None:
        """File → Add workspace: register a project and workspace, then show it."""
        window = self._window
        tab = window.memory_tab
        scan = tab.scan
        dialog = AddWorkspaceDialog(
            self._context.home,
            scan.registry if scan else None,
            self._home_jobs(),
            window.as_widget(),
        )
        if window.exec_dialog(dialog) and dialog.workspace_id is not None:
            window.show_memory_tab()
            added = f"Added workspace {dialog.name_edit.text()}"
            tab.switch_workspace(
                dialog.workspace_id, functools.partial(self._context.status.show, added)
            )

    def open_home(self) -> None:
        """File → Open home: choose a folder; it opens in a new window, this one closes."""
        start = str(self._context.home.root.parent)
        folder = self._window.choose_folder("Open a memory home", start)
        if folder is None:
            return
        self._home_jobs().submit_latest(
            OPEN_HOME_KEY, functools.partial(describe_home_folder, folder.absolute())
        )

    def _home_jobs(self) -> JobClient:
        """The job client of File → Open home and Add workspace (made on first use)."""
        if self._home_client is None:
            self._home_client = self._context.jobs.client("home", Lane.JOBS, parent=self)
            self._home_client.latest_finished.connect(self._on_home_client_latest_finished)
        return self._home_client

    @Slot(str, object)
    def _on_home_client_latest_finished(self, key: str, result: object) -> None:
        window = self._window
        if key != OPEN_HOME_KEY or not isinstance(result, HomeFolder) or window.is_closing:
            return
        step = open_home_step(result)
        if step.refusal is not None:
            self._context.status.show(step.refusal)
            return
        if step.question is not None and not window.confirm("Open this folder?", step.question):
            return
        self._tab.editor.leave(functools.partial(window.open_home_window, result.path))
