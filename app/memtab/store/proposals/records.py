"""The records of agents' proposals (pydantic, `memtab.fs.records`): the queue files of
`store.proposals.queue` (docs/formats.md §22.5)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from memtab.fs.pydantic_once import BeforeValidator, ConfigDict, Field
from memtab.fs.records import Lenient, OmitNone, OrNone, Record, StrictInt, StrictStr

Text = Annotated[StrictStr, Field(min_length=1)]


PROPOSALS_VERSION = 1
ProposalStatus = Literal["pending", "accepted", "rejected"]


class AgentProposal(Record):
    """One change an agent proposed through `memtab mcp --writes inbox`: a memory-tool
    call, waiting for the user (docs/formats.md §22.5). An entry without a non-empty `id`,
    `client` and `command`, an object `arguments`, an integer `createdAt` and a known
    `status` is not one."""

    model_config = ConfigDict(extra="allow")

    id: Text
    client: Text
    command: Text
    arguments: dict[str, Any]
    expected_sha256: Annotated[OrNone[StrictStr], OmitNone] = None
    created_at: StrictInt
    status: ProposalStatus = "pending"
    decided_at: Annotated[OrNone[StrictInt], OmitNone] = None
    edited: Annotated[OrNone[bool], OmitNone] = None


class ProposalFile(Record):
    """The proposals for one workspace, `<home>/memtab/proposals/<workspaceId>.json`, or
    for global memory from a server with no workspace, `.../global.json` (§22.5)."""

    model_config = ConfigDict(extra="allow")

    version: Annotated[int, BeforeValidator(lambda _: PROPOSALS_VERSION)] = PROPOSALS_VERSION
    workspace_id: OrNone[StrictStr] = None
    proposals: Annotated[
        tuple[Annotated[AgentProposal | Any, Field(union_mode="left_to_right")], ...],
        Lenient(()),
    ] = ()
