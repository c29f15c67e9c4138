"""Agents' proposals (`memtab mcp --writes inbox`) in the Inbox: proposed without touching
memory, listed beside harvest and suggestions, accepted through the memory tool as the
client (or the user, when edited), refused when the file moved on, rejected; a server
with no workspace proposes to the global Inbox, which every workspace's Inbox shows."""

from __future__ import annotations

import json

import pytest

from memtab.store.home import Home
from memtab.store.paths import PathError
from memtab.store.proposals import queue as proposals
from memtab.store.proposals.queue import ProposalQueue, ToolCall
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from memtab.writer.inbox.inbox import Inbox, InboxError
from support.memory_paths import vpath

NOTE = "/memories/global/deploy.md"
WORKSPACE_NOTE = "/memories/workspace/notes.md"


def create(path: str, text: str) -> ToolCall:
    return ToolCall("create", {"path": path, "file_text": text})


def actors(home: Home, workspace: Workspace | None, path: str) -> list[str]:
    return [v.actor for v in file_history(MemoryStore(home, workspace), vpath(path))]


def test_a_proposal_changes_nothing_until_accepted_as_the_client(
    home: Home, workspace: Workspace
) -> None:
    queued = ProposalQueue(home, workspace).propose(
        create(WORKSPACE_NOTE, "- use pnpm\n"), client="claude-code"
    )
    assert not (home.workspace_root(workspace.id) / "notes.md").exists()
    (item,) = Inbox(home, workspace).items()
    assert (item.id, item.kind, item.workspace_id) == (queued.id, "agent", workspace.id)
    assert (item.text, item.memory_path, item.source) == (
        "- use pnpm\n",
        WORKSPACE_NOTE,
        "mcp:claude-code",
    )
    assert item.rationale == f"create {WORKSPACE_NOTE}"
    assert json.dumps(item.to_json())  # the `memtab inbox --json` contract holds

    decision = Inbox(home, workspace).accept([item.id])
    assert decision.texts == {item.id: "- use pnpm\n"}
    assert (home.workspace_root(workspace.id) / "notes.md").read_text() == "- use pnpm\n"
    assert actors(home, workspace, WORKSPACE_NOTE) == ["mcp:claude-code"]
    assert Inbox(home, workspace).items() == []


def test_an_edited_proposal_is_written_as_the_users(home: Home, workspace: Workspace) -> None:
    ProposalQueue(home, workspace).propose(create(WORKSPACE_NOTE, "draft\n"), client="codex")
    (item,) = Inbox(home, workspace).items()
    Inbox(home, workspace).accept([item.id], text="final\n")
    assert (home.workspace_root(workspace.id) / "notes.md").read_text() == "final\n"
    assert actors(home, workspace, WORKSPACE_NOTE) == ["user"]


def test_a_call_the_tool_refuses_now_stays_pending_with_the_reason(
    home: Home, workspace: Workspace
) -> None:
    store = MemoryStore(home, workspace)
    store.create_file(vpath(WORKSPACE_NOTE), "old\n")
    sha = store.read(vpath(WORKSPACE_NOTE)).sha256
    call = ToolCall(
        "str_replace", {"path": WORKSPACE_NOTE, "old_str": "old", "new_str": "new"}, sha
    )
    queued = ProposalQueue(home, workspace).propose(call, client="claude-code")
    (item,) = Inbox(home, workspace).items()
    assert item.rationale == f"str_replace {WORKSPACE_NOTE} old_str='old'"
    store.save(vpath(WORKSPACE_NOTE), "old but changed\n", sha)
    with pytest.raises(InboxError, match=r"cannot be applied now: .* changed since it was read"):
        Inbox(home, workspace).accept([queued.id])
    assert [i.id for i in Inbox(home, workspace).items()] == [queued.id]
    with pytest.raises(InboxError, match="no text to edit"):
        ProposalQueue(home, workspace).propose(
            ToolCall("delete", {"path": WORKSPACE_NOTE}), client="x"
        )
        Inbox(home, workspace).accept([Inbox(home, workspace).items()[-1].id], text="x")
    Inbox(home, workspace).reject([i.id for i in Inbox(home, workspace).items()])
    assert Inbox(home, workspace).items() == []
    assert (home.workspace_root(workspace.id) / "notes.md").read_text() == "old but changed\n"


def test_global_proposals_show_in_every_workspaces_inbox_and_the_global_one(
    home: Home, workspace: Workspace
) -> None:
    queued = ProposalQueue(home, None).propose(create(NOTE, "x\n"), client="codex")
    assert [i.id for i in Inbox(home, None).items()] == [queued.id]
    (item,) = Inbox(home, workspace).items()
    assert (item.id, item.workspace_id) == (queued.id, None)
    assert Inbox(home, workspace).items(with_global=False) == []
    Inbox(home, workspace).accept([queued.id])
    assert (home.global_root / "deploy.md").read_text() == "x\n"
    assert Inbox(home, None).items() == []


def test_proposals_are_checked_before_they_are_queued(
    home: Home, workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(PathError):
        ProposalQueue(home, workspace).propose(create("/memories/../x.md", ""), client="x")
    with pytest.raises(Exception, match=r"Project memory is unavailable"):
        ProposalQueue(home, None).propose(create("/memories/project/a.md", ""), client="x")
    monkeypatch.setattr(proposals, "MAX_PENDING", 1)
    ProposalQueue(home, None).propose(create(NOTE, "1"), client="x")
    with pytest.raises(
        proposals.ProposalError, match=r"Inbox is full \(1 proposals wait for a decision\)"
    ):
        ProposalQueue(home, None).propose(create(NOTE, "2"), client="x")
