"""One open memory file of the editor: a tab, saved only if the disk still holds what was
loaded (sha-checked); a conflict or a change on disk never loses the draft. The rules are
`components.editor.session`, carried out by `components.editor.document.OpenDocument`.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Generic, TypeVar

from PySide6.QtCore import QEvent, QObject, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QMouseEvent, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from memtab.components import merge as choices
from memtab.components.activity.own_writes import OwnWrites
from memtab.components.editor.disk_jobs import FileJobs
from memtab.components.editor.document import OpenDocument
from memtab.components.editor.merge import Comparison, KeepBoth, MergeBasis, MergeOutcome, compare
from memtab.components.editor.panel import (
    CUT_FOLLOW_MS,
    CutFollow,
    ReadingPage,
    ViewMode,
    follow_link,
    has_cut,
    note_after_saving_anyway,
)
from memtab.components.editor.session import (
    MERGE,
    RELOAD,
    BarKind,
    Choice,
    SaveStart,
    Situation,
    default_choice,
)
from memtab.components.editor.text_buffer import with_description
from memtab.components.loads.loads import (
    GO_TO_CUT,
    IMPORT_HREF,
    MOVE_PAST_CUT,
    NOTE_CHOICES,
    SAVE_CHOICES,
    SAVE_PAST_CUT,
    import_at,
    reads_imports,
)
from memtab.components.tree.nodes import ref_key
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile
from memtab.gui.editor.tab.bar import MessageBar
from memtab.gui.editor.tab.held_keys import HeldKeys
from memtab.gui.editor.text.view import EditorView
from memtab.gui.tasks.jobs import JobClient
from memtab.gui.toolkit.clock import QT_CLOCK, GuiClock, call_soon
from memtab.gui.toolkit.text import diff_view
from memtab.gui.toolkit.text.three_way import ThreeWayView
from memtab.gui.toolkit.widgets import vbox
from memtab.humanize import short_name
from memtab.store.paths import VirtualPath
from memtab.store.scopes.memory import MemoryStore

TaskSource = Callable[[], JobClient]
"""Gives the job client the diffs run on (one for every tab, made on first use)."""

_diff_keys = itertools.count(1)
T = TypeVar("T")


class EditorPrompts(QObject):
    """The message bar and the diff window of one editor panel."""

    action_chosen = Signal(str)  # an action id, from a bar button or a diff window button
    dismissed = Signal()  # the bar was closed by the user

    def __init__(self, page: QWidget, tasks: TaskSource) -> None:
        """A hidden bar on `page`; `tasks()` gives the job client the diffs run on (shared
        by every tab: each tab's diff has its own key, the latest of which wins)."""
        super().__init__(page)
        self._page = page
        self._task_source = tasks
        self._tasks: JobClient | None = None
        self._diff_key = f"editor-diff-{next(_diff_keys)}"
        self.diff_dialog: diff_view.DiffDialog | None = None
        self._keep_both = KeepBoth()
        self._three_way: ThreeWayView | None = None
        self._filling = False  # the three-way view is being filled (not edited)
        self.bar = MessageBar(page)
        self.bar.action_triggered.connect(self.action_chosen)
        self.bar.dismissed.connect(self.dismissed)

    @property
    def merge(self) -> MergeOutcome | None:
        """The text the open diff window's Keep both would put in place of the draft
        (`components.editor.merge.KeepBoth`); None when there is none."""
        view = self._three_way
        kept = view.merged_text() if view is not None and view.texts is not None else None
        return self._keep_both.outcome(kept)

    def show(self, kind: BarKind, text: str, choices: list[Choice] | None = None) -> None:
        """Show `text` in the bar with a button for each choice (Enter: the safe one)."""
        choices = choices or []
        self.bar.show_message(kind, text, choices, default=default_choice(choices))

    def clear(self) -> None:
        self.bar.clear()

    def open_diff(
        self,
        title: str,
        old_label: str,
        old: str,
        new: str,
        choices: list[Choice],
        merge_basis: MergeBasis | None = None,
    ) -> None:
        """Open a window comparing `old` (red) with the draft `new` (green), offering
        `choices`; the diff (and, with `merge_basis`, the merge of the draft with `old`)
        is computed on the worker thread."""
        self.close_diff()
        dialog = diff_view.DiffDialog(title, old_label, "Your draft", choices, self._page)
        dialog.action_triggered.connect(self.action_chosen)
        dialog.finished.connect(self._on_diff_dialog_finished)
        if merge_basis is not None:
            # Three ways: each side's changes tinted by who made them (the agent's added
            # line is not a red "−"), and the text to keep, which Keep both puts in place.
            self._three_way = ThreeWayView(dialog)
            self._three_way.merged_edited.connect(self._on_three_way_merged_edited)
            dialog.add_first_view(self._three_way, "Three ways")
        self.diff_dialog = dialog
        self._runner().submit_latest(
            self._diff_key, functools.partial(compare, old, new, merge_basis)
        )
        dialog.show()

    def close_diff(self) -> None:
        """Close the diff window, if open, and drop its diff job."""
        if self.diff_dialog is not None:
            self.diff_dialog.finished.disconnect(self._on_diff_dialog_finished)
            self.diff_dialog.close()
        self._on_diff_dialog_finished(0)

    def _runner(self) -> JobClient:
        if self._tasks is None:
            self._tasks = self._task_source()
            self._tasks.latest_finished.connect(self._on_tasks_latest_finished)
            self._tasks.latest_failed.connect(self._on_tasks_latest_failed)
        return self._tasks

    @Slot()
    def _on_three_way_merged_edited(self) -> None:
        dialog = self.diff_dialog
        if self._filling or dialog is None or not self._keep_both.text_edited():
            return
        with contextlib.suppress(KeyError):  # the user made a text to keep: it may be used
            button = dialog.button(MERGE)
            button.setEnabled(True)
            button.setText(choices.KEEP_TEXT.label)  # what it keeps now, as Resolve conflicts…
            button.setToolTip(choices.KEEP_TEXT.tip)

    @Slot(int)
    def _on_diff_dialog_finished(self, _result: int) -> None:
        # closed by the user, or by `close_diff`: its merge and its job go with it
        self._keep_both.reset()
        self._three_way = None
        dialog, self.diff_dialog = self.diff_dialog, None
        if dialog is not None:
            dialog.deleteLater()
        if self._tasks is not None:
            self._tasks.cancel_latest(self._diff_key)

    @Slot(str, object)
    def _on_tasks_latest_finished(self, key: str, result: object) -> None:
        dialog = self.diff_dialog
        if key != self._diff_key or dialog is None or not isinstance(result, Comparison):
            return
        dialog.set_diff(result.diff)
        self._keep_both.merged(result.merge, result.disk_sha)
        if self._three_way is not None and result.three_way is not None:
            self._filling = True
            try:
                self._three_way.set_texts(result.three_way)
            finally:
                self._filling = False
        dialog.set_merge(result.merge)

    @Slot(str, str)
    def _on_tasks_latest_failed(self, key: str, message: str) -> None:
        if key == self._diff_key and self.diff_dialog is not None:
            self.diff_dialog.show_failure(message)


class WhileReading:
    """The "Reading…" page and the held keys of one tab while its text is on its way from
    the file channel (typed keys are held, then typed into the loaded text); `overdue()` is
    called when the page says "Reading…" once the read is overdue."""

    def __init__(self, view: EditorView, clock: GuiClock, overdue: Callable[[], None]) -> None:
        self._view = view
        self._overdue_said = overdue
        self._keys = HeldKeys(
            [view.text_edit, view.description_edit], lambda: [view.text_edit.viewport()], view
        )
        self._page = ReadingPage()
        self._overdue = clock.timer(view, self._on_overdue, single_shot=True)

    @property
    def page(self) -> bool:
        """Whether the page says "Reading…" (else, while reading, it still shows the file
        before, and its state)."""
        return self._page.page

    def hold_keys(self) -> None:
        """The text is on its way: hold what is typed from now on."""
        self._keys.hold()

    def say(self, title: str, tooltip: str) -> None:
        """The text is still on its way: say "Reading…" under `title` at once if no
        file's text is shown, else once the read is overdue."""
        wait_ms = self._page.say(title, tooltip, has_file=self._view.has_file)
        if wait_ms is None:
            self._show_page()
        else:
            self._overdue.start(wait_ms)

    def release_keys(self) -> None:
        """The text is loaded: type what was held into it."""
        self._keys.release()

    def ended(self) -> None:
        """A page is shown in place of "Reading…" (the text, or why there is none)."""
        self._page.ended()
        self._overdue.stop()

    def drop(self) -> None:
        """Another file opens, or the tab closes: no page to come, and the keys held for
        this text are dropped."""
        self._overdue.stop()
        self._keys.drop()

    def _show_page(self) -> None:
        self._view.show_reading(self._page.title, self._page.tooltip)
        self._page.shown()

    def _on_overdue(self) -> None:
        self._show_page()
        self._overdue_said()


class ImportClicks(QObject):
    """Follows Ctrl+clicks on the `@`-imports of `text_edit` while `on`."""

    link_clicked = Signal(str)  # the import clicked, as a preview link names it (`@path`)

    def __init__(self, text_edit: QPlainTextEdit) -> None:
        super().__init__(text_edit)
        self.on = False
        self._text_edit = text_edit
        text_edit.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            self.on
            and event.type() == QEvent.Type.MouseButtonRelease
            and isinstance(event, QMouseEvent)
            and event.button() == Qt.MouseButton.LeftButton
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            cursor = self._text_edit.cursorForPosition(event.position().toPoint())
            written = import_at(cursor.block().text(), cursor.positionInBlock())
            if written is not None:
                self.link_clicked.emit(f"{IMPORT_HREF}{written}")
                return True
        return False


class FileTab(QWidget):
    """One open memory file (or, as the panel's empty page, none)."""

    saved = Signal(object)  # the file's MemoryFileRef, after a save
    # the file's MemoryFileRef, once it was opened or reloaded whole and its text is shown
    opened = Signal(object)
    # its title, unsaved state or read-only state changed (the tab bar follows)
    state_changed = Signal()
    close_requested = Signal()  # the bar's Close was chosen (the panel asks, then closes)
    # a link of the preview to a memory file (its MemoryFileRef) was clicked
    link_opened = Signal(object)
    # an `@`-import of the text or the preview was followed: the file it names on disk (a Path),
    # which may be no memory file
    path_link_opened = Signal(object)
    # a button of the bar asks for another feature's registered action, by its id (the cut's Go to
    # the cut, Move them to a topic file: `components.loads.loads`)
    action_requested = Signal(str)

    def __init__(
        self,
        own_writes: OwnWrites,
        files: FileJobs,
        tasks: TaskSource,
        parent: QWidget | None = None,
        *,
        clock: GuiClock = QT_CLOCK,
    ) -> None:
        """Nothing open; reads and saves go through `files` (the window's file channel),
        diffs run on the job client `tasks` gives; `clock` times a slow read's "Reading…" and
        when the cut's bar follows the typing."""
        super().__init__(parent)
        self.kept = False
        """A kept tab stays when another file opens; a preview tab (False) is replaced."""
        self._last_dirty = False
        self.title = ""
        self._physical_only: Path | None = None  # an orphan's file, shown read-only
        self._after_load: list[Callable[[], None]] = []  # once the text is shown
        self._cut = CutFollow()
        self.view = EditorView(self)
        self.prompts = EditorPrompts(self.view.page, tasks)
        self.view.set_bar(self.prompts.bar)
        reading = WhileReading(self.view, clock, self.refresh_chrome)
        self.doc = OpenDocument(self, self.view, self.prompts, reading, own_writes, files)
        vbox(self.view, on=self, margins=0)
        self.view.save_requested.connect(self.save)
        self.view.modified_changed.connect(self.refresh_chrome)
        self.view.description_edited.connect(self._on_view_description_edited)
        self.prompts.action_chosen.connect(self._on_prompts_action_chosen)
        self.prompts.dismissed.connect(self._on_prompts_dismissed)
        self.view.preview.link_clicked.connect(self._on_preview_link_clicked)
        self._import_clicks = ImportClicks(self.view.text_edit)
        self._import_clicks.link_clicked.connect(self._on_preview_link_clicked)
        self._cut_follow = clock.timer(self, self._follow_cut, single_shot=True)
        self.view.text_edit.document().contentsChanged.connect(self._on_document_contents_changed)

    @property
    def file(self) -> MemoryFile | None:
        """The open memory file (None: no file, or one opened by physical path)."""
        return self.doc.document

    @property
    def ref(self) -> MemoryFileRef | None:
        """Which memory file is open (None: none, or one opened by physical path)."""
        return self.doc.file.ref

    @property
    def path(self) -> VirtualPath | None:
        """The open file's virtual path (None: none, or another agent's file: it has none)."""
        return self.ref.virtual_path if self.ref is not None else None

    @property
    def key(self) -> str | None:
        """The tree key of the open file, or None."""
        return ref_key(self.ref) if self.ref is not None else None

    @property
    def identity(self) -> str | None:
        """What tells two tabs apart: the ref's key, or the physical path of a file shown
        only to be read (None: nothing is shown)."""
        if self.doc.file.ref is not None:
            return self.doc.file.ref.key
        return f"physical:{self._physical_only}" if self._physical_only is not None else None

    @property
    def tooltip(self) -> str:
        """The tab's tooltip: the whole title and where the file is on disk."""
        return self.view.path_tooltip

    @property
    def reading(self) -> bool:
        """Whether the file's content is on its way from disk (the page says "Reading…")."""
        return self.doc.reading

    def after_load(self, then: Callable[[], None]) -> None:
        """Run `then` once the open file's text is shown: now if it is (a selection, a
        highlight of its lines); dropped if another file opens first."""
        if self.doc.reading:
            self._after_load.append(then)
        else:
            then()

    @property
    def is_dirty(self) -> bool:
        """Unsaved changes: an edited buffer, or a draft whose file is gone from disk."""
        return self.doc.file.is_dirty(self.view.is_modified())

    @property
    def is_read_only(self) -> bool:
        """Whether the open file cannot be edited here (binary, over the cap, orphan)."""
        return self.doc.file.is_read_only

    @property
    def may_autosave(self) -> bool:
        """Whether auto save may save it now (`OpenFile.may_autosave`)."""
        return self.doc.file.may_autosave(self.view.is_modified())

    @property
    def real_path(self) -> Path | None:
        """Where the open file is on disk (None: no file, or one Memtab cannot place)."""
        return self.doc.real_path

    def open(self, file: MemoryFile) -> None:
        """Open and load `file` (read-only when its agent writes it; an unreadable one
        with the error in the bar)."""
        self._opening(None, file.name)
        self.doc.open(file)

    def open_read_only(self, physical: Path, title: str, note: str) -> None:
        """Show a file that is not in a scope of this workspace (e.g. an orphan project
        dir), read-only with `note`; `title` takes the place of the virtual path."""
        self._opening(physical, physical.name)
        self.doc.open_physical(physical, title, note)

    def show_unavailable(self, title: str, note: str) -> None:
        """Show `title` with nothing to edit and why (e.g. no workspace is selected)."""
        self.doc.reset()
        self._opening(None, title)
        self.doc.show_page(title, "", note)

    def _opening(self, physical: Path | None, name: str) -> None:
        self._after_load.clear()
        self._physical_only = physical
        self.title = short_name(name)

    def keep_in(self, store: MemoryStore | None) -> bool:
        """Another workspace's store is used: keep the file if it is still there
        (`MemoryFile.in_store`); False when it is not (the panel closes the tab)."""
        document = self.doc.document
        kept = document.in_store(store) if document is not None else None
        if kept is None:
            return False
        self.doc.document = kept
        return True

    def retarget(self, file: MemoryFile) -> None:
        """The open file was moved to `file`'s place (its content with it): follow it,
        keeping the buffer and what the next save expects on disk."""
        self.doc.retarget(file)
        self.document_moved(file)

    def follow_changes(
        self,
        changed: Collection[MemoryFileRef],
        listed: Callable[[MemoryFileRef], MemoryFile | None] | None = None,
    ) -> None:
        """A rescan saw the files `changed`: the open file follows the disk, or where it
        was renamed (`OpenDocument.follow_changes`)."""
        self.doc.follow_changes(changed, listed)

    def save(self, then: Callable[[bool], None] | None = None) -> None:
        """Save the buffer if the file on disk is still the one loaded (on the file
        channel); `then(True)` once saved — nothing to save counts — or `then(False)`:
        nothing to save here, or the conflict or error is in the bar. Asked while the file
        is read, it saves once the text (and what was typed meanwhile) is in."""
        start = self.doc.file.save_start(self.view.is_modified(), self.doc.saving)
        if start is SaveStart.AFTER_TEXT:  # and what was typed while it was read
            self.after_load(lambda: call_soon(self, functools.partial(self.save, then)))
        elif start is not SaveStart.SAVE:
            if then is not None:
                then(start is SaveStart.SAVED)
        elif not self._waits_past_cut(then):
            self.doc.save_against(self.doc.file.save_expectation(), then=then)

    def _waits_past_cut(self, then: Callable[[bool], None] | None) -> bool:
        """A save of MEMORY.md past Claude Code's cut waits for the user's word
        (`OpenFile.past_cut_warning`), unless they gave it for this text; True when it waits."""
        warning = self._cut.save_waits(self.doc.file, self.view.buffer_text())
        if warning is None:
            return False
        self.doc.show_bar(Situation.PAST_CUT, BarKind.WARNING, warning, list(SAVE_CHOICES))
        if then is not None:
            then(False)
        return True

    def _follow_cut(self) -> None:
        """The cut's bar follows the text of Claude Code's MEMORY.md (`CutFollow.follow`):
        new words, or it goes, or the note comes."""
        bar = self.prompts.bar
        step = self._cut.follow(
            self.doc.file, self.view.buffer_text(), (bar.text, bar.action_ids())
        )
        if step.clear:
            self.doc.clear_bar()
        elif step.text:
            self.doc.show_bar(step.situation, BarKind.WARNING, step.text, list(step.choices))

    @property
    def saving(self) -> bool:
        return self.doc.saving

    def show_notice(self, kind: BarKind, text: str) -> None:
        self.doc.show_bar(Situation.ERROR if kind is BarKind.ERROR else Situation.NOTE, kind, text)

    def shutdown(self) -> None:
        """The tab closes: drop the reads on their way, close its find bar (a re-find may
        be pending) and its diff window, if open."""
        self.doc.close()
        self._after_load.clear()
        self.view.close_find()
        self.prompts.close_diff()

    # --- DocumentHost ------------------------------------------------------------------------

    def refresh_chrome(self) -> None:
        """Show the open file's state (header, Save); `state_changed` for the tab bar."""
        dirty = self.is_dirty
        if self.doc.while_reading.page or not self.doc.reading:  # else: the file before
            state = self.doc.file.state(self.view.is_modified())
            self.view.show_state(state, can_save=not self.doc.file.is_read_only and dirty)
        if dirty and not self._last_dirty:
            self.kept = True  # an edited preview is kept, as in VS Code
        self._last_dirty = dirty
        self.state_changed.emit()

    def document_opened(self, ref: MemoryFileRef) -> None:
        """`opened` for the document just opened and shown (`DocumentHost`), then what
        waited for its text (`after_load`)."""
        self._import_clicks.on = imports = reads_imports(ref)
        self.view.set_imports(imports)
        self._cut_follow.stop()  # the note, if any, came with the text
        self._cut.opened(self.doc.file.clean_text)
        self.opened.emit(ref)
        waiting, self._after_load = self._after_load, []
        for then in waiting:
            then()

    def document_saved(self, ref: MemoryFileRef) -> None:
        """`saved` for the document just saved (`DocumentHost`)."""
        self.saved.emit(ref)

    def document_moved(self, document: MemoryFile) -> None:
        """The open file is `document` now, elsewhere: its name in the tab and the header,
        then `opened` (once its text is shown, if it is on its way)."""
        self.title = short_name(document.name)
        real = f"\nOn disk: {self.doc.real_path}" if self.doc.real_path is not None else ""
        self.view.set_title(document.title, f"{document.title}{real}")
        self.refresh_chrome()
        if not self.doc.reading:  # else once its text is shown
            self.opened.emit(document.ref)

    def close_after_asking(self) -> None:
        """The bar's Close: the panel asks about unsaved changes, then closes the tab."""
        self.close_requested.emit()

    @Slot(str)
    def _on_view_description_edited(self, text: str) -> None:
        if self.doc.file.is_read_only or self.doc.document is None:
            return
        new_text = with_description(self.view.buffer_text(), text)
        # Typed and then cleared again: nothing to save.
        clean = new_text == self.doc.file.clean_text and self.doc.file.exists_on_disk
        self.view.apply_description(new_text, clean=clean)

    @Slot(str)
    def _on_prompts_action_chosen(self, action: str) -> None:
        if action == SAVE_PAST_CUT:
            self._cut.save_anyway(self.view.buffer_text())
            self.doc.clear_bar()
            self.save(self._after_save_anyway)
            return
        if action in (GO_TO_CUT, MOVE_PAST_CUT):
            self.action_requested.emit(action)
            return
        self.doc.perform(action)

    def _after_save_anyway(self, saved: bool) -> None:
        """Saved past the cut: the cut's note says what Claude Code does not read now."""
        note = note_after_saving_anyway(saved, self.doc.file.situation, self.view.buffer_text())
        if note is not None:
            self.doc.show_bar(Situation.CUT_NOTE, BarKind.WARNING, note, list(NOTE_CHOICES))

    @Slot()
    def _on_document_contents_changed(self) -> None:
        if has_cut(self.doc.file.ref) and not self.doc.reading:
            self._cut_follow.start(CUT_FOLLOW_MS)

    @Slot(str)
    def _on_preview_link_clicked(self, href: str) -> None:
        target = follow_link(self.ref, href, self.real_path, Path.home())
        if target.file is not None:
            self.path_link_opened.emit(target.file)
        elif target.ref is not None:
            self.link_opened.emit(target.ref)
        elif target.anchor is not None:
            self.view.preview.scrollToAnchor(target.anchor)
        elif target.web is not None:
            QDesktopServices.openUrl(QUrl(target.web))
        else:
            self.show_notice(BarKind.INFO, target.why)

    @Slot()
    def _on_prompts_dismissed(self) -> None:
        self.doc.file.situation = Situation.NONE


class OfTab(Generic[T]):
    """A property of the panel read off a tab: the current one or the empty page (built if
    need be), or, given a `default` for neither, the shown one (`CurrentTab._shown`)."""

    def __init__(self, get: Callable[[FileTab], T], *default: T) -> None:
        self._get, self._default = get, default

    def __get__(self, panel: CurrentTab, owner: object = None) -> T:
        if not self._default:
            return self._get(panel._current)
        tab = panel._shown
        return self._get(tab) if tab is not None else self._default[0]


class CurrentTab:
    """The current tab's side of `EditorPanel` (a mixin: `_current` is the panel's)."""

    @property
    def _current(self) -> FileTab:
        """The current tab, else the empty page (built now if it was not)."""
        raise NotImplementedError

    @property
    def _shown(self) -> FileTab | None:
        """The current tab, else the empty page if built (None: the empty state, no page:
        no file, nothing typed, the text shown as it is by default)."""
        raise NotImplementedError

    current_file = OfTab(lambda tab: tab.file, None)  # None also for a file by physical path
    current_ref = OfTab(lambda tab: tab.ref, None)
    current_path = OfTab(lambda tab: tab.path, None)  # None for another agent's: it has none
    current_key = OfTab(lambda tab: tab.key, None)  # the tree's
    has_file = OfTab(lambda tab: tab.view.has_file, False)  # a file's page, not the empty state
    is_dirty = OfTab(lambda tab: tab.is_dirty, False)
    is_reading = OfTab(lambda tab: tab.reading, False)  # "Reading…"
    is_read_only = OfTab(lambda tab: tab.is_read_only, False)  # binary, over the cap, orphan
    view_mode = OfTab(lambda tab: tab.view.view_mode, ViewMode.SOURCE)  # a new view's
    real_path = OfTab(lambda tab: tab.real_path, None)  # None: no file, or one not placed
    text_edit = OfTab(lambda tab: tab.view.text_edit)
    description_edit = OfTab(lambda tab: tab.view.description_edit)
    message_bar = OfTab(lambda tab: tab.prompts.bar)  # conflicts, disk changes, notes, errors
    preview = OfTab(lambda tab: tab.view.preview)
    save_button = OfTab(lambda tab: tab.view.save_button)
    diff_dialog = OfTab(lambda tab: tab.prompts.diff_dialog)  # while one is open
    find_bar = OfTab(lambda tab: tab.view.find_bar)

    @property
    def expected_on_disk(self) -> str | None:
        """The sha the current file's next save expects on disk (None: it must not exist):
        what another operation writing the buffer's text checks too."""
        return self._current.doc.file.save_expectation()

    def revert_to_disk(self) -> None:
        """File → Revert file: the version on disk in place of the draft, which stays
        restorable with Undo (as the conflict bar's Reload)."""
        self._current.doc.perform(RELOAD)

    def buffer_text(self) -> str:
        """What the current tab holds, with `\\n` line breaks."""
        return self._current.view.buffer_text()

    def set_view_mode(self, mode: ViewMode) -> None:
        """Show the source, the preview, or both (in the current tab)."""
        self._current.view.set_view_mode(mode)

    def set_badge(self, text: str | None, tooltip: str = "") -> None:
        """Show who changed the current file since it was opened (the tab decides), or not."""
        tab = self._current if text is not None else self._shown
        if tab is not None:  # else no badge is shown
            tab.view.set_badge(text, tooltip)

    @property
    def badge_text(self) -> str:
        """The badge shown in the current tab's header ("" when none)."""
        label = self._current.view.badge_label
        return label.text() if label.isVisibleTo(self._current) else ""

    def show_diff(self) -> None:
        """Open a window with the differences between the disk version and the draft."""
        self._current.doc.show_diff()

    def edit_at_end(self) -> None:
        """Put the cursor at the end of the current text, with the focus (a new file's
        body: what the user types next goes there)."""
        view = self._current.view
        if view.has_file and not self.is_read_only:
            view.text_edit.moveCursor(QTextCursor.MoveOperation.End)
            view.text_edit.setFocus(Qt.FocusReason.OtherFocusReason)
