"""Agents' sessions of `memtab mcp` through the bridge and a warm host, as agents start them
(docs/formats.md §22.8): processes, a real socket, the SDK's client. One host serves
sessions of different projects, each its own; a host killed mid-call leaves no request
waiting and the session goes on; a host of another Memtab, no private folder, or
`MEMTAB_MCP_SHARED=off` leave the session to its own process, which serves it as always."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp_types import Implementation

from memtab.agent_server.bridge.pump import CONNECTION_CLOSED
from memtab.agent_server.bridge.rendezvous import rendezvous
from memtab.agent_server.hosting.handshake import HostStatus
from memtab.agent_server.hosting.status import host_status
from memtab.demo import DARK_MODE_ID, MAIN_ID
from memtab.fs.locking.locks import interprocess_lock
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry
from support.demo_homes import copied_demo_home
from support.mcp_hosts import end_hosts, host_pids, sockets, start, wait_gone

from ..raw_stdio import raw_server
from ..stdio_client import ok_json, server_parameters

# slow: each test starts `memtab mcp` processes and a host (~1 s of CPU each)
pytestmark = pytest.mark.slow


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.delenv("MEMTAB_MCP_SHARED")
    try:
        yield copied_demo_home(tmp_path / "demo").root
    finally:
        end_hosts()


def project_files(home: Path, workspace: str) -> set[str]:
    """The project scope's files of `workspace`, as `list` names them."""
    store = MemoryStore(Home(home), load_registry(Home(home)).workspace(workspace), actor="t")
    root = store.root(Scope.PROJECT)
    return {f"/memories/project/{p.relative_to(root)}" for p in root.rglob("*.md")}


def test_one_host_serves_sessions_of_two_projects_each_its_own(demo: Path) -> None:
    acme, webapp = project_files(demo, MAIN_ID), project_files(demo, DARK_MODE_ID)
    assert acme and webapp and not acme & webapp
    seen: dict[str, set[str]] = {}
    statuses: list[HostStatus | None] = []

    async def session(workspace: str, opened: anyio.Event, done: anyio.Event) -> None:
        parameters = server_parameters(demo, "--workspace", workspace, "--writes", "off")
        info = Implementation(name=f"agent-{workspace}", version="1")
        async with Client(parameters, client_info=info) as client:
            files = ok_json(await client.call_tool("list", {"scope": "project"}))["files"]
            seen[workspace] = {row["path"] for row in files}
            opened.set()
            await done.wait()  # both sessions open at once

    async def run() -> None:
        first, second, done = anyio.Event(), anyio.Event(), anyio.Event()
        async with anyio.create_task_group() as group:
            group.start_soon(session, MAIN_ID, first, done)
            await first.wait()  # the first starts the host; the second finds it
            group.start_soon(session, DARK_MODE_ID, second, done)
            await second.wait()
            (path,) = sockets()
            statuses.append(await anyio.to_thread.run_sync(host_status, str(path)))
            done.set()

    anyio.run(run)
    assert seen == {MAIN_ID: acme, DARK_MODE_ID: webapp}
    (status,) = statuses
    assert status is not None and status.sessions == 2 and status.hosted_by == "agents"
    assert host_pids() == [status.pid] and status.pid != os.getpid()


def test_a_host_killed_mid_call_answers_at_once_and_the_session_goes_on(demo: Path) -> None:
    store = MemoryStore(Home(demo), None, actor="test")
    with raw_server(demo, "--writes", "direct") as server:
        (killed,) = host_pids()
        with interprocess_lock(store.scope_lock_path(Scope.GLOBAL), timeout_s=5):
            create = {"path": "/memories/global/new.md", "file_text": "hello\n"}
            server.send(_call(5, "create", create))
            with pytest.raises(AssertionError):
                server.answer(within_s=0.5)  # the host waits for the lock (up to 10 s)
            os.kill(killed, signal.SIGKILL)
            killed_at = time.monotonic()
            answer = server.answer(within_s=5)
            answered_in = time.monotonic() - killed_at
        assert answer["id"] == 5 and answer["error"]["code"] == CONNECTION_CLOSED
        said = answer["error"]["message"]
        assert "(it exited); this change (create) may have been written before it stopped" in said
        assert "`view` `/memories/global/new.md` to see" in said
        assert answered_in < 5  # the host would have said "busy" 10 s after the call
        server.send(_call(6, "view", {"path": "/memories/global"}))
        again = server.answer(within_s=60)  # a new host, the session's initialize replayed
        assert again["id"] == 6 and not again["result"]["isError"], again
        (restarted,) = host_pids()
        assert restarted != killed and wait_gone(killed)
    with raw_server(demo, "--writes", "off") as fresh:  # the next session starts cleanly
        fresh.send(_call(1, "view", {"path": "/memories/global"}))
        assert not fresh.answer(within_s=30)["result"]["isError"]
        assert host_pids() == [restarted]


