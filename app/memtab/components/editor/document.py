"""The editor's open document, between the buffer and the file on disk — no Qt: `OpenDocument`
carries out what `session` decides (loads, sha-checked saves taking turns, following the disk,
the bar's choices) over `document_base`'s protocols; every read and save a `disk_jobs` job."""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Sequence

from memtab.components.activity.own_writes import OwnWrites
from memtab.components.editor.disk_jobs import (
    FileJobs,
    load_job,
    rename_candidates,
    renamed_job,
    save_job,
)
from memtab.components.editor.document_base import (
    CHOICE,
    DISK,
    RENAME,
    DocumentBase,
    DocumentHost,
    DocumentPrompts,
    DocumentView,
    Reading,
)
from memtab.components.editor.merge import MergeOutcome
from memtab.components.editor.session import (
    CLOSE_FILE,
    KEEP_MINE,
    MERGE,
    OVERWRITE,
    RELOAD,
    RESTORE_DRAFT,
    SAVE_WITHOUT_COPY,
    SHOW_DIFF,
    TAKE_THEIRS,
    BarKind,
    Decision,
    DiskAbsence,
    DiskRead,
    Situation,
    TakeDecision,
    not_editable_reason,
)
from memtab.components.editor.text_buffer import with_final_newline
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError
from memtab.humanize import short_name
from memtab.sources.modified_stamp import stamp_for_save
from memtab.store.errors import SaveConflictError, UnkeptChangeError
from memtab.store.files import FileContent, content_sha256

Then = Callable[[bool], None] | None
"""Who waits for a save: told whether it was written (None: nobody)."""


class SaveTurns:
    """One save at a time."""

    def __init__(self) -> None:
        self._waiting: list[Then] | None = None  # the save on its way's, first; None: none
        self._follow = False

    @property
    def busy(self) -> bool:
        """Whether a save is on its way to disk."""
        return self._waiting is not None

    def ask(self, then: Then) -> bool:
        """A save is asked for (`then` is told its outcome): whether to start it now
        (False: it waits for the one on its way)."""
        if self._waiting is not None:
            self._waiting.append(then)
            return False
        self._waiting = [then]
        return True

    def landed(self) -> tuple[Then, tuple[Then, ...]]:
        """The save on its way landed: who asked for it, and who asked meanwhile."""
        waiting, self._waiting = self._waiting or [None], None
        return waiting[0], tuple(waiting[1:])

    @staticmethod
    def again(later: Sequence[Then], *, saved: bool, dirty: bool) -> bool:
        """Whether the saves asked meanwhile (`later`) are one more save (the last one was
        `saved` and the buffer is still `dirty`) rather than told its outcome."""
        return bool(later) and saved and dirty

    def follow_later(self) -> bool:
        """The disk changed: whether following it waits for the save on its way."""
        if self._waiting is None:
            return False
        self._follow = True
        return True

    def follow_due(self) -> bool:
        """Whether a follow of the disk put off is due now (no save on its way), once."""
        if not self._follow or self._waiting is not None:
            return False
        self._follow = False
        return True


def tell_all(waiting: Sequence[Then], saved: bool) -> None:
    """Tell every one of `waiting` whether the save was written."""
    for then in waiting:
        if then is not None:
            then(saved)


