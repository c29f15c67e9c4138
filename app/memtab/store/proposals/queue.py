"""Changes agents proposed through `memtab mcp --writes inbox`, queued privately until the user
accepts (through the memory tool, as the client or the user) or rejects them (docs/formats.md
§22.5); checked as the tool checks a change, and bounded. Disk: off the GUI thread."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtab.fs.atomic import encode_utf8, json_document
from memtab.fs.clock import Clock, now_ms
from memtab.fs.locking.locks import LockUnavailableError, interprocess_lock
from memtab.fs.private import PRIVATE_FILE_MODE, private_folders
from memtab.fs.sidecar import edit_sidecar, read_sidecar, set_aside
from memtab.redact import redact_secrets
from memtab.store.actors import MCP_PREFIX
from memtab.store.errors import ScopeUnavailableError, ToolArgumentError
from memtab.store.history.recorder import RecordedChange
from memtab.store.home import PROPOSALS_DIR_NAME, Home
from memtab.store.paths import parse_file_path
from memtab.store.proposals.records import AgentProposal, ProposalFile
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_store import READ_LOCK_WAIT_S
from memtab.store.scopes.tool import MemoryTool, ToolRequest, check_change, parse_tool_request
from memtab.store.sidecars.registry import Workspace

logger = logging.getLogger(__name__)

GLOBAL_QUEUE = "global"
MAX_PENDING = 200
MAX_DECIDED = 200
# A few dozen of the largest legal proposals, bounded for every reader.
MAX_QUEUED_BYTES = 8 * 1024 * 1024
# The argument holding the text a change writes: what the user may edit.
TEXT_ARGUMENT = {"create": "file_text", "str_replace": "new_str", "insert": "insert_text"}


class ProposalError(Exception):
    """A decision the queue refuses (unknown id, a call the memory tool refuses now…)."""


@dataclass(frozen=True)
class ToolCall:
    """A memory-tool change as an agent sent it."""

    command: str
    arguments: dict[str, Any]
    expected_sha256: str | None = None

    @property
    def request(self) -> ToolRequest:
        """The call checked by the memory tool's argument models (ToolArgumentError)."""
        return parse_tool_request({**self.arguments, "command": self.command})


def proposal_text(proposal: AgentProposal) -> str:
    """What the proposal writes (its text argument), or what it does for a delete or rename."""
    key = TEXT_ARGUMENT.get(proposal.command)
    arguments = proposal.arguments
    if key is not None:
        return str(arguments.get(key) or "")
    if proposal.command == "rename":
        return f"rename {arguments.get('old_path')} to {arguments.get('new_path')}"
    return f"{proposal.command} {arguments.get('path')}"


def proposal_target(proposal: AgentProposal) -> str:
    """The memory path the proposal changes (a rename's source)."""
    arguments = proposal.arguments
    return str(arguments.get("path") or arguments.get("old_path") or "")


def proposal_summary(proposal: AgentProposal) -> str:
    """The call in one line for the reviewer: command, path and arguments but the text (`old_str`
    shown)."""
    shown = [
        f"{key}={value!r}"
        for key, value in proposal.arguments.items()
        if key not in ("path", TEXT_ARGUMENT.get(proposal.command))
    ]
    head = f"{proposal.command} {proposal_target(proposal)}"
    return " ".join([head, *shown]) if shown else head


