"""What waits in the user's Inbox is said where a session would have found it (docs/formats.md
§22.5, issue 96): "Remember that we deploy with `make ship`" became a proposal, and a new
session of any agent found nothing and was not told a proposal waited. Now `search` shows the
proposals its words find, marked not accepted, `list` and `search` count what waits, and `view`
of a file a proposal would make or change says so."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.agent_server.pages import waiting as waiting_module
from memtab.agent_server.service import MemoryService
from memtab.store.home import Home
from memtab.store.proposals.queue import ProposalQueue, proposals_path, proposing_workspaces
from memtab.store.sidecars.registry import load_registry

from .session_homes import WORKSPACE_ID, TwoProjects, two_projects

DEPLOY = "# Deploy\n- We deploy with `make ship`.\n"


@pytest.fixture
def homes(tmp_path: Path) -> TwoProjects:
    return two_projects(tmp_path)


@pytest.fixture
def sessions(homes: TwoProjects) -> Iterator[list[MemoryService]]:
    started: list[MemoryService] = []
    yield started
    for service in started:
        service.close()


def session(homes: TwoProjects, started: list[MemoryService], workspace: bool) -> MemoryService:
    chosen = load_registry(homes.home).require_workspace(WORKSPACE_ID) if workspace else None
    service = MemoryService(homes.home, chosen, writes="inbox", other_agents=False)
    started.append(service)
    return service


def answer(service: MemoryService, tool: str, **arguments: object) -> dict[str, object]:
    said = service.call(tool, dict(arguments), "codex-mcp-client")
    assert said.error is None, said.error
    return json.loads(said.text)  # type: ignore[no-any-return]


def propose(service: MemoryService, path: str, text: str = DEPLOY) -> None:
    said = service.call("create", {"path": path, "file_text": text}, "claude-code")
    assert said.text.startswith("Proposed to the user's Memtab Inbox"), said


def test_a_new_session_finds_what_waits_marked_not_accepted(
    homes: TwoProjects, sessions: list[MemoryService]
) -> None:
    propose(session(homes, sessions, workspace=True), "/memories/global/deploy.md")
    later = session(homes, sessions, workspace=True)
    found = answer(later, "search", query="how do we deploy")
    assert found["results"] == [] and found["waitingInInbox"] == 1
    [waiting] = found["waiting"]  # type: ignore[misc]
    assert {key: waiting[key] for key in ("path", "command", "text", "proposedBy", "status")} == {
        "path": "/memories/global/deploy.md",
        "command": "create",
        "text": DEPLOY,
        "proposedBy": "Claude Code via Memtab MCP",
        "status": "not accepted yet",
    }
    assert found["notes"] == [
        "1 change proposed through Memtab waits in the user's Memtab Inbox, not accepted yet: no "
        "memory until the user accepts it (in Memtab's Inbox or `memtab inbox`). The one these "
        "words find is under `waiting`: say it is not accepted yet if you rely on it."
    ]
    listed = answer(later, "list")
    assert listed["waitingInInbox"] == 1
    assert "`search` shows those its words find" in listed["notes"][-1]  # type: ignore[index]
    other = answer(later, "search", query="gamma")
    assert "waiting" not in other and other["waitingInInbox"] == 1
    assert other["notes"][-1].endswith("None of it holds these words.")  # type: ignore[index]


def test_a_session_sees_its_workspaces_proposals_and_everyones_for_global_memory(
    homes: TwoProjects, sessions: list[MemoryService]
) -> None:
    in_workspace = session(homes, sessions, workspace=True)
    propose(in_workspace, "/memories/workspace/cart.md", "- The cart test needs redis.\n")
    propose(session(homes, sessions, workspace=False), "/memories/global/style.md", "- Tabs.\n")
    assert answer(in_workspace, "list")["waitingInInbox"] == 2
    assert answer(in_workspace, "list", scope="workspace")["waitingInInbox"] == 1
    assert "waitingInInbox" not in answer(in_workspace, "list", scope="claude-code")
    # Without the workspace, its workspace memory is not served: its proposal is not counted.
    assert answer(session(homes, sessions, workspace=False), "list")["waitingInInbox"] == 1


def test_a_decided_proposal_no_longer_waits(
    homes: TwoProjects, sessions: list[MemoryService]
) -> None:
    later = session(homes, sessions, workspace=False)
    propose(later, "/memories/global/deploy.md")
    assert answer(later, "search", query="deploy")["waitingInInbox"] == 1
    queue = ProposalQueue(homes.home, None)
    [proposal] = queue.pending()
    queue.reject([proposal.id])
    found = answer(later, "search", query="deploy")
    assert "waiting" not in found and "waitingInInbox" not in found


def test_view_says_a_change_to_the_file_waits(
    homes: TwoProjects, sessions: list[MemoryService]
) -> None:
    first = session(homes, sessions, workspace=True)
    propose(first, "/memories/global/deploy.md")
    edit = {"path": "/memories/global/g.md", "old_str": "gamma", "new_str": "delta"}
    assert first.call("str_replace", edit, "claude-code").error is None
    later = session(homes, sessions, workspace=True)
    missing = later.call("view", {"path": "/memories/global/deploy.md"}, "codex-mcp-client")
    assert missing.error is not None and (
        "(A change to /memories/global/deploy.md waits in the user's Memtab Inbox, not "
        "accepted yet: " in missing.error
    )
    assert "create by Claude Code via Memtab MCP: '# Deploy" in missing.error
    seen = later.call("view", {"path": "/memories/global/g.md"}, "codex-mcp-client").text
    assert (
        "1\tglobal gamma" in seen and "str_replace by Claude Code via Memtab MCP: 'delta'" in seen
    )


def test_a_queue_that_cannot_be_read_holds_nothing_waiting(
    homes: TwoProjects, sessions: list[MemoryService]
) -> None:
    in_workspace = session(homes, sessions, workspace=True)
    propose(in_workspace, "/memories/workspace/deploy.md")
    path = proposals_path(homes.home, "global")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json")
    found = answer(in_workspace, "search", query="deploy")
    assert found["waitingInInbox"] == 1  # the workspace's, the unreadable queue holding none
    assert path.read_text() == "{not json"  # read, never changed


def test_the_folder_of_queues_is_listed_again_only_when_it_changed(
    homes: TwoProjects, sessions: list[MemoryService], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search stats the Inbox's folder instead of listing it (issue 97: the look-alike search's
    file checks); a queue another workspace starts is seen at the next search."""
    in_workspace = session(homes, sessions, workspace=True)
    propose(in_workspace, "/memories/global/deploy.md")
    queue = proposals_path(homes.home, WORKSPACE_ID)
    old = time.time() - 60  # past the racy margin: the folder's stamp tells a change
    os.utime(queue.parent, (old, old))
    listings: list[int] = []

    def counted(home: Home) -> list[str]:
        listings.append(1)
        return proposing_workspaces(home)

    monkeypatch.setattr(waiting_module, "proposing_workspaces", counted)
    for _ in range(3):
        assert answer(in_workspace, "search", query="deploy")["waitingInInbox"] == 1
    assert len(listings) == 1
    shutil.copy(queue, queue.with_name("w-other.json"))  # its proposal for global memory
    assert answer(in_workspace, "search", query="deploy")["waitingInInbox"] == 2
    assert len(listings) == 2
