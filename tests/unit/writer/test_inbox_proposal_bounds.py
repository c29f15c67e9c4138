"""Agents' proposals are bounded (docs/formats.md §22.5): each has the direct write's caps
and path rules, a home's queues hold at most so many bytes (the oldest decisions make
room first; then the agent is told the Inbox is full), and a queue file an older version
let grow past that is set aside unread, never blocking the Inbox."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memtab.agent_server.service import MemoryService, WriteMode
from memtab.fs.sidecar import KeptAside, on_kept_aside
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.home import Home
from memtab.store.proposals import queue as proposals
from memtab.store.proposals.queue import ProposalError, ProposalQueue, ToolCall
from memtab.store.sidecars.registry import Workspace
from memtab.writer.inbox.inbox import Inbox

NOTE = "/memories/global/deploy.md"
CAP_SAYS = f"Memory files are limited to {MAX_FILE_BYTES} bytes (got "


@pytest.fixture
def services(home: Home, workspace: Workspace) -> Iterator[dict[WriteMode, MemoryService]]:
    home.global_root.mkdir(parents=True, exist_ok=True)
    served: dict[WriteMode, MemoryService] = {
        mode: MemoryService(home, workspace, writes=mode, other_agents=False)
        for mode in ("inbox", "direct")
    }
    yield served
    for service in served.values():
        service.catalog.close()


def refusal(service: MemoryService, tool: str, arguments: dict[str, Any]) -> str:
    answer = service.call(tool, arguments, "claude-code")
    assert answer.error is not None, answer.text
    return answer.error


LIMIT = "x" * MAX_FILE_BYTES
OVER = "é" * (MAX_FILE_BYTES // 2) + "x"  # the cap counts UTF-8 bytes


def test_a_proposal_has_the_direct_writes_caps_and_path_rules(
    home: Home, workspace: Workspace, services: dict[WriteMode, MemoryService]
) -> None:
    inbox, direct = services["inbox"], services["direct"]
    (home.global_root / "a.md").write_text("old\n")
    alike = [
        ("create", {"path": "/memories/global/big.md", "file_text": OVER}),
        ("create", {"path": "/memories/global/.hidden.md", "file_text": "x"}),
        ("create", {"path": "/memories/global", "file_text": "x"}),
        ("rename", {"old_path": "/memories/global/a.md", "new_path": "/memories/workspace/a.md"}),
        ("rename", {"old_path": "/memories/global/a.md", "new_path": "/memories/global/.a.md"}),
    ]
    for tool, arguments in alike:
        assert refusal(inbox, tool, arguments) == refusal(direct, tool, arguments), tool
    assert refusal(inbox, *alike[0]).startswith(CAP_SAYS + f"{MAX_FILE_BYTES + 1})")
    # an edit's text alone passes the cap: the direct write refuses the edited file
    texts = {"str_replace": ("new_str", "old_str"), "insert": ("insert_text",)}
    for tool, keys in texts.items():
        for key in keys:
            arguments = {"path": "/memories/global/a.md", "old_str": "old", "insert_line": 0}
            arguments[key] = OVER
            assert refusal(inbox, tool, arguments).startswith(CAP_SAYS), (tool, key)
            assert refusal(direct, tool, arguments), (tool, key)
    for tool, arguments in [
        ("create", {"path": "/memories/global/limit.md", "file_text": LIMIT}),
        ("insert", {"path": "/memories/global/a.md", "insert_line": 0, "insert_text": "\n"}),
        ("insert", {"path": "/memories/global/empty.md", "insert_line": 0,
                    "insert_text": LIMIT + "\n"}),
    ]:  # fmt: skip
        assert inbox.call(tool, arguments, "claude-code").error is None, tool
    assert len(Inbox(home, workspace).items()) == 3


def propose(home: Home, workspace: Workspace | None, number: int, size: int) -> str:
    call = ToolCall("create", {"path": f"/memories/global/{number}.md", "file_text": "x" * size})
    return ProposalQueue(home, workspace).propose(call, client="claude-code").id


def test_a_homes_queues_hold_so_many_bytes_the_oldest_decisions_making_room(
    home: Home, workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(proposals, "MAX_QUEUED_BYTES", 1024 * 1024)
    first = [propose(home, None, n, 100_000) for n in range(8)]  # the global queue
    propose(home, workspace, 8, 100_000)  # a workspace's: the same home's bytes
    propose(home, workspace, 9, 100_000)
    with pytest.raises(ProposalError) as full:
        propose(home, None, 10, 100_000)
    assert str(full.value) == (
        "The user's Memtab Inbox is full (the proposals waiting fill its 1 MiB); nothing was "
        "proposed. Ask the user to review the Inbox (accept or reject what waits) before "
        "proposing more"
    )
    Inbox(home, None).reject(first[:2])
    later = propose(home, None, 10, 100_000)  # the oldest decision is forgotten for it
    queued = json.loads(proposals.proposals_path(home, "global").read_text())["proposals"]
    assert [(p["id"], p["status"]) for p in queued] == [
        (first[1], "rejected"),
        *[(id_, "pending") for id_ in first[2:]],
        (later, "pending"),
    ]
    sizes = (home.memtab_dir / "proposals").glob("*.json")
    assert sum(path.stat().st_size for path in sizes) <= 1024 * 1024


@pytest.fixture
def notices() -> Iterator[list[KeptAside]]:
    received: list[KeptAside] = []
    stop = on_kept_aside(received.append)
    yield received
    stop()


def an_older_versions_queue(path: Path, size: int) -> bytes:
    """A global queue as an older version wrote it: pending proposals of any size."""
    entry = {
        "id": "p0123456789",
        "client": "claude-code",
        "command": "create",
        "arguments": {"path": NOTE, "file_text": "x" * size},
        "createdAt": 1,
        "status": "pending",
    }
    data = json.dumps({"version": 1, "workspaceId": None, "proposals": [entry]}).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


@pytest.mark.expect_log(
    "memtab.fs.sidecar",
    "WARNING",
    r"^global.json could not be used \(larger than the 8388608-byte cap: \d+ bytes, not "
    r"read\); its content was kept as global.json.corrupt-",
)
def test_a_queue_an_older_version_let_grow_is_set_aside_unread(
    home: Home, workspace: Workspace, notices: list[KeptAside]
) -> None:
    path = proposals.proposals_path(home, "global")
    data = an_older_versions_queue(path, 20 * 1024 * 1024)
    waiting = propose(home, workspace, 1, 100)  # a full home does not count it
    tracemalloc.start()
    try:
        items = Inbox(home, workspace).items()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [item.id for item in items] == [waiting]
    assert peak < 1024 * 1024
    (kept,) = notices
    assert kept.original == path and kept.backup.stat().st_size == len(data)
    assert not path.exists()
    Inbox(home, workspace).accept([waiting])
    assert (home.global_root / "1.md").read_text() == "x" * 100
    assert propose(home, None, 2, 100) in [item.id for item in Inbox(home, None).items()]


@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^global.json could not be used \(larger than the"
)
def test_a_proposal_to_a_queue_too_large_to_read_starts_it_afresh(
    home: Home, notices: list[KeptAside]
) -> None:
    path = proposals.proposals_path(home, "global")
    an_older_versions_queue(path, 9 * 1024 * 1024)
    queued = propose(home, None, 1, 100)
    assert [p["id"] for p in json.loads(path.read_text())["proposals"]] == [queued]
    assert len(notices) == 1 and notices[0].backup.exists()
