"""One open memory file of the editor: a tab, saved only if the disk still holds what
was loaded.

What it guarantees:

- Saves are sha-checked (`MemoryFile.save(content, loaded_sha)`) and end the file with a
  line break (the buffer gets it too, as an undoable edit; the cursor stays). A conflict
  never loses the draft: the bar (not a modal) offers Compare / Keep mine / Keep theirs
  (Alt+C, Alt+M, Alt+T from anywhere, `editor.bar_keys`; Enter on the bar: Compare); the
  100 KiB cap and other save errors show there too.
- Disk changes (`follow_changes`, after each rescan): a clean buffer reloads silently,
  keeping cursor and scroll; a dirty one gets a "changed on disk" bar (Compare / Keep
  mine / Keep theirs); a deleted file keeps the draft and Save recreates it. Whether
  anything changed is decided by sha, so the echo of our own save is a no-op.
- Reload, Keep theirs and the diff window's "Keep both" (`components.editor.merge`, when the two
  sides changed different lines) replace the buffer with one undoable edit and offer
  "Restore my draft", so they need not ask first.
- The description field edits the frontmatter `description:` line and follows it.
- Claude Code's MEMORY.md says on the bar what Claude Code does not read of it, and a
  save that would push more lines past its cut waits for *Save anyway*; both bars follow
  the text (`components.loads`) and their *Go to the cut* and *Move them to a
  topic file* are the loads feature's actions (`action_requested`).
- Binary (NUL) and over-cap files open read-only with a note; so does another agent's
  file that agent writes itself (Codex's generated files, loki-mode's), the bar saying who.
- Diffs and merges are computed off the GUI thread (`components.editor.merge.compare`),
  never blocking; the file is read and saved on the window's file channel
  (`components.editor.disk_jobs`): a file opens at once saying "Reading…", and its text
  follows (`opened` then, `after_load` for what needs it).

What is open is a `memtab.file_protocol.memory_file.MemoryFile`: a mux file through the
workspace's store, or another agent's file through `memtab.sources` — read, saved and
followed alike, never asked which kind it is.

The rules (what a disk change means, which choices to offer) are the Qt-free
`components.editor.session`; the Qt-free presenter `components.editor.document.OpenDocument`
carries out what they decide (loading, saving, following the disk, the bar's choices) over
this tab (its `DocumentHost`), the bar and the diff window (`prompts`), the widgets and
text mechanics (`text.view`) and the "Reading…" page (`reading`). The tabs around it, and
the commands that act on the current one, are `editor.EditorPanel`'s.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Collection
from pathlib import Path

from PySide6.QtCore import QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QVBoxLayout, QWidget

from memtab.components.activity.own_writes import OwnWrites
from memtab.components.editor.disk_jobs import FileJobs
from memtab.components.editor.document import OpenDocument
from memtab.components.editor.panel import (
    CUT_FOLLOW_MS,
    CutFollow,
    follow_link,
    has_cut,
    note_after_saving_anyway,
)
from memtab.components.editor.session import BarKind, SaveStart, Situation
from memtab.components.editor.text_buffer import with_description
from memtab.components.loads import (
    GO_TO_CUT,
    MOVE_PAST_CUT,
    NOTE_CHOICES,
    SAVE_CHOICES,
    SAVE_PAST_CUT,
    reads_imports,
)
from memtab.components.tree.nodes import ref_key
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile
from memtab.gui.editor.tab.prompts import EditorPrompts, TaskSource
from memtab.gui.editor.tab.reading import WhileReading
from memtab.gui.editor.text.import_clicks import ImportClicks
from memtab.gui.editor.text.view import EditorView
from memtab.gui.toolkit.clock import QT_CLOCK, GuiClock, call_soon
from memtab.humanize import short_name
from memtab.store.paths import VirtualPath
from memtab.store.scopes.memory import MemoryStore

logger = logging.getLogger(__name__)


class FileTab(QWidget):
    """One open memory file (or, as the panel's empty page, none).

    Signals:
        saved(object): the file's MemoryFileRef, after a save.
        opened(object): the file's MemoryFileRef, once it was opened or reloaded whole and
            its text is shown.
        state_changed(): its title, unsaved state or read-only state changed (the tab bar
            follows).
        close_requested(): the bar's Close was chosen (the panel asks, then closes).
        link_opened(object): a link of the preview to a memory file (its MemoryFileRef)
            was clicked.
        path_link_opened(object): an `@`-import of the text or the preview was followed:
            the file it names on disk (a Path), which may be no memory file.
        action_requested(str): a button of the bar asks for another feature's
            registered action, by its id (the cut's Go to the cut, Move them to a topic
            file: `components.loads`).
    """

    saved = Signal(object)
    opened = Signal(object)
    state_changed = Signal()
    close_requested = Signal()
    link_opened = Signal(object)
    path_link_opened = Signal(object)
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
        self._title = ""
        self._physical_only: Path | None = None  # an orphan's file, shown read-only
        self._after_load: list[Callable[[], None]] = []  # once the text is shown
        self._cut = CutFollow()
        self.view = EditorView(self)
        self.prompts = EditorPrompts(self.view.page, tasks)
        self.view.set_bar(self.prompts.bar)
        reading = WhileReading(self.view, clock, self.refresh_chrome)
        self.doc = OpenDocument(self, self.view, self.prompts, reading, own_writes, files)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.view.save_requested.connect(self._on_view_save_requested)
        self.view.modified_changed.connect(self._on_view_modified_changed)
        self.view.description_edited.connect(self._on_view_description_edited)
        self.prompts.action_chosen.connect(self._on_prompts_action_chosen)
        self.prompts.dismissed.connect(self._on_prompts_dismissed)
        self.view.preview.link_clicked.connect(self._on_preview_link_clicked)
        self._import_clicks = ImportClicks(self.view.text_edit)
        self._import_clicks.link_clicked.connect(self._on_preview_link_clicked)
        self._cut_follow = clock.timer(self, self._follow_cut, single_shot=True)
        self.view.text_edit.document().contentsChanged.connect(self._on_document_contents_changed)

    # --- what is open ------------------------------------------------------------------------

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
        """The open file's virtual path, for mux's own operations (None: none, or another
        agent's file, which has none)."""
        ref = self.doc.file.ref
        return ref.virtual_path if ref is not None else None

    @property
    def key(self) -> str | None:
        """The tree key of the open file, or None."""
        ref = self.doc.file.ref
        return ref_key(ref) if ref is not None else None

    @property
    def identity(self) -> str | None:
        """What tells two tabs apart: the ref's key, or the physical path of a file shown
        only to be read (None: nothing is shown)."""
        if self.doc.file.ref is not None:
            return self.doc.file.ref.key
        return f"physical:{self._physical_only}" if self._physical_only is not None else None

    @property
    def title(self) -> str:
        """What the tab says: the file's name."""
        return self._title

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

    # --- opening -----------------------------------------------------------------------------

    def open(self, file: MemoryFile) -> None:
        """Open and load `file` (read-only when its agent writes it; an unreadable one
        with the error in the bar)."""
        self._physical_only = None
        self._after_load.clear()
        self._title = short_name(file.name)
        self.doc.open(file)

    def open_read_only(self, physical: Path, title: str, note: str) -> None:
        """Show a file that is not in a scope of this workspace (e.g. an orphan project
        dir), read-only with `note`; `title` takes the place of the virtual path."""
        self._after_load.clear()
        self._physical_only = physical
        self._title = short_name(physical.name)
        self.doc.open_physical(physical, title, note)

    def show_unavailable(self, title: str, note: str) -> None:
        """Show `title` with nothing to edit and why (e.g. no workspace is selected)."""
        self.doc.reset()
        self._after_load.clear()
        self._physical_only = None
        self._title = short_name(title)
        self.doc.show_page(title, "", note)

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

    # --- the disk ----------------------------------------------------------------------------

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
        """Whether a save is on its way to disk."""
        return self.doc.saving

    def show_notice(self, kind: BarKind, text: str) -> None:
        """Show a note or an error of a command in the bar."""
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
        self._title = short_name(document.name)
        real = f"\nOn disk: {self.doc.real_path}" if self.doc.real_path is not None else ""
        self.view.set_title(document.title, f"{document.title}{real}")
        self.refresh_chrome()
        if not self.doc.reading:  # else once its text is shown
            self.opened.emit(document.ref)

    def close_after_asking(self) -> None:
        """The bar's Close: the panel asks about unsaved changes, then closes the tab."""
        self.close_requested.emit()

    # --- slots -------------------------------------------------------------------------------

    @Slot()
    def _on_view_save_requested(self) -> None:
        self.save()

    @Slot(bool)
    def _on_view_modified_changed(self, _modified: bool) -> None:
        self.refresh_chrome()

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
