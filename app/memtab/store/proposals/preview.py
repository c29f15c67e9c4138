"""What an agent's proposal would write against the file as it is now, by the memory tool's own
change, in memory (docs/formats.md §22.5). Disk: off the GUI thread."""

from __future__ import annotations

from dataclasses import dataclass

from memtab.store.errors import (
    AlreadyExistsError,
    MemoryStoreError,
    NotFoundError,
    ToolArgumentError,
)
from memtab.store.files import content_sha256
from memtab.store.home import Home
from memtab.store.paths import PathError, parse_file_path
from memtab.store.proposals.queue import ProposalError, ProposalQueue
from memtab.store.proposals.records import AgentProposal
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import inserted, parse_tool_request, replaced_once, require_sha
from memtab.store.scopes.tool_args import CreateArgs, InsertArgs, StrReplaceArgs
from memtab.store.sidecars.registry import Workspace


@dataclass(frozen=True)
class ProposalPreview:
    """A proposal's change of one file: the text before and after (None: no file)."""

    command: str
    path: str  # the file it changes (a rename's source)
    before: str | None
    after: str | None
    new_path: str | None = None  # where a rename moves it
    problem: str | None = None
    """Why the memory tool would refuse it now (then `after` is `before`)."""


def preview_proposal(store: MemoryStore, proposal: AgentProposal) -> ProposalPreview:
    """What `proposal` would do to the file it names in `store`, as it is now."""
    try:
        request = parse_tool_request({**proposal.arguments, "command": proposal.command})
    except ToolArgumentError as error:
        return ProposalPreview(proposal.command, "", None, None, problem=str(error))
    path = request.path
    new_path = request.new_path
    try:
        before = _text_now(store, path)
    except (MemoryStoreError, PathError, OSError) as error:
        return ProposalPreview(request.command, path, None, None, new_path, _said(error))
    args = request.args
    try:
        if before is not None and proposal.expected_sha256 is not None:
            require_sha(parse_file_path(path), content_sha256(before), proposal.expected_sha256)
        if isinstance(args, CreateArgs):
            if before is not None:
                raise AlreadyExistsError(f"A file already exists at {path}")
            after: str | None = args.file_text
        elif before is None:
            raise NotFoundError(f"No memory file at {path}")
        elif isinstance(args, StrReplaceArgs):
            after = replaced_once(before, args, parse_file_path(path))
        elif isinstance(args, InsertArgs):
            after = inserted(before, args)
        elif request.command == "delete":
            after = None
        else:  # a rename: the same text, elsewhere
            after = before
    except (MemoryStoreError, PathError) as error:
        return ProposalPreview(request.command, path, before, before, new_path, _said(error))
    return ProposalPreview(request.command, path, before, after, new_path)


def preview_pending(home: Home, workspace: Workspace | None, proposal_id: str) -> ProposalPreview:
    """The preview of pending proposal `proposal_id` of `workspace`'s queue (None: global);
    ProposalError when not pending."""
    store = MemoryStore(home, workspace)
    for proposal in ProposalQueue(home, workspace).pending():
        if proposal.id == proposal_id:
            return preview_proposal(store, proposal)
    raise ProposalError(f"No pending proposal with id {proposal_id}")


def _text_now(store: MemoryStore, path: str) -> str | None:
    """The file's text, or None when there is no file."""
    try:
        return store.read_text(parse_file_path(path))
    except NotFoundError:
        return None


def _said(error: BaseException) -> str:
    return str(error) or type(error).__name__