class ProposalQueue:
    """One queue of proposals: a workspace's, or the global one (`workspace` None)."""

    def __init__(self, home: Home, workspace: Workspace | None, *, clock: Clock = now_ms):
        self.home = home
        self.workspace = workspace
        self.key = workspace.id if workspace is not None else GLOBAL_QUEUE
        self.path = proposals_path(home, self.key)
        self._clock = clock

    def pending(self) -> list[AgentProposal]:
        """The proposals waiting for a decision, oldest first."""
        return [p for p in self._load()[0] if p.status == "pending"]

    def _load(self) -> tuple[list[AgentProposal], list[Any]]:
        read = read_sidecar(self.path, max_bytes=MAX_QUEUED_BYTES)
        if read.over_cap:
            self._set_aside_unread(read.problem or "")
            return [], []
        if read.problem is not None or not read.exists:
            if read.problem is not None:
                logger.warning("Inbox: cannot use %s: %s", self.path, read.problem)
            return [], []
        return _split(read.document)

    def _set_aside_unread(self, problem: str) -> None:
        """Set aside a queue file too large to read if its lock comes within READ_LOCK_WAIT_S."""
        lock = self.home.lock_path(f"proposals-{self.key}")
        try:
            with interprocess_lock(lock, timeout_s=READ_LOCK_WAIT_S):
                if self.path.stat().st_size > MAX_QUEUED_BYTES:
                    set_aside(self.path, problem)
        except (LockUnavailableError, OSError) as error:
            logger.warning("Inbox: cannot use %s: %s (%s)", self.path, problem, error)

    def _edit(self, change: Callable[[list[AgentProposal]], None]) -> None:
        lock = self.home.lock_path(f"proposals-{self.key}")
        private_folders(self.path.parent, below=self.home.memtab_dir)  # memory's words
        with edit_sidecar(
            self.path,
            lock,
            shape_problem=_shape_problem,
            mode=PRIVATE_FILE_MODE,
            max_bytes=MAX_QUEUED_BYTES,
        ) as raw:
            proposals, unknown = _split(raw)
            change(proposals)
            # Every pending proposal and the newest decisions, in order.
            decided = [p for p in proposals if p.status != "pending"]
            forget = {p.id for p in sorted(decided, key=lambda p: p.decided_at or 0)[:-MAX_DECIDED]}
            kept = [p for p in proposals if p.id not in forget]
            workspace_id = self.workspace.id if self.workspace else None
            raw.update(
                ProposalFile(workspace_id=workspace_id, proposals=(*kept, *unknown)).to_json()
            )

    def propose(self, call: ToolCall, *, client: str) -> AgentProposal:
        """Queue `call` from `client` (text already redacted), checked as the memory tool would
        (ToolArgumentError, PathError, CapError, ScopeUnavailableError); ProposalError when the
        Inbox is full."""
        request = call.request
        check_change(request)
        view = MemoryStore(self.home, self.workspace)
        for raw in (request.path, request.new_path):
            if raw is not None:
                scope = parse_file_path(raw).scope
                reason = view.unavailable_reason(scope) if scope is not None else None
                if reason:
                    raise ScopeUnavailableError(reason)

        arguments = request.args.arguments
        at = self._clock()
        key = f"{client}\n{call.command}\n{sorted(call.arguments.items())!r}\n{at}"
        proposal = AgentProposal(
            id="p" + hashlib.blake2b(key.encode(), digest_size=5).hexdigest(),
            client=client,
            command=call.command,
            arguments=arguments,
            expected_sha256=call.expected_sha256,
            created_at=at,
        )

        def change(proposals: list[AgentProposal]) -> None:
            if sum(p.status == "pending" for p in proposals) >= MAX_PENDING:
                raise _inbox_full(f"{MAX_PENDING} proposals wait for a decision")
            forget = self._room_for(proposal, proposals)
            proposals[:] = [p for p in proposals if p.id not in forget]
            proposals.append(proposal)

        self._edit(change)
        return proposal

    def _room_for(self, proposal: AgentProposal, proposals: list[AgentProposal]) -> set[str]:
        """The oldest decisions to forget so `proposal` fits MAX_QUEUED_BYTES; ProposalError when
        none would do."""
        room = MAX_QUEUED_BYTES - _queue_files_bytes(self.path.parent, but=self.path.name)
        try:
            need = self.path.stat().st_size + _entry_bytes(proposal)
        except FileNotFoundError:
            need = _entry_bytes(proposal)
        forget: set[str] = set()
        decided = sorted(
            (p for p in proposals if p.status != "pending"), key=lambda p: p.decided_at or 0
        )
        for old in decided:
            if need <= room:
                break
            forget.add(old.id)
            need -= _entry_bytes(old)
        if need > room:
            mib = MAX_QUEUED_BYTES // (1024 * 1024)
            raise _inbox_full(f"the proposals waiting fill its {mib} MiB")
        return forget

    def accept(
        self,
        proposal_id: str,
        *,
        text: str | None = None,
        recorded: list[RecordedChange] | None = None,
    ) -> tuple[AgentProposal, str]:
        """Apply a pending proposal through the memory tool (`text`: the user's edit), then mark it
        accepted; `recorded` gets history's changes."""
        done: list[tuple[AgentProposal, str]] = []

        def change(proposals: list[AgentProposal]) -> None:
            index = _pending_index(proposals, proposal_id)
            proposal = proposals[index]
            arguments = dict(proposal.arguments)
            if text is not None:
                key = TEXT_ARGUMENT.get(proposal.command)
                if key is None:
                    raise ProposalError(f"A {proposal.command} has no text to edit")
                arguments[key] = redact_secrets(text)
            edited = text is not None and arguments != proposal.arguments
            actor = "user" if edited else MCP_PREFIX + proposal.client
            try:
                request = parse_tool_request({**arguments, "command": proposal.command})
            except ToolArgumentError as error:
                raise ProposalError(str(error)) from None
            store = MemoryStore(self.home, self.workspace, actor=actor)
            with store.collecting_changes() as changes:
                result = MemoryTool(store).execute_request(
                    request, expected_sha256=proposal.expected_sha256
                )
            if recorded is not None:
                recorded.extend(changes)
            if not result.success:
                raise ProposalError(f"{proposal.id} cannot be applied now: {result.error}")
            edited_mark = True if edited else None
            decided = proposal.replaced(
                arguments=arguments, status="accepted", decided_at=self._clock(), edited=edited_mark
            )
            proposals[index] = decided
            done.append((decided, result.output))

        self._edit(change)
        return done[0]

    def reopen(self, proposals: Sequence[AgentProposal]) -> list[AgentProposal]:
        """Put decided proposals back as pending (a decision taken back); the proposals put back."""
        reopened: list[AgentProposal] = []

        def change(queued: list[AgentProposal]) -> None:
            at = {proposal.id: index for index, proposal in enumerate(queued)}
            for proposal in proposals:
                index = at.get(proposal.id)
                if index is None:
                    queued.append(proposal)
                elif queued[index].status != "pending":
                    queued[index] = proposal
                else:
                    continue
                reopened.append(proposal)

        self._edit(change)
        return reopened

    def reject(self, ids: Sequence[str]) -> list[AgentProposal]:
        """Mark pending proposals rejected (nothing in memory changes)."""
        rejected: list[AgentProposal] = []

        def change(proposals: list[AgentProposal]) -> None:
            now = self._clock()
            for proposal_id in dict.fromkeys(ids):
                index = _pending_index(proposals, proposal_id)
                proposals[index] = proposals[index].replaced(status="rejected", decided_at=now)
                rejected.append(proposals[index])

        self._edit(change)
        return rejected


