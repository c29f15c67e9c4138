"""The writer in the window, off the GUI thread: the writer lock, polls and runs
(`writer.job.service.WriterService` does the work); the Inbox read, reviewed and decided,
each decision a step Edit → Undo takes back (`InboxStep`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memtab.components.files.ops import OpResult
from memtab.components.files.steps import Applied, UndoStep
from memtab.components.files.undo import UndoStack
from memtab.components.jobs import JobContext
from memtab.components.text_diff import DiffResult, compute_diff
from memtab.components.tree.scan import HomeScan
from memtab.components.writer.inbox_view import (
    PatchedFile,
    accepted_text,
    patch_diff,
    patch_heading,
    patched_diff,
)
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.humanize import plural
from memtab.store.errors import MemoryStoreError
from memtab.store.home import Home, HomeError
from memtab.store.paths import PathError, parse_file_path
from memtab.store.proposals.preview import ProposalPreview, preview_pending
from memtab.store.proposals.queue import ProposalError
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.writer.inbox.gemini import GeminiInboxError
from memtab.writer.inbox.inbox import (
    Decision,
    Inbox,
    InboxError,
    InboxItem,
    with_transcript_evidence,
)
from memtab.writer.inbox.targets import target_choices
from memtab.writer.inbox.undo import InboxUndo, take_back
from memtab.writer.job.policy import RunTicket
from memtab.writer.job.result import WriterRunResult
from memtab.writer.job.service import PollResult, WriterLock, WriterService


def begin(lock: WriterLock, service: WriterService, _ctx: JobContext) -> bool:
    """Take the writer lock (never waits) and, when taken, follow every transcript from
    its end; False when another Memtab process holds it. The lock is a file (created,
    flocked, its holder written down): off the GUI thread."""
    if not lock.acquire():
        return False
    service.prime()
    return True


def poll(
    service: WriterService,
    workspace_ids: list[str] | None,
    paused: Callable[[], bool],
    _ctx: JobContext,
) -> PollResult:
    """Read the transcripts' new lines (`workspace_ids`' or, None, every one) and say which
    runs the policy starts."""
    # Asked as the job runs, not when it was queued: a poll queued just before a pause
    # must not count the turns that arrive after it.
    return service.poll(workspace_ids, paused=paused())


def run(service: WriterService, ticket: RunTicket, ctx: JobContext) -> WriterRunResult:
    """One writer run (cancelled within about a second)."""
    return service.run(ticket, ctx.cancel_event)


_ERRORS = (InboxError, MemoryStoreError, PathError, OSError, TimeoutError)


def _refs(paths: tuple[str, ...]) -> tuple[MemoryFileRef, ...]:
    return tuple(MemoryFileRef.of_mux(parse_file_path(path)) for path in dict.fromkeys(paths))


def _touched(store: MemoryStore, undo: InboxUndo) -> tuple[str, ...]:
    """Where the files the decision changed are on disk, for an immediate rescan."""
    found: list[str] = []
    for change in undo.changes:
        try:
            found.append(str(store.physical(parse_file_path(change.path))))
        except (MemoryStoreError, PathError):
            continue
    return tuple(dict.fromkeys(found))


@dataclass(frozen=True)
class InboxStep(UndoStep):
    """Takes an Inbox decision back. Turned around: made again (`InboxRedoStep`)."""

    decided: InboxUndo

    @property
    def affected(self) -> tuple[MemoryFileRef, ...]:
        return _refs(self.decided.created)  # a notes file the accept made goes again

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        return _refs(tuple(change.path for change in self.decided.changes))

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        try:
            said = take_back(store, self.decided, allow_unkept=allow_unkept)
        except _ERRORS as error:
            return Applied(OpResult.failed(f"Undo of {self.description} failed", error))
        inverse = InboxRedoStep(self.workspace, self.description, decided=self.decided)
        return Applied(OpResult(said, touched=_touched(store, self.decided)), inverse)


@dataclass(frozen=True)
class InboxRedoStep(UndoStep):
    """Decides the same items the same way again. Turned around: taken back (`InboxStep`)."""

    decided: InboxUndo

    @property
    def written(self) -> tuple[MemoryFileRef, ...]:
        return _refs(tuple(change.path for change in self.decided.changes))

    def apply(self, store: MemoryStore, *, allow_unkept: bool = False) -> Applied:
        try:
            decision = Inbox(store.home, self.workspace).redo(self.decided)
        except _ERRORS as error:
            return Applied(OpResult.failed(f"Redo of {self.description} failed", error))
        undo = decision.undo
        count = plural(len(decision.items), "memory", "memories")
        said = f"{count} {self.decided.verb}ed again"
        result = OpResult(said, touched=_touched(store, undo) if undo else ())
        inverse = InboxStep(self.workspace, self.description, decided=undo) if undo else None
        return Applied(result, inverse)


_DECIDE_ERRORS = (InboxError, MemoryStoreError, PathError, HomeError, OSError, TimeoutError)


@dataclass(frozen=True)
class Pending:
    """What waits in one workspace's inbox, or the global one (a load job's result)."""

    workspace_id: str | None
    items: tuple[InboxItem, ...]


@dataclass(frozen=True)
class WithEvidence:
    """One item with its evidence messages read from the transcript."""

    workspace_id: str
    item: InboxItem


@dataclass(frozen=True)
class Reviewed:
    """What an agent's proposal would write (`preview`) and its diff against the file now, or
    why not (`problem`); a Gemini patch's review says it in `heading` (`refused`: it cannot be
    applied now), over each file's diff or the patch as it is."""

    item_id: str
    preview: ProposalPreview | None = None
    diff: DiffResult | None = None
    problem: str | None = None
    heading: str | None = None
    refused: bool = False


