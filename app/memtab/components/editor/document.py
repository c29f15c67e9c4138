"""The editor's open document between the buffer and the file on disk, no Qt: `OpenDocument`
carries out what `session` decides over the protocols the window fills; every read and save
a `disk_jobs` job."""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Protocol

from memtab.components.activity.own_writes import OwnWrites
from memtab.components.editor import disk_jobs, session
from memtab.components.editor.disk_jobs import DocumentReads, FileJobs, Page
from memtab.components.editor.merge import MergeBasis, MergeOutcome
from memtab.components.editor.session import (
    BarKind,
    Buffer,
    Choice,
    Decision,
    DiskAbsence,
    DiskRead,
    OpenFile,
    Situation,
    TakeDecision,
)
from memtab.components.editor.text_buffer import with_final_newline
from memtab.components.jobs import CancelToken
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError
from memtab.humanize import short_name
from memtab.sources.modified_stamp import stamp_for_save
from memtab.store.errors import SaveConflictError, UnkeptChangeError
from memtab.store.files import FileContent, content_sha256


class DocumentHost(Protocol):
    """What `OpenDocument` tells the tab (`FileTab`)."""

    # The open file's state changed: update the header, Save and `dirty_changed`.
    def refresh_chrome(self) -> None: ...
    # A document was opened (or reopened) and its text is shown: `file_opened`.
    def document_opened(self, ref: MemoryFileRef) -> None: ...
    # The document was saved: `saved`.
    def document_saved(self, ref: MemoryFileRef) -> None: ...
    # The open file was renamed or moved on disk, and followed: show its new name.
    def document_moved(self, document: MemoryFile) -> None: ...
    # Close the file once the user agreed to leave unsaved changes (Close).
    def close_after_asking(self) -> None: ...


class DocumentView(Protocol):
    """The text `OpenDocument` shows and edits (`EditorView`)."""

    # What the editor holds, with `\n` line breaks.
    def buffer_text(self) -> str: ...
    # Whether the buffer was edited since it was loaded or marked clean.
    def is_modified(self) -> bool: ...
    # Mark the buffer edited (or clean).
    def set_modified(self, modified: bool) -> None: ...
    # Replace the buffer with one undoable edit (the cursor stays where it can).
    def replace_text(self, new_text: str) -> None: ...
    # Add a final line break if the text lacks one (undoably); True when added.
    def end_with_newline(self) -> bool: ...
    # Programmatic edits: no modified signal until the block ends.
    def quietly(self) -> AbstractContextManager[None]: ...
    # A new text under `title`, with a fresh undo history.
    def show_file(
        self, title: str, text: str, read_only: bool, tooltip: str | None = None
    ) -> None: ...
    # What Preview shows in place of the text (a file shown in Source as it is).
    def show_rendered(self, markdown: str) -> None: ...
    # A cursor at the very top goes past the frontmatter.
    def start_past_frontmatter(self) -> None: ...
    # Give the text the keyboard focus.
    def focus_text(self) -> None: ...


class DocumentPrompts(Protocol):
    """Where `OpenDocument` asks the user: the bar and the diff window (`EditorPrompts`)."""

    # The text the open diff window's Keep both would put in place of the draft.
    @property
    def merge(self) -> MergeOutcome | None: ...
    # Show `text` in the bar with a button for each choice.
    def show(self, kind: BarKind, text: str, choices: list[Choice] | None = None) -> None: ...
    # Hide the bar.
    def clear(self) -> None: ...

    def open_diff(
        self,
        title: str,
        old_label: str,
        old: str,
        new: str,
        choices: list[Choice],
        merge_basis: MergeBasis | None = None,
    ) -> None:
        """Open a window comparing `old` with the draft `new`, offering `choices`."""
        ...

    # Close the diff window, if open.
    def close_diff(self) -> None: ...


class Reading(Protocol):
    """The "Reading…" page and the keys held while a text is on its way (`WhileReading`)."""

    # Whether the page says "Reading…".
    @property
    def page(self) -> bool: ...
    # The text is on its way: hold what is typed from now on.
    def hold_keys(self) -> None: ...
    # The text is still on its way: say "Reading…" under `title` (now or when due).
    def say(self, title: str, tooltip: str) -> None: ...
    # The text is loaded: type what was held into it.
    def release_keys(self) -> None: ...
    # A page is shown in place of "Reading…".
    def ended(self) -> None: ...
    # No page to come: drop the keys held.
    def drop(self) -> None: ...


# What a read is for: a newer read for the same thing supersedes an older one.
DISK = "disk"  # opening the file, following its changes on disk
CHOICE = "choice"  # a choice of the bar or the diff window that looks at the disk
RENAME = "rename"  # the read that looks for where the open file went


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


