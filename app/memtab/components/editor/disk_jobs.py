"""What the editor does on disk, as jobs for the window's file channel's worker — no Qt."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol, TypeVar

from memtab.components.editor.session import (
    BarKind,
    Choice,
    DiskAbsence,
    DiskRead,
    Situation,
    display_text,
    is_editable,
    not_editable_reason,
)
from memtab.components.editor.text_buffer import TextCodec
from memtab.components.jobs import CancelToken
from memtab.components.loads.loads import NOTE_CHOICES, cut_note
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import (
    MemoryFile,
    MemoryFileError,
    MemoryFileMissingError,
)
from memtab.sources.claude.index import is_cut_index
from memtab.store.errors import SaveConflictError, UnkeptChangeError
from memtab.store.files import FileContent, read_file_content

logger = logging.getLogger(__name__)

T = TypeVar("T")

OPEN_WAIT_MS = 8
"""How long opening a file waits for its text, when nothing is ahead of its read on the
file channel (`FileChannel.read`): half a frame. A memory file is read in well under a
millisecond, and its text then shows in the very frame that paints the click, as when it
was read in place; a slow disk costs the window this much once, never a freeze."""


class FileJobs(Protocol):
    """Where the editor's reads and saves run (`gui.tasks.file_channel.FileChannel`)."""

    def write(
        self,
        job: Callable[[CancelToken], T],
        done: Callable[[T], None] | None = None,
        failed: Callable[[str], None] | None = None,
    ) -> int: ...

    def read(
        self,
        key: str,
        job: Callable[[CancelToken], T],
        done: Callable[[T], None] | None = None,
        failed: Callable[[str], None] | None = None,
        *,
        wait_ms: float = 0,
    ) -> int: ...

    def cancel(self, job_id: int) -> None: ...


@dataclass
class _Pending:
    """A read on its way (its job id is known once it is queued)."""

    job_id: int = 0


class DocumentReads:
    """The reads of one open document on its way, each for a purpose: a newer read for
    a purpose supersedes the older one, and `cancel_all` (another file opens, the tab
    closes) drops them all — their results are never delivered."""

    def __init__(self, files: FileJobs, key: str) -> None:
        """Reads go on `files` under keys starting with `key` (one per document)."""
        self._files = files
        self._key = key
        self._jobs: dict[str, _Pending] = {}  # the job on its way, by what it is for
        self._generation = 0  # bumped by cancel_all: an older read's result is dropped

    @property
    def pending(self) -> bool:
        """Whether a read is on its way."""
        return bool(self._jobs)

    def run(
        self,
        purpose: str,
        job: Callable[[CancelToken], T],
        then: Callable[[T], None],
        failed: Callable[[str], None],
        *,
        wait_ms: float = 0,
    ) -> None:
        """Run `job` on the files lane, then `then(result)` on the GUI thread or
        `failed(message)` — unless `cancel_all` or a newer read for `purpose` came first;
        `wait_ms`: a read ending that soon is delivered before this returns."""
        generation = self._generation
        pending = _Pending()

        def ended(deliver: Callable[[], None]) -> None:
            if self._jobs.get(purpose) is pending:
                del self._jobs[purpose]
            if generation == self._generation:
                deliver()

        previous = self._jobs.pop(purpose, None)
        if previous is not None:
            self._files.cancel(previous.job_id)
        self._jobs[purpose] = pending  # before the read: it may be delivered at once
        pending.job_id = self._files.read(
            f"{self._key}:{purpose}",
            job,
            lambda result: ended(lambda: then(result)),
            lambda message: ended(lambda: failed(message)),
            wait_ms=wait_ms,
        )

    def cancel_all(self) -> None:
        """Drop every read on its way."""
        self._generation += 1
        jobs, self._jobs = self._jobs, {}
        for pending in jobs.values():
            self._files.cancel(pending.job_id)


@dataclass(frozen=True)
class Page:
    """What opening a file shows, made on the worker: its text, read-only or not, the bar."""

    title: str
    text: str
    read_only_reason: str | None
    content: FileContent | None = None
    """What was read (None: it could not be; `read_only_reason` says why)."""
    rendered: str | None = None
    """The Preview of a file shown in Source as its own text (loki-mode's JSON)."""
    bar: tuple[Situation, BarKind, str] | None = None
    choices: tuple[Choice, ...] = ()  # The bar's buttons.
    real_path: Path | None = None
    """Where the file is on disk (None: Memtab cannot place it) — found here, not on the
    GUI thread: resolving it stats each folder on the way."""