def proposals_path(home: Home, key: str) -> Path:
    """Where a queue is kept (inside `<home>/memtab`)."""
    if not key or key.startswith(".") or any(char in key for char in "/\\\0"):
        raise ProposalError(f"Invalid workspace id {key!r}")
    return home.memtab_dir / PROPOSALS_DIR_NAME / f"{key}.json"


def proposing_workspaces(home: Home) -> list[str]:
    """Ids of the workspaces that have a proposals file (the global queue left out)."""
    folder = home.memtab_dir / PROPOSALS_DIR_NAME
    try:
        names = [p.stem for p in folder.iterdir() if p.suffix == ".json" and p.is_file()]
    except OSError:
        return []
    return sorted(name for name in names if name != GLOBAL_QUEUE)


def pending_in(home: Home, key: str) -> list[AgentProposal]:
    """The proposals waiting in queue `key` (a workspace id, or `global`), oldest first, read
    without changing anything: a queue that cannot be read holds none here (the Inbox sets it
    aside and says why)."""
    read = read_sidecar(proposals_path(home, key), max_bytes=MAX_QUEUED_BYTES)
    if read.over_cap or read.problem is not None or not read.exists:
        return []
    return [p for p in _split(read.document)[0] if p.status == "pending"]


def _inbox_full(why: str) -> ProposalError:
    review = "Ask the user to review the Inbox (accept or reject what waits) before proposing more"
    return ProposalError(f"The user's Memtab Inbox is full ({why}); nothing was proposed. {review}")


def _entry_bytes(proposal: AgentProposal) -> int:
    """About what `proposal` takes in its queue file."""
    return len(encode_utf8(json_document(proposal.to_json())))


def _queue_files_bytes(folder: Path, *, but: str) -> int:
    """What the queue files in `folder` other than `but` hold, one too large to read not counted."""
    total = 0
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name == but or not entry.name.endswith(".json"):
                    continue
                with contextlib.suppress(OSError):
                    if entry.is_file(follow_symlinks=False):
                        size = entry.stat(follow_symlinks=False).st_size
                        total += size if size <= MAX_QUEUED_BYTES else 0
    except OSError:
        return 0
    return total


def _split(raw: dict[str, Any]) -> tuple[list[AgentProposal], list[Any]]:
    read = ProposalFile.read(raw) or ProposalFile()
    known = [p for p in read.proposals if isinstance(p, AgentProposal)]
    return known, [p for p in read.proposals if not isinstance(p, AgentProposal)]


def _shape_problem(raw: dict[str, Any]) -> str | None:
    entries = raw.get("proposals")
    return None if entries is None or isinstance(entries, list) else "its proposals are not a list"


def _pending_index(proposals: list[AgentProposal], proposal_id: str) -> int:
    found = (i for i, p in enumerate(proposals) if p.id == proposal_id and p.status == "pending")
    if (index := next(found, None)) is not None:
        return index
    raise ProposalError(f"No pending proposal with id {proposal_id}")