@dataclass(frozen=True)
class Decided:
    """What an accept or reject job did: a note for the status bar, or why it failed."""

    message: str
    error: bool = False
    memory_path: str | None = None


def load_pending(home: Home, workspace: Workspace | None, _context: JobContext) -> Pending:
    """The job: read the inbox (unreadable files read as empty, and are logged); without
    a workspace, the global one (agents' proposals for global memory)."""
    workspace_id = workspace.id if workspace is not None else None
    return Pending(workspace_id, tuple(Inbox(home, workspace).items()))


def load_targets(scan: HomeScan, _context: JobContext) -> tuple[str, ...]:
    """The job: the files to accept into, from the scopes the tab's `scan` shows (no disk,
    but ~30 ms over 20,000 files: not on the GUI thread)."""
    return target_choices(s.listing for s in scan.scopes if s.unavailable is None)


def load_evidence(
    home: Home, workspace_id: str, item: InboxItem, _context: JobContext
) -> WithEvidence:
    """The job: the item's evidence messages, from the workspace's transcript."""
    return WithEvidence(workspace_id, with_transcript_evidence(home, workspace_id, [item])[0])


def load_review(
    home: Home, workspace: Workspace | None, item: InboxItem, context: JobContext
) -> Reviewed:
    """The job: what the agent's proposal `item` would write, diffed against its file now
    (a global proposal's queue and file are global memory's)."""
    if item.kind == "gemini":
        return review_patch(home, workspace, item, context)
    queue = workspace if item.workspace_id is not None else None
    try:
        preview = preview_pending(home, queue, item.id)
    except (ProposalError, MemoryStoreError, PathError, HomeError, OSError) as error:
        return Reviewed(item.id, problem=str(error))
    diff = compute_diff(preview.before or "", preview.after or "", context)
    return Reviewed(item.id, preview, diff)


def review_patch(
    home: Home, workspace: Workspace | None, item: InboxItem, context: JobContext
) -> Reviewed:
    """What a Gemini patch would write, file by file against each file now — or, when
    Gemini CLI would refuse it now, why, over the patch as it is."""
    try:
        inbox = Inbox(home, workspace)
        plan = inbox.gemini.plan(inbox.gemini_item(item.id), check=context.raise_if_cancelled)
    except (GeminiInboxError, InboxError, OSError) as error:
        return Reviewed(item.id, diff=patch_diff(item.text), heading=str(error), refused=True)
    changes = [
        PatchedFile(
            inbox.gemini.shown_name(str(file.target)),
            file.new_file,
            compute_diff(file.before or "", file.after, context),
        )
        for file in plan.files
    ]
    return Reviewed(item.id, diff=patched_diff(changes), heading=patch_heading(changes))


def accept(
    home: Home,
    workspace: Workspace | None,
    ids: Sequence[str],
    text: str | None,
    to: str | None,
    stack: UndoStack,
    _context: JobContext,
) -> Decided:
    """The job: write the items into their notes file (`to`: the one the user chose) and
    take them out of the inbox; Edit → Undo takes it back (`stack`)."""
    try:
        done = Inbox(home, workspace).accept(ids, text=text, to=to)
    except _DECIDE_ERRORS as e:
        return Decided(f"Could not accept: {e}", error=True)
    _push(stack, workspace, done)
    if all(item.kind == "gemini" for item in done.items):  # Gemini CLI's own words
        return Decided(" ".join(done.texts[item.id] for item in done.items))
    return Decided(accepted_text(done.items), memory_path=done.memory_path)


def reject(
    home: Home,
    workspace: Workspace | None,
    ids: Sequence[str],
    stack: UndoStack,
    _context: JobContext,
) -> Decided:
    """The job: take the items out of the inbox (a harvest candidate leaves its file);
    Edit → Undo brings them back (`stack`)."""
    try:
        done = Inbox(home, workspace).reject(ids)
    except _DECIDE_ERRORS as e:
        return Decided(f"Could not reject: {e}", error=True)
    _push(stack, workspace, done)
    return Decided(f"Rejected {plural(len(done.items), 'proposed memory', 'proposed memories')}")


def _push(stack: UndoStack, workspace: Workspace | None, done: Decision) -> None:
    """A decision made: Edit → Undo takes it back ("Undo accept 'Use uv for…'")."""
    if done.undo is not None:
        stack.push(InboxStep(workspace, done.undo.label, decided=done.undo))
