"""`memtab doctor` says whether agents' MCP sessions get a warm Memtab, who runs it, and why
not (docs/formats.md §22.8): asked of the host over its socket, never guessed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.agent_server.bridge.rendezvous import rendezvous
from memtab.cli.main import main
from memtab.diagnostics.setup import check_agent_server
from memtab.store.home import Home
from support.demo_homes import copied_demo_home
from support.mcp_hosts import start


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    monkeypatch.delenv("MEMTAB_MCP_SHARED")
    return copied_demo_home(tmp_path / "demo")


def test_a_running_host_is_named_with_its_pid_and_sessions(home: Home) -> None:
    host = start(rendezvous(str(home.root), os.environ))
    try:
        facts, found = check_agent_server(home, os.environ)
    finally:
        host.stop()
    assert (facts.shared, facts.running, facts.hosted_by, facts.pid) == (
        True,
        True,
        "command",
        os.getpid(),
    )
    assert facts.note == (
        f"Agents' sessions are served by `memtab mcp host` (pid {os.getpid()}, 0 sessions now); "
        "`memtab watch --install` keeps one warm from login"
    )
    assert found.items == []


def test_with_no_host_running_the_next_session_starts_one(home: Home) -> None:
    facts, found = check_agent_server(home, os.environ)
    assert (facts.shared, facts.running, facts.why_not) == (True, False, None)
    assert facts.note.startswith("No shared server runs now: the next agent session starts one")
    assert found.items == []


def test_sharing_turned_off_is_said_and_not_a_warning(home: Home) -> None:
    facts, found = check_agent_server(home, {**os.environ, "MEMTAB_MCP_SHARED": "off"})
    assert facts.note == "Each agent session runs its own server: MEMTAB_MCP_SHARED=off"
    assert not facts.shared and found.items == []


def test_no_private_folder_for_the_socket_is_a_warning(home: Home, tmp_path: Path) -> None:
    runtime = Path(os.environ["XDG_RUNTIME_DIR"])
    (runtime / "memtab").write_text("a file")
    (tmp_path / "tmp").mkdir()
    (tmp_path / "tmp" / f"memtab-{os.geteuid()}").write_text("a file")
    facts, found = check_agent_server(home, {**os.environ, "TMPDIR": str(tmp_path / "tmp")})
    assert not facts.shared and facts.why_not is not None
    assert f"{runtime / 'memtab'} is not a folder" in facts.why_not
    (warning,) = found.items
    assert warning.check == "agentServer" and warning.message == facts.note


def test_the_doctors_text_has_a_line_for_it(home: Home, capsys: pytest.CaptureFixture[str]) -> None:
    main(["doctor", "--home", str(home.root)])
    said = capsys.readouterr().out
    assert "MCP:       No shared server runs now: the next agent session starts one" in said
