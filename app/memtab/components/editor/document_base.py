"""The base of the editor's open document — what is open, loading and showing it, the bar, reads
of the disk — and the small protocols it needs of the window, no Qt."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Protocol

from memtab.components.editor.disk_jobs import (
    OPEN_WAIT_MS,
    DocumentReads,
    FileJobs,
    Page,
    load_job,
    load_physical_job,
    read_disk_job,
)
from memtab.components.editor.merge import MergeBasis, MergeOutcome
from memtab.components.editor.session import (
    CLOSE_FILE,
    BarKind,
    Buffer,
    Choice,
    DiskAbsence,
    DiskRead,
    OpenFile,
    Situation,
)
from memtab.components.jobs import CancelToken
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError
from memtab.store.files import FileContent


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


class DocumentBase:
    """What is open, loading and showing it, the bar, and reads of the disk."""

    def __init__(
        self,
        host: DocumentHost,
        view: DocumentView,
        prompts: DocumentPrompts,
        while_reading: Reading,
        files: FileJobs,
    ) -> None:
        """Nothing open; loads into `view`, asks through `prompts`' bar and diff window,
        holds keys through `while_reading`, reads through `files` (the window's file
        channel)."""
        self._host = host
        self._view = view
        self._prompts = prompts
        self.document: MemoryFile | None = None
        self.file = OpenFile()
        self.real_path: Path | None = None
        """Where the open file is on disk (None: no file, or one Memtab cannot place)."""
        self._files = files
        self.reads = DocumentReads(files, f"editor:{id(self)}")
        """The reads of the open document on their way (dropped when another opens)."""
        self.while_reading = while_reading
        """The "Reading…" page and the keys held while the text is on its way."""

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
        self._load(document.title, functools.partial(load_job, document))

    def retarget(self, document: MemoryFile) -> None:
        """The open file was moved to `document`'s place: follow it, keeping the buffer
        and what the next save expects (its text still on its way: read it there)."""
        self.document = document
        self.file.ref = document.ref
        self.real_path = document.physical()
        if self.file.reading:
            self._load(document.title, functools.partial(load_job, document))

    def open_physical(self, physical: Path, title: str, note: str) -> None:
        """Show a file that is no memory file of the workspace (an orphan's) read-only,
        with `note`, once read on the file channel."""
        self.reset()
        self._load(title, functools.partial(load_physical_job, physical, title, note))

    def _load(self, title: str, job: Callable[[CancelToken], Page]) -> None:
        """Read what opening shows (`_shown`), waiting `OPEN_WAIT_MS` for it at most."""
        self.file.reading = True
        self.while_reading.hold_keys()
        self.reads.run(DISK, job, self._shown, self._cannot_read, wait_ms=OPEN_WAIT_MS)
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
            [(CLOSE_FILE, "Close")],
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
            purpose, functools.partial(read_disk_job, document), found, self._cannot_read
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