def load_job(document: MemoryFile, _ctx: CancelToken) -> Page:
    """Read `document` to open it: editable, or read-only with a note for a binary or
    over-cap file and for one its agent writes (whose own text shows in Source)."""
    return replace(_page(document), real_path=document.physical())


def _page(document: MemoryFile) -> Page:
    title = document.title
    try:
        content = document.read()
    except MemoryFileError as error:
        said = f"Cannot open {title}: {error}"
        return Page(title, "", str(error), bar=(Situation.ERROR, BarKind.ERROR, said))
    owner = document.read_only_reason
    if owner is not None or not is_editable(content):
        reason = owner or not_editable_reason(content)
        said = f"Read-only: {reason}." if owner else f"Read-only: this file is {reason}."
        note = (Situation.NOTE, BarKind.INFO, said)
        source = _source_text(document)
        if source is None:
            return Page(title, display_text(content), reason, content, bar=note)
        return Page(title, source, reason, content, display_text(content), note)
    codec = TextCodec.detect(content.content)
    page = Page(title, codec.to_buffer(content.content), None, content)
    if is_cut_index(document.ref.agent, document.ref.name):  # the note follows the text
        past = cut_note(page.text)
        if past is not None:
            cut_bar = (Situation.CUT_NOTE, BarKind.WARNING, past)
            return replace(page, bar=cut_bar, choices=NOTE_CHOICES)
    if document.note:
        return replace(page, bar=(Situation.NOTE, BarKind.WARNING, document.note))
    if not codec.round_trips(content.content):
        said = "This file has mixed or unusual line breaks; saving it writes plain line breaks."
        return replace(page, bar=(Situation.NOTE, BarKind.INFO, said))
    return page


def _source_text(document: MemoryFile) -> str | None:
    try:
        return document.source_text()
    except MemoryFileError as error:
        logger.info("The source text of %s is not shown: %s", document.title, error)
        return None


def load_physical_job(physical: Path, title: str, note: str, _ctx: CancelToken) -> Page:
    """Read a file that is no memory file of the workspace (an orphan's), to show it
    read-only under `title` with `note`."""
    try:
        content = read_file_content(physical)
    except OSError as error:
        said = f"Cannot read {title}: {error.strerror or error}"
        return Page(title, "", said, bar=(Situation.ERROR, BarKind.ERROR, said))
    note_bar = (Situation.NOTE, BarKind.INFO, note)
    return Page(title, display_text(content), note, content, bar=note_bar, real_path=physical)


def read_disk_job(document: MemoryFile, _ctx: CancelToken) -> DiskRead | MemoryFileError:
    """The file on disk now, `DiskAbsence.MISSING`, or why it cannot be read."""
    try:
        return document.read()
    except MemoryFileMissingError:
        return DiskAbsence.MISSING
    except MemoryFileError as error:
        return error


RENAME_CANDIDATES = 20  # The files read, at most, to find where a renamed open file went.


def rename_candidates(
    document: MemoryFile,
    changed: Collection[MemoryFileRef],
    listed: Callable[[MemoryFileRef], MemoryFile | None],
) -> list[MemoryFile]:
    """The files that appeared which the open `document` may have been renamed or moved to outside
    Memtab, if it is gone from disk (`renamed_job` looks): files of its source among `changed`."""
    if document.physical() is None:
        return []
    source = document.ref.source_id
    others = [ref for ref in changed if ref != document.ref and ref.source_id == source]
    found = (listed(ref) for ref in others[:RENAME_CANDIDATES])
    return [candidate for candidate in found if candidate is not None]


def renamed_job(
    document: MemoryFile, candidates: Sequence[MemoryFile], loaded_sha: str, _ctx: CancelToken
) -> MemoryFile | None:
    """Where the open `document` went when it was renamed or moved outside Memtab: the
    first of `candidates` that holds what it held (`loaded_sha`); None when it is still
    on disk or none does."""
    physical = document.physical()
    if physical is None or physical.exists():
        return None
    for candidate in candidates:
        try:
            if candidate.read().sha256 == loaded_sha:
                return candidate
        except MemoryFileError:
            continue
    return None


def save_job(
    document: MemoryFile,
    content: str,
    expected_sha: str | None,
    allow_unkept: bool,
    _ctx: CancelToken,
) -> str | SaveConflictError | UnkeptChangeError | MemoryFileError:
    """Write on the channel's worker; what the user is told about is the result."""
    try:
        return document.save(content, expected_sha, allow_unkept=allow_unkept)
    except (SaveConflictError, UnkeptChangeError, MemoryFileError) as outcome:
        return outcome