class OpenDocument:
    """What is open, loading and showing it, the bar, reads of the disk, and saves."""

    def __init__(
        self,
        host: DocumentHost,
        view: DocumentView,
        prompts: DocumentPrompts,
        while_reading: Reading,
        own_writes: OwnWrites,
        files: FileJobs,
    ) -> None:
        """Nothing open; loads into `view`, asks through `prompts`' bar and diff window, holds keys
        through `while_reading`, reads and saves through `files` (the window's file channel),
        each save noted in `own_writes` before it is written."""
        self._host = host
        self._view = view
        self._prompts = prompts
        self.document: MemoryFile | None = None
        self.file = OpenFile()
        self.real_path: Path | None = None  # where the file is on disk (None: none, or unplaced)
        self._files = files
        self.reads = DocumentReads(files, f"editor:{id(self)}")  # dropped when another opens
        self.while_reading = while_reading  # the "Reading…" page and the keys held meanwhile
        self._own_writes = own_writes
        self._saves = SaveTurns()

    @property
    def reading(self) -> bool:
        """Whether the open file's content is on its way from disk ("Reading…")."""
        return self.file.reading

    # --- opening and loading ---------------------------------------------------------------

    def reset(self, document: MemoryFile | None = None) -> None:
        """Make `document` (None: nothing) the open one, before anything is loaded; what
        was on its way for the one before is dropped (reads, held keys)."""
        self.reads.cancel_all()
        self.while_reading.drop()
        self.document = document
        self.file = OpenFile(document.ref if document is not None else None)
        self.real_path = None  # found with the text (`Page.real_path`)
        self._prompts.close_diff()
        self.clear_bar()

    def open(self, document: MemoryFile) -> None:
        """Open `document`: "Reading…" at once, its text once read on the file channel
        (then `DocumentHost.document_opened`)."""
        self.reset(document)
        self._load(document.title, functools.partial(disk_jobs.load_job, document))

    def retarget(self, document: MemoryFile) -> None:
        """The open file was moved to `document`'s place: follow it, keeping the buffer
        and what the next save expects (its text still on its way: read it there)."""
        self.document = document
        self.file.ref = document.ref
        self.real_path = document.physical()
        if self.file.reading:
            self._load(document.title, functools.partial(disk_jobs.load_job, document))

    def open_physical(self, physical: Path, title: str, note: str) -> None:
        """Show a file that is no memory file of the workspace (an orphan's) read-only,
        with `note`, once read on the file channel."""
        self.reset()
        self._load(title, functools.partial(disk_jobs.load_physical_job, physical, title, note))

    def _load(self, title: str, job: Callable[[CancelToken], Page]) -> None:
        """Read what opening shows (`_shown`), waiting `disk_jobs.OPEN_WAIT_MS` for it at most."""
        self.file.reading = True
        self.while_reading.hold_keys()
        self.reads.run(DISK, job, self._shown, self._cannot_read, wait_ms=disk_jobs.OPEN_WAIT_MS)
        if self.file.reading:  # else read and shown already
            self.while_reading.say(title, self._tooltip(title))
            self._host.refresh_chrome()

    def _shown(self, page: Page) -> None:
        """What opening the file read arrived: show it (`document_opened`), then type
        what was typed while it was read into it."""
        self.real_path = page.real_path
        if page.content is not None:
            self.file.loaded(page.content, page.read_only_reason)
        self.show_page(page.title, page.text, page.read_only_reason)
        if page.rendered is not None:  # Source shows the file's JSON, Preview the reading
            self._view.show_rendered(page.rendered)
        if page.bar is not None:
            self.show_bar(*page.bar, list(page.choices) or None)
        if self.document is not None:
            self._host.document_opened(self.document.ref)
        # The cursor starts in the body, wherever the keyboard is now: what is typed once
        # the text takes it goes there, never into the frontmatter's YAML.
        self._view.start_past_frontmatter()
        self.while_reading.release_keys()

    def _tooltip(self, title: str) -> str:
        real = f"\nOn disk: {self.real_path}" if self.real_path is not None else ""
        return f"{title}{real}"

    def show_page(self, title: str, text: str, read_only_reason: str | None) -> None:
        """Show `text` under `title` as loaded, read-only when there is a reason."""
        self.file.reading = False
        self.while_reading.ended()
        self.file.read_only_reason = read_only_reason
        self._view.show_file(title, text, read_only_reason is not None, self._tooltip(title))
        self.file.clean_text = text
        self._host.refresh_chrome()

    def buffer(self) -> Buffer:
        """The buffer as the rules see it: its text, and whether it was edited."""
        return Buffer(self._view.buffer_text(), self._view.is_modified())

    # --- buffer edits -----------------------------------------------------------------------

    @contextmanager
    def _quietly(self) -> Iterator[None]:
        """Programmatic edits: refresh the chrome (and `dirty_changed`) once, at the end."""
        try:
            with self._view.quietly():
                yield
        finally:
            self._host.refresh_chrome()

    def _adopt_disk_version(self, disk: FileContent) -> None:
        """The buffer now equals `disk`: base the next save on it and mark it clean."""
        self.file.adopted(disk, self._view.buffer_text())
        self._view.set_modified(False)
        if self.file.bar_clears_on_adopt():
            self.clear_bar()
        self._host.refresh_chrome()

    def _on_disk_file_missing(self) -> None:
        document = self.document
        if document is None:
            return
        if self.file.is_read_only:
            self.show_bar(Situation.DELETED, BarKind.WARNING, f"{document.title} was deleted.")
            return
        self.file.gone()
        self.show_bar(
            Situation.DELETED,
            BarKind.WARNING,
            f"{document.name} was deleted on disk. Your text is kept here; Save recreates "
            "the file.",
            [(session.CLOSE_FILE, "Close")],
        )
        self._host.refresh_chrome()

    # --- the bar -----------------------------------------------------------------------------

    def show_bar(
        self,
        situation: Situation,
        kind: BarKind,
        text: str,
        choices: list[Choice] | None = None,
    ) -> None:
        """Show `text` in the bar with `choices`, as the open file's `situation`."""
        self.file.situation = situation
        self._prompts.show(kind, text, choices)

    def clear_bar(self) -> None:
        """Hide the bar: no situation to resolve."""
        self.file.situation = Situation.NONE
        self._prompts.clear()

    def read_disk(self, then: Callable[[DiskRead], None], purpose: str) -> None:
        """Read the file on disk on the file channel, then `then(what is there now, or
        why there is none)` — unreadable: the bar says why. Nothing when the document
        changed meanwhile, or a newer read for the same `purpose` was asked."""
        document = self.document
        if document is None:
            return

        def found(disk: DiskRead | MemoryFileError) -> None:
            if isinstance(disk, MemoryFileError):
                self._cannot_read(str(disk))
                disk = DiskAbsence.UNREADABLE
            then(disk)

        self.reads.run(
            purpose, functools.partial(disk_jobs.read_disk_job, document), found, self._cannot_read
        )

    def _cannot_read(self, why: str) -> None:
        title = self.document.title if self.document is not None else "the file"
        self.show_bar(Situation.ERROR, BarKind.ERROR, f"Cannot read {title}: {why}")

    def close(self) -> None:
        """The tab closes: drop the reads on their way and what was typed for them; a
        save on its way is written, and tells who waited, but shows nothing here."""
        self.reads.cancel_all()
        self.while_reading.drop()
        self.document = None

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
        found = disk_jobs.rename_candidates(document, changed, listed) if listed and loaded else []
        if found and loaded is not None:
            job = functools.partial(disk_jobs.renamed_job, document, found, loaded)
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
            self._load(document.title, functools.partial(disk_jobs.load_job, document))
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

    def _take(self, disk: DiskRead) -> None:
        decision = self.file.decide_take(disk)
        if decision is TakeDecision.MISSING:
            self._on_disk_file_missing()
        elif isinstance(disk, FileContent) and decision is TakeDecision.REFUSE:
            # Loading it would make the panel read-only and drop the draft: refuse.
            self.show_bar(
                Situation.ERROR,
                BarKind.ERROR,
                f"The file on disk is now {session.not_editable_reason(disk)}, so it cannot be "
                "loaded for editing. Your draft is kept here; copy what you need, then close "
                "the file.",
                [(session.CLOSE_FILE, "Close")],
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
            Situation.DRAFT_REPLACED,
            BarKind.INFO,
            message,
            [(session.RESTORE_DRAFT, "Restore my draft")],
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
        """Save the buffer if the disk holds `expected_sha` (None: no file), on the file channel;
        `then(True)` once written, `then(False)` when the bar shows the conflict or error. A save
        history cannot keep is refused with the choice of `allow_unkept`; one save at a time."""
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
            functools.partial(disk_jobs.save_job, document, content, expected_sha, allow_unkept),
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
                [(session.SAVE_WITHOUT_COPY, "Save without a copy")],
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
        dirty = self.document is not None and self.file.is_dirty(self._view.is_modified())
        if SaveTurns.again(later, saved=saved, dirty=dirty):
            self.save_against(self.file.save_expectation(), then=functools.partial(tell_all, later))
        else:
            tell_all(later, saved)
        # A conflict's bar already says the disk changed, and offers what to do.
        if self._saves.follow_due() and self.file.situation is not Situation.CONFLICT:
            self.follow_disk()

    def _overwrite_over(self, disk: DiskRead) -> None:
        if disk is not DiskAbsence.UNREADABLE:
            self.save_against(disk.sha256 if isinstance(disk, FileContent) else None)

    def perform(self, action: str) -> None:
        """Carry out a choice of the bar or the diff window (`components.editor.session`)."""
        # Reload / Keep theirs: the disk version in place of the draft (kept restorable);
        # Keep mine: the draft, based on the disk now; Overwrite: the draft over the disk now.
        takes = {
            session.RELOAD: self._take,
            session.TAKE_THEIRS: self._take,
            session.KEEP_MINE: self._keep_mine_over,
        }
        over_disk = takes.get(action) or (
            self._overwrite_over if action == session.OVERWRITE else None
        )
        if over_disk is not None:
            self.read_disk(over_disk, CHOICE)
        elif action == session.SHOW_DIFF:
            self.show_diff()
        elif action == session.MERGE:
            self._merge_with_disk()
        elif action == session.RESTORE_DRAFT:
            self._restore_draft()
        elif action == session.CLOSE_FILE:
            self._host.close_after_asking()
        elif action == session.SAVE_WITHOUT_COPY:
            self.save_against(self.file.save_expectation(), allow_unkept=True)