class OpenDocument(DocumentBase):
    """The open document and its disk side."""

    def __init__(
        self,
        host: DocumentHost,
        view: DocumentView,
        prompts: DocumentPrompts,
        while_reading: Reading,
        own_writes: OwnWrites,
        files: FileJobs,
    ) -> None:
        """Nothing open (`DocumentBase`); saves go through `files` too, each noted in
        `own_writes` before it is written."""
        super().__init__(host, view, prompts, while_reading, files)
        self._own_writes = own_writes
        self._saves = SaveTurns()

    # --- following the disk --------------------------------------------------------------

    def follow_changes(
        self,
        changed: Collection[MemoryFileRef],
        listed: Callable[[MemoryFileRef], MemoryFile | None] | None = None,
    ) -> None:
        """A rescan saw the files `changed` (created, modified or gone): take what `listed`
        says of the open file now (who may write it), and if it is one of them, follow it
        where it was renamed (a file that appeared holds what it held), else the disk."""
        document = self.document
        if document is None:
            return
        now = listed(document.ref) if listed is not None else None
        if now is not None and now != document and now.ref == document.ref:
            self.document = now
        if document.ref not in changed:
            return
        loaded = self.file.loaded_sha
        found = rename_candidates(document, changed, listed) if listed and loaded else []
        if found and loaded is not None:
            job = functools.partial(renamed_job, document, found, loaded)
            found_one = functools.partial(self._renamed, document.ref)
            self.reads.run(RENAME, job, found_one, self._cannot_read)
        else:
            self.follow_disk()

    def _renamed(self, ref: MemoryFileRef, renamed: MemoryFile | None) -> None:
        document = self.document
        if document is None or document.ref != ref:
            return
        if renamed is None:  # changed in place, or deleted
            self.follow_disk()
            return
        self.retarget(renamed)
        self._host.document_moved(renamed)
        said = f"{document.name} was renamed on disk: this is it now."
        self.show_bar(Situation.NOTE, BarKind.INFO, said)

    def follow_disk(self) -> None:
        """The file on disk changed (or went): reload, adopt, ask or keep the draft, as
        `OpenFile.decide` says — once a save on its way has landed (it may be the change)."""
        document = self.document
        if document is None:
            return
        if self.file.reading:  # read it again: what is on its way may be the old one
            self._load(document.title, functools.partial(load_job, document))
            return
        if self._saves.follow_later():  # the save on its way may be the change
            return
        self.read_disk(self._follow, DISK)

    def _follow(self, disk: DiskRead) -> None:
        document = self.document
        assert document is not None
        decision = self.file.decide(disk, self.buffer())
        if decision is Decision.MISSING:
            self._on_disk_file_missing()
        elif decision is Decision.REOPEN:
            self.open(document)
        elif isinstance(disk, FileContent) and decision is Decision.ADOPT:
            self._adopt_disk_version(disk)
        elif isinstance(disk, FileContent) and decision is Decision.RELOAD:
            with self._quietly():
                self._view.replace_text(self.file.codec.to_buffer(disk.content))
                self._adopt_disk_version(disk)
        elif decision is Decision.ASK and self.file.situation is not Situation.CONFLICT:
            # (A save's conflict bar already says the disk changed and offers what to do.)
            self.show_bar(
                Situation.CHANGED_ON_DISK,
                BarKind.WARNING,
                f"{document.name} changed on disk while you were editing it. Your draft is kept.",
                self.file.changed_on_disk_choices(),
            )

    def show_diff(self) -> None:
        """Open a window with the differences between the disk version and the draft."""
        if self.document is not None and not self.file.reading:
            self.read_disk(self._show_diff_with, CHOICE)

    def _show_diff_with(self, disk: DiskRead) -> None:
        document = self.document
        assert document is not None
        if disk is DiskAbsence.UNREADABLE:
            return
        on_disk = isinstance(disk, FileContent)
        old = self.file.codec.to_buffer(disk.content) if isinstance(disk, FileContent) else ""
        self._prompts.open_diff(
            f"Differences — {short_name(document.name)}",
            "On disk" if on_disk else "On disk (deleted)",
            old,
            self._view.buffer_text(),
            self.file.diff_choices(on_disk),
            self.file.merge_basis(disk),
        )

    # --- the choices of the bar and the diff window ----------------------------------------

    def _take_disk_version(self) -> None:
        """Reload / Keep theirs: load the disk version, keeping the draft restorable."""
        self.read_disk(self._take, CHOICE)

    def _take(self, disk: DiskRead) -> None:
        decision = self.file.decide_take(disk)
        if decision is TakeDecision.MISSING:
            self._on_disk_file_missing()
        elif isinstance(disk, FileContent) and decision is TakeDecision.REFUSE:
            # Loading it would make the panel read-only and drop the draft: refuse.
            self.show_bar(
                Situation.ERROR,
                BarKind.ERROR,
                f"The file on disk is now {not_editable_reason(disk)}, so it cannot be "
                "loaded for editing. Your draft is kept here; copy what you need, then close "
                "the file.",
                [(CLOSE_FILE, "Close")],
            )
        elif isinstance(disk, FileContent) and decision is TakeDecision.REPLACE:
            self._replace_draft(
                self.file.codec.to_buffer(disk.content),
                disk,
                "Loaded the version on disk. Your draft is kept: restore it here or with Undo.",
            )

    def _replace_draft(self, text: str, disk: FileContent, message: str) -> None:
        """Put `text` (the disk version, or a merge with it) in place of the draft, based
        on `disk`; the draft stays restorable (`message` says so)."""
        draft = self._view.buffer_text()
        with self._quietly():
            self._view.replace_text(text)
            if text == self.file.codec.to_buffer(disk.content):
                self._adopt_disk_version(disk)
            else:
                self.file.kept_mine(disk)
                self._view.set_modified(True)
        if draft == self._view.buffer_text():
            self.clear_bar()
            return
        self.file.draft_backup = draft
        self.show_bar(
            Situation.DRAFT_REPLACED, BarKind.INFO, message, [(RESTORE_DRAFT, "Restore my draft")]
        )

    def _restore_draft(self) -> None:
        if self.file.draft_backup is None:
            return
        self._view.replace_text(self.file.draft_backup)
        self.file.draft_backup = None
        self.clear_bar()
        self._host.refresh_chrome()

    def _merge_with_disk(self) -> None:
        """Keep both: the merged text replaces the draft (restorable), based on the disk
        version it merged — unless the disk changed again since, then look again."""
        outcome = self._prompts.merge
        if outcome is not None:
            self.read_disk(functools.partial(self._merge_with, outcome), CHOICE)

    def _merge_with(self, outcome: MergeOutcome, disk: DiskRead) -> None:
        if disk is DiskAbsence.UNREADABLE:
            return
        if disk is DiskAbsence.MISSING:
            self._on_disk_file_missing()
            return
        assert isinstance(disk, FileContent)
        if disk.sha256 != outcome.disk_sha:
            self.show_diff()  # a newer version to compare and merge with
            return
        said = (
            "The text you kept in the three-way view is in place of your draft."
            if outcome.edited
            else f"Merged: {outcome.result.counts().lower()} are all in the text now."
        )
        self._replace_draft(
            outcome.text,
            disk,
            f"{said} Review it, then save; your draft is kept: restore it here or with Undo.",
        )
        self._view.focus_text()  # to review and save

    def _keep_mine(self) -> None:
        """Keep the draft and base the next save on what is on disk now."""
        self.read_disk(self._keep_mine_over, CHOICE)

    def _keep_mine_over(self, disk: DiskRead) -> None:
        if disk is DiskAbsence.MISSING:
            self._on_disk_file_missing()
        elif isinstance(disk, FileContent):
            self.file.kept_mine(disk)
            self._view.set_modified(True)
            self.clear_bar()
            self._host.refresh_chrome()

    # --- saving ------------------------------------------------------------------------------

    @property
    def saving(self) -> bool:
        """Whether a save is on its way to disk (on the window's file channel)."""
        return self._saves.busy

    def save_against(
        self,
        expected_sha: str | None,
        *,
        allow_unkept: bool = False,
        then: Callable[[bool], None] | None = None,
    ) -> None:
        """Save the buffer if the disk holds `expected_sha` (None: no file), on the file
        channel; `then(True)` once written, `then(False)` when the bar shows the conflict or
        error. A save history cannot keep is refused with the choice of `allow_unkept`; one save
        at a time."""
        if not self._saves.ask(then):
            return  # after the save on its way, from what it wrote
        document = self.document
        assert document is not None
        # Saved files end with a line break, so an agent's `echo >>` starts a new line.
        text = with_final_newline(self._view.buffer_text())
        if (stamped := stamp_for_save(document.ref.agent, text)) != text:  # Claude's `modified:`
            self._view.replace_text(text := stamped)  # one undoable edit: shown as written
        content = self.file.codec.from_buffer(text)
        # Noted before it is written: the watcher may see the write before we hear of it.
        self._own_writes.note(document.ref.key, content_sha256(content))
        self._files.write(
            functools.partial(save_job, document, content, expected_sha, allow_unkept),
            functools.partial(self._on_save_done, document, text),
            functools.partial(self._on_save_failed, document),
        )

    def _on_save_done(self, document: MemoryFile, text: str, outcome: object) -> None:
        saved = False
        if not self._still_open(document):
            pass  # the tab went on to another file (or closed): what was written stands
        elif isinstance(outcome, UnkeptChangeError):
            self.show_bar(
                Situation.ERROR,
                BarKind.ERROR,
                f"Not saved: {outcome}. Your draft is kept; saving without a copy loses what "
                "the file holds now for good.",
                [(SAVE_WITHOUT_COPY, "Save without a copy")],
            )
        elif isinstance(outcome, SaveConflictError):
            self.file.conflicted(outcome.kind)
            self.show_bar(
                Situation.CONFLICT,
                BarKind.WARNING,
                f"Not saved: {outcome}. Your draft is kept.",
                self.file.conflict_choices(outcome.kind),
            )
        elif isinstance(outcome, MemoryFileError):
            self.show_bar(Situation.ERROR, BarKind.ERROR, f"Not saved: {outcome}")
        elif isinstance(outcome, str):
            saved = True
            self._saved(document, text, outcome)
        self._after_save(saved)

    def _on_save_failed(self, document: MemoryFile, message: str) -> None:
        if self._still_open(document):
            self.show_bar(Situation.ERROR, BarKind.ERROR, f"Not saved: {message}")
        self._after_save(False)

    def _still_open(self, document: MemoryFile) -> bool:
        """Whether the tab still shows the file `document` was saved as. By its ref: a rescan
        hands the tab a fresh `MemoryFile` for the same file (`FileTab.follow_changes`)."""
        return self.document is not None and self.document.ref == document.ref

    def _saved(self, document: MemoryFile, text: str, sha: str) -> None:
        self._own_writes.note(document.ref.key, sha)
        # The ref's key (a virtual path) is what counts; the physical one is noted for
        # watcher paths.
        if self.real_path is not None:
            self._own_writes.note(self.real_path, sha)
        self.file.saved(sha, text)
        if with_final_newline(self._view.buffer_text()) == text:
            with self._view.quietly():
                self._view.end_with_newline()  # the buffer shows what was written
            self._view.set_modified(False)
        # else: typed on while it was written: the rest is unsaved, based on this save.
        if self.file.situation not in (Situation.NOTE, Situation.CUT_NOTE, Situation.SYNC_CONFLICT):
            self.clear_bar()
        self._host.refresh_chrome()
        self._host.document_saved(document.ref)

    def _after_save(self, saved: bool) -> None:
        """Tell who waited for the save; a save asked meanwhile runs now, from this one
        (`components.editor.document`)."""
        first, later = self._saves.landed()
        tell_all((first,), saved)
        dirty = self.document is not None and self._host_dirty()
        if SaveTurns.again(later, saved=saved, dirty=dirty):
            self.save_against(self.file.save_expectation(), then=functools.partial(tell_all, later))
        else:
            tell_all(later, saved)
        # A conflict's bar already says the disk changed, and offers what to do.
        if self._saves.follow_due() and self.file.situation is not Situation.CONFLICT:
            self.follow_disk()

    def _host_dirty(self) -> bool:
        return self.file.is_dirty(self._view.is_modified())

    def _overwrite(self) -> None:
        """Save the draft over whatever is on disk now (or recreate it)."""
        self.read_disk(self._overwrite_over, CHOICE)

    def _overwrite_over(self, disk: DiskRead) -> None:
        if disk is not DiskAbsence.UNREADABLE:
            self.save_against(disk.sha256 if isinstance(disk, FileContent) else None)

    def perform(self, action: str) -> None:
        """Carry out a choice of the bar or the diff window (`components.editor.session`)."""
        if action in (RELOAD, TAKE_THEIRS):
            self._take_disk_version()
        elif action == SHOW_DIFF:
            self.show_diff()
        elif action == OVERWRITE:
            self._overwrite()
        elif action == KEEP_MINE:
            self._keep_mine()
        elif action == MERGE:
            self._merge_with_disk()
        elif action == RESTORE_DRAFT:
            self._restore_draft()
        elif action == CLOSE_FILE:
            self._host.close_after_asking()
        elif action == SAVE_WITHOUT_COPY:
            self.save_against(self.file.save_expectation(), allow_unkept=True)
