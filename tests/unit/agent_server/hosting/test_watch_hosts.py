"""`memtab watch` hosts the agents' MCP sessions of its home while it runs (docs/formats.md
§22.8): an agent's `memtab mcp --home <home>`, as `memtab mcp install` registers it, is
served by the recorder's process, which stops hosting when it stops."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.agent_server.bridge.rendezvous import rendezvous
from memtab.agent_server.hosting.status import host_status
from support.demo_homes import copied_demo_home
from support.mcp_hosts import end_hosts, wait_for, wait_gone
from support.processes import exit_of

from ..raw_stdio import raw_server

# slow: runs the recorder and a session's bridge (~1 s of CPU or more)
pytestmark = pytest.mark.slow


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.delenv("MEMTAB_MCP_SHARED")
    try:
        yield copied_demo_home(tmp_path / "demo").root
    finally:
        end_hosts()


def test_the_recorder_hosts_the_agents_sessions_of_its_home(demo: Path) -> None:
    place = rendezvous(str(demo), os.environ)
    watch = subprocess.Popen(
        [sys.executable, "-m", "memtab", "watch", "--home", str(demo)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(lambda: host_status(place.socket) is not None, "the recorder hosts")
        with raw_server(demo, "--writes", "off") as session:
            session.send(b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":'
                         b'{"name":"view","arguments":{"path":"/memories/global"}}}\n')  # fmt: skip
            assert not session.answer(within_s=30)["result"]["isError"]
            status = host_status(place.socket)
            assert status is not None
            assert (status.hosted_by, status.pid, status.sessions) == ("watch", watch.pid, 1)
            assert status.idle_exit_s is None
    finally:
        watch.send_signal(signal.SIGTERM)
        status, said = exit_of(watch, "SIGTERM", 60)
    assert status == 0, said
    assert f"Hosting agents' MCP sessions of {demo} at {place.socket}" in said
    assert not Path(place.socket).exists()
    assert wait_gone(watch.pid)


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/<pid>/maps")
def test_a_recorder_that_cannot_host_says_why_and_never_loads_the_sdk(
    demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hosting is off here as it is on macOS and Windows (no peer credentials to read):
    # the SDK's ~45 MiB would be held all day for no session.
    monkeypatch.setenv("MEMTAB_MCP_SHARED", "off")
    watch = subprocess.Popen(
        [sys.executable, "-m", "memtab", "watch", "--home", str(demo)],
        stderr=subprocess.PIPE,
        text=True,
    )
    said = []
    try:
        assert watch.stderr is not None
        for line in watch.stderr:  # until it records: it has decided on hosting by then
            said.append(line)
            if line.startswith("History is up to date"):
                break
        loaded = Path(f"/proc/{watch.pid}/maps").read_text()
    finally:
        watch.send_signal(signal.SIGTERM)
        status, _ = exit_of(watch, "SIGTERM", 60)
    assert status == 0, said
    why = "Not hosting agents' MCP sessions: No shared server here: MEMTAB_MCP_SHARED=off\n"
    assert why in said
    assert "pydantic_core" not in loaded