def _call(request_id: int, name: str, arguments: Mapping[str, object]) -> bytes:
    message = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    return json.dumps(message).encode() + b"\n"


def served_alone(home: Path, env: dict[str, str]) -> tuple[dict[str, object], str]:
    """One session's `initialize` answer and what the bridge said on stderr."""
    parameters = server_parameters(home, "--writes", "off")
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    ran = subprocess.run(
        [parameters.command, *parameters.args],
        input=json.dumps(initialize).encode() + b"\n",
        capture_output=True,
        env={**(parameters.env or {}), "PATH": os.environ.get("PATH", ""), **env},
        timeout=120,
        check=True,
    )
    return json.loads(ran.stdout.splitlines()[0]), ran.stderr.decode()


def test_a_host_of_another_memtab_leaves_the_session_to_its_own_process(demo: Path) -> None:
    other = start(rendezvous(str(demo), os.environ), version="0.0.1-other")
    try:
        answer, said = served_alone(demo, {})
    finally:
        other.stop()
    assert answer["result"]["serverInfo"]["name"] == "memtab"  # type: ignore[index]
    assert "memtab mcp: serving this session in its own process: the host is Memtab" in said
    assert "'0.0.1-other'" in said


def test_with_sharing_off_the_session_serves_itself_and_no_host_starts(demo: Path) -> None:
    answer, said = served_alone(demo, {"MEMTAB_MCP_SHARED": "off"})
    assert answer["result"]["serverInfo"]["name"] == "memtab"  # type: ignore[index]
    assert said == "" and sockets() == []


def test_without_a_private_folder_the_session_serves_itself_and_says_why(
    demo: Path, tmp_path: Path
) -> None:
    runtime = Path(os.environ["XDG_RUNTIME_DIR"])
    (runtime / "memtab").write_text("a file where the folder would be")
    (tmp_path / "tmp").mkdir()
    (tmp_path / "tmp" / f"memtab-{os.geteuid()}").write_text("here too")
    answer, said = served_alone(demo, {"TMPDIR": str(tmp_path / "tmp")})
    assert answer["result"]["serverInfo"]["name"] == "memtab"  # type: ignore[index]
    assert said.startswith("memtab mcp: serving this session in its own process: ")
    assert f"{runtime / 'memtab'} is not a folder" in said


def test_a_link_planted_at_the_hosts_log_keeps_its_bytes_and_the_session_is_served(
    demo: Path, tmp_path: Path
) -> None:
    precious = tmp_path / "precious.bin"
    precious.write_bytes(b"x" * 2 * 1024 * 1024)
    place = rendezvous(str(demo), os.environ)
    Path(place.log).symlink_to(precious)  # the folder was 0777 a while: kept once closed
    answer, said = served_alone(demo, {})
    assert answer["result"]["serverInfo"]["name"] == "memtab"  # type: ignore[index]
    assert precious.read_bytes() == b"x" * 2 * 1024 * 1024
    assert said == (
        f"memtab mcp: serving this session in its own process: {place.log} is a link "
        "(never followed: someone else may have put it there)\n"
    )
    assert sockets() == []


def test_relative_settings_mean_each_agents_directory_and_no_host_is_shared(
    demo: Path, tmp_path: Path
) -> None:
    words = f"rel-{os.getpid()}-{tmp_path.name}"  # never a name at / that was there before
    relative = {"MEMTAB_CONFIG_DIR": f"{words}-cfg", "MEMTAB_LOG_DIR": f"{words}-log"}
    agents = [tmp_path / "agent-a", tmp_path / "agent-b"]

    async def session(cwd: Path) -> None:
        parameters = server_parameters(demo, "--writes", "off", cwd=cwd)
        parameters.env = {**(parameters.env or {}), **relative}
        async with Client(parameters) as client:
            found = ok_json(await client.call_tool("search", {"query": "token"}))
            assert found["results"], found

    for cwd in agents:
        cwd.mkdir()
        anyio.run(session, cwd)
    try:
        for cwd in agents:
            assert (cwd / relative["MEMTAB_LOG_DIR"] / "memtab.log").is_file()
            assert (cwd / relative["MEMTAB_CONFIG_DIR"] / "cache").is_dir()
        assert len(sockets()) == 2  # one host for each directory's settings
    finally:
        leaked = [Path("/", name) for name in relative.values() if Path("/", name).exists()]
        for path in leaked:
            shutil.rmtree(path)
    assert leaked == []  # nothing written where the host runs
