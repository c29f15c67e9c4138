"""The window's own actions (ids `window.*`, `consolidation.run_now`, `consolidation.run_scope`,
`writer.pause`), acting through `CommandWindow` and its seams (`exec_dialog`, `choose_folder`,
`confirm`), which tests answer instead.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QSize, Qt, Slot
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTextBrowser,
    QWidget,
)

from memtab import __version__
from memtab.components.consolidation.consolidation import CONSOLIDATE_SCOPE
from memtab.components.editor.panel import ViewMode
from memtab.components.files.rules import consolidate_text, consolidated_scope
from memtab.components.window.menus import (
    ADD_LABEL,
    FIELD_KEYS,
    NOTES,
    Added,
    AddWorkspaceForm,
    FolderCheck,
    HomeFolder,
    Register,
    ShortcutRow,
    about_html,
    check_folder,
    describe_home_folder,
    folder_name,
    matches,
    open_home_step,
    register_workspace,
    shortcuts_html,
    typed_project,
    worth_checking,
    writer_pause_title,
)
from memtab.components.window.settings_news import settings_change
from memtab.fs.config.settings_file import SettingsFileError, load_settings_file, settings_path
from memtab.gui.context import WindowContext
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.memory_tab.controller import MemoryTabController
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.clock import qtimer
from memtab.gui.toolkit.dialog_layout import (
    OK_CANCEL,
    button_box,
    fit_to_screen,
    give_mnemonics,
    grow_to_fit,
    small_dialog,
)
from memtab.gui.toolkit.style import Accent, accent_text, mute
from memtab.gui.toolkit.widgets import hbox, named, vbox
from memtab.gui.window.keys import WRITER_STATUS
from memtab.gui.window.menus import shortcut_rows
from memtab.logs import log_file
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.sidecars.journal import run_scope
from memtab.store.sidecars.registry import Registry

logger = logging.getLogger(__name__)


CHECK_DELAY_MS = 400  # after the last keystroke, the typed folder is looked at


class AddWorkspaceDialog(QDialog):
    """Registers a project and a workspace (see the module docstring).

    `workspace_id` holds the new workspace's id once the dialog was accepted.
    """

    def __init__(
        self,
        home: Home,
        registry: Registry | None,
        runner: JobClient,
        parent: QWidget | None = None,
    ) -> None:
        """`runner` (the window's actions' job client) runs the registration."""
        super().__init__(parent)
        self.setObjectName("addWorkspaceDialog")
        self.setWindowTitle("Add a workspace — Memtab")
        self.home = home
        self.workspace_id: str | None = None
        self._runner = runner
        self._job: int | None = None
        self._check_job: int | None = None
        self._form = AddWorkspaceForm()
        runner.job_finished.connect(self._on_runner_job_finished)
        runner.job_failed.connect(self._on_runner_job_failed)

        intro = QLabel(
            "A workspace is one line of work (a branch, a session) in a project; its "
            "memory sits beside the project's and the global memory.",
            self,
        )
        mute(intro, wrap=True)
        self.project_edit = named(QComboBox(self), accessible="Project folder")
        self.project_edit.setEditable(True)
        self.project_edit.setMinimumContentsLength(32)
        for project in registry.projects if registry is not None else ():
            if not project.path.startswith("_"):  # "_multi", "_scratch": not folders
                self.project_edit.addItem(project.path)
        self.project_edit.setCurrentText("")
        # What is typed stays as typed: the registered projects are offered in a popup
        # (accepted with Enter or a click), never completed inline, never added as items.
        self.project_edit.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        completer = QCompleter(self.project_edit.model(), self.project_edit)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseSensitive)
        self.project_edit.setCompleter(completer)
        line = self.project_edit.lineEdit()
        if line is not None:
            line.setPlaceholderText("/path/to/your/project")
        self.project_edit.currentTextChanged.connect(self._on_project_edit_text_changed)
        self._check_timer = qtimer(self, self._on_check_timer_timeout, CHECK_DELAY_MS)
        self.folder_note = named(QLabel(self), "folderNote", accessible="About the project folder")
        mute(self.folder_note, wrap=True)
        self.folder_note.hide()
        browse = named(QPushButton("Choose…", self), accessible="Choose the project folder")
        browse.clicked.connect(self._on_browse_clicked)
        project_row = hbox((self.project_edit, 1), browse)
        self.name_edit = named(QLineEdit(self), accessible="Workspace name")
        self.name_edit.setPlaceholderText("main")
        self.name_edit.textEdited.connect(self._on_name_edit_text_edited)
        form = QFormLayout()
        form.addRow("Project folder:", project_row)
        form.addRow("", self.folder_note)
        form.addRow("Workspace name:", self.name_edit)
        self.error_label = named(QLabel(self), accessible="Why the workspace was not added")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {accent_text(self.palette(), Accent.ERROR).name()}")
        self.error_label.hide()
        self.buttons = button_box(self, OK_CANCEL, ok=ADD_LABEL)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        vbox(intro, form, self.error_label, self.buttons, on=self)
        fit_to_screen(self, QSize(520, 0))  # room for a path; less on a narrow screen

    @property
    def busy(self) -> bool:
        """Whether the workspace is being registered."""
        return self._job is not None

    def accept(self) -> None:
        """Register the workspace off the GUI thread; the dialog closes when it is done."""
        if self.busy:
            return
        asked = self._form.add(self.project_edit.currentText(), self.name_edit.text())
        if not isinstance(asked, Register):
            self._show_error(asked)
            return
        self.buttons.setEnabled(False)
        self._job = self._runner.submit(
            functools.partial(
                register_workspace, self.home, asked.project, asked.name, asked.allow_missing
            )
        )

    def done(self, result: int) -> None:
        """Close; a registration still running finishes, its answer no longer shown."""
        self._check_timer.stop()
        self._runner.job_finished.disconnect(self._on_runner_job_finished)
        self._runner.job_failed.disconnect(self._on_runner_job_failed)
        super().done(result)

    def _show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.show()
        self.folder_note.hide()  # the error says it
        grow_to_fit(self)  # a note or an error shown whole

    @Slot(int, object)
    def _on_runner_job_finished(self, job: int, result: object) -> None:
        if job == self._check_job and isinstance(result, FolderCheck):
            self._check_job = None
            if self._form.still_typed(result, self.project_edit.currentText()):
                shown = result.problem is not None and not self.error_label.isVisible()
                self.folder_note.setText(result.problem or "")
                self.folder_note.setVisible(shown)
                grow_to_fit(self)
            return
        if job != self._job or not isinstance(result, Added):
            return
        self._job = None
        self.buttons.setEnabled(True)
        answer = self._form.answered(result, self.project_edit.currentText())
        self.ok_button.setText(answer.ok_label)
        if answer.error is not None:
            self._show_error(answer.error)
            return
        self.workspace_id = answer.workspace_id
        super().accept()

    @Slot(int, str)
    def _on_runner_job_failed(self, job: int, message: str) -> None:
        if job == self._job:
            self._job = None
            self.buttons.setEnabled(True)
            self._show_error(message)

    @Slot()
    def _on_browse_clicked(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, "Project folder", self.project_edit.currentText() or str(Path.home())
        )
        if folder:
            self.project_edit.setCurrentText(folder)

    @Slot(str)
    def _on_project_edit_text_changed(self, text: str) -> None:
        if not self._form.name_typed:  # the folder's name, until the user types one
            self.name_edit.setText(folder_name(text))
        self._form.project_changed()
        self.ok_button.setText(self._form.ok_label)
        self.error_label.hide()
        self.folder_note.hide()
        self._check_timer.start()

    @Slot()
    def _on_check_timer_timeout(self) -> None:
        project = typed_project(self.project_edit.currentText())
        if worth_checking(project):
            self._check_job = self._runner.submit(functools.partial(check_folder, project))

    @Slot(str)
    def _on_name_edit_text_edited(self, _text: str) -> None:
        self._form.name_typed = True


class ShortcutsDialog(QDialog):
    """The keyboard shortcuts of the window's actions and fields, filterable."""

    def __init__(self, rows: list[ShortcutRow], parent: QWidget | None = None) -> None:
        """Show `rows` (see `menus.shortcut_rows`), then the fields' own keys."""
        super().__init__(parent)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle("Keyboard shortcuts — Memtab")
        self.rows = [*rows, *FIELD_KEYS]
        self.filter_edit = named(QLineEdit(self), accessible="Filter shortcuts")
        self.filter_edit.setPlaceholderText("Filter: a name or a key (redo, Ctrl+S, tab…)")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self._on_filter_edit_text_changed)
        self.table = named(QTextBrowser(self), accessible="Keyboard shortcuts")
        notes = mute(QLabel(NOTES, self), wrap=True)
        vbox(self.filter_edit, (self.table, 1), notes, button_box(self), on=self)
        self.shown_rows: list[ShortcutRow] = []
        self._show(self.rows)
        self.filter_edit.setFocus()
        fit_to_screen(self, QSize(520, 600), remember="shortcuts")

    def _show(self, rows: list[ShortcutRow]) -> None:
        self.shown_rows = rows
        self.table.setHtml(shortcuts_html(rows))

    @Slot(str)
    def _on_filter_edit_text_changed(self, text: str) -> None:
        self._show([row for row in self.rows if matches(row, text)])


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


class WindowActions(QObject):
    """The window's actions and their actions (see the module docstring)."""

    def __init__(
        self,
        context: WindowContext,
        window: MainWindow,
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
            functools.partial(self.consolidate_now, scope=True),
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
            text_when=lambda: writer_pause_title(
                (status := window.built_part(WRITER_STATUS)) is not None and status.isPaused()
            ),
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

    def consolidate_now(self, scope: bool = False) -> None:
        """Edit → Consolidate now (`scope`: the current row's scope alone): the footer's
        run, or why it cannot start."""
        footer = self._tab.footer
        button = footer.consolidate_button
        run = run_scope(self._scope_to_consolidate()) if scope else None
        if run is not None or (button.isEnabled() and not scope):
            footer.consolidate(run)
        else:
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
        # lazy: the settled window's start — the dialog's ~80 modules load when it opens
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
