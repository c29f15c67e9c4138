"""The records of agents' proposals (docs/formats.md §22.5)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from memtab.fs.records import AtLeast, Healed, Lenient, OmitNone, OrNone, Record

Text = Annotated[str, AtLeast(1)]


PROPOSALS_VERSION = 1
ProposalStatus = Literal["pending", "accepted", "rejected"]


class AgentProposal(Record, keep_unknown=True):
    """One memory-tool call an agent proposed, waiting for the user (docs/formats.md §22.5)."""

    id: Text
    client: Text
    command: Text
    arguments: dict[str, Any]
    expected_sha256: Annotated[OrNone[str], OmitNone] = None
    created_at: int
    status: ProposalStatus = "pending"
    decided_at: Annotated[OrNone[int], OmitNone] = None
    edited: Annotated[OrNone[bool], OmitNone] = None


class ProposalFile(Record, keep_unknown=True):
    """The proposals for one workspace, or `global.json` for a server with no workspace (§22.5)."""

    version: Annotated[int, Healed(lambda _: PROPOSALS_VERSION)] = PROPOSALS_VERSION
    workspace_id: OrNone[str] = None
    proposals: Annotated[tuple[AgentProposal | Any, ...], Lenient(())] = ()
