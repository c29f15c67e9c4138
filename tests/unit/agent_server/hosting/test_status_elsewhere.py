"""Whether agents get a warm Memtab is never "no shared server runs" while one serves the
same home under another set-up (issue 74, tier 3): a host is chosen by the Memtab and
the variables a session starts with, so an agent started from another shell can be served
by a host this process would never reach. Its status says what it serves (`HostSetup`),
and Settings and doctor name it with what differs (docs/formats.md §22.8)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.agent_server.bridge.rendezvous import rendezvous
from memtab.agent_server.hosting.handshake import host_setup
from memtab.agent_server.hosting.status import host_status, shared_server_facts
from memtab.store.home import Home
from support.mcp_hosts import start


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    monkeypatch.delenv("MEMTAB_MCP_SHARED")
    home = Home(tmp_path / "home")
    home.root.mkdir()
    return home


def test_a_host_of_this_home_under_another_set_up_is_named(home: Home, tmp_path: Path) -> None:
    env = dict(os.environ)
    theirs = {**env, "CLAUDE_CONFIG_DIR": str(tmp_path / "work-claude")}
    place = rendezvous(str(home.root), theirs)
    host = start(place, setup=host_setup(str(home.root), theirs))
    try:
        status = host_status(place.socket)
        assert status is not None and status.setup is not None
        assert status.setup.home == str(home.root)
        facts = shared_server_facts(home, env)
    finally:
        host.stop()
    assert not facts.running  # none at this window's own socket
    assert facts.note == (
        f"A shared server serves this home for agents started with CLAUDE_CONFIG_DIR="
        f"{tmp_path / 'work-claude'}: `memtab mcp host` (pid {os.getpid()}, 0 sessions now). "
        "None runs for sessions started as this window is: the next one starts one (it "
        "exits after 10 idle minutes)"
    )


def test_a_host_of_another_home_or_saying_nothing_of_its_home_is_not_this_ones(
    home: Home, tmp_path: Path
) -> None:
    env = dict(os.environ)
    other = str(tmp_path / "other-home")
    theirs = {**env, "CODEX_HOME": str(tmp_path / "codex")}
    hosts = [
        start(rendezvous(other, theirs), setup=host_setup(other, theirs)),
        start(rendezvous(str(home.root), {**theirs, "LOKI_DIR": "/l"})),  # an older host
    ]
    try:
        facts = shared_server_facts(home, env)
    finally:
        for host in hosts:
            host.stop()
    assert facts.note.startswith("No shared server runs now: the next agent session starts one")
