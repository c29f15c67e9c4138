"""An agent starts even when Memtab cannot serve it (docs/formats.md §22.8): for every
breakage — Memtab that cannot load, a host that crashes on the session, a runtime folder
that cannot be used, a host of another Memtab, a bad home, a broken settings file, a
command line refused — `memtab mcp`, started as an agent starts it and driven by the
SDK's own client, answers `initialize`: served in its own process, or with tools that
say what is wrong. An agent that must connect (Codex's `required = true`) starts."""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from memtab import __version__
from memtab.agent_server.bridge.rendezvous import PROTOCOL, rendezvous
from support.demo_homes import copied_demo_home
from support.mcp_hosts import end_hosts

from ..stdio_client import server_parameters, text

# slow: each test starts `memtab mcp` (the SDK and the store: ~1 s of CPU each)
pytestmark = pytest.mark.slow


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.delenv("MEMTAB_MCP_SHARED")  # a warm host is tried first, as for agents
    try:
        yield copied_demo_home(tmp_path / "demo").root
    finally:
        end_hosts()


def session(parameters: StdioServerParameters) -> dict[str, Any]:
    """What an agent sees of a session: the server's name and instructions, its tools,
    and what `search` answers (its text, and whether it is an error)."""
    seen: dict[str, Any] = {}

    async def run() -> None:
        async with Client(parameters) as client:
            seen["server"] = client.server_info.name if client.server_info else None
            seen["instructions"] = client.instructions or ""
            seen["tools"] = sorted(tool.name for tool in (await client.list_tools()).tools)
            found = await client.call_tool("search", {"query": "token"})
            seen["search"] = (text(found), found.is_error)

    anyio.run(run)
    return seen


def with_env(parameters: StdioServerParameters, **env: str) -> StdioServerParameters:
    parameters.env = {**(parameters.env or {}), **env}
    return parameters


def test_memtab_that_cannot_load_still_answers_saying_why(demo: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken" / "anyio"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('half an upgrade: anyio is gone')\n")
    parameters = with_env(server_parameters(demo, "--writes", "off"), PYTHONPATH=str(broken.parent))
    seen = session(parameters)
    reason = (
        "Memtab cannot serve memory in this session: Memtab could not load (ImportError: half "
        "an upgrade: anyio is gone); reinstall Memtab."
    )
    assert seen["server"] == "memtab" and seen["instructions"].startswith(reason)
    assert seen["tools"] == ["list", "search", "view"]
    assert seen["search"] == (seen["instructions"], True)


class _CrashingHost:
    """A host that welcomes a session, then dies as it reads the agent's first line."""

    def __init__(self, path: str) -> None:
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen()
        self.sessions = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection:
                reader = connection.makefile("rb")
                hello = json.loads(reader.readline())
                welcome = {"ok": True, "memtab": __version__, "protocol": PROTOCOL, "pid": 1}
                connection.sendall(json.dumps(welcome).encode() + b"\n")
                if hello.get("purpose") == "session":
                    self.sessions += 1
                    reader.readline()  # the agent's initialize: it crashes on it

    def close(self) -> None:
        self.listener.close()


def test_a_host_that_crashes_on_the_session_leaves_it_to_its_own_process(demo: Path) -> None:
    crashing = _CrashingHost(rendezvous(str(demo), os.environ).socket)
    try:
        seen = session(server_parameters(demo, "--writes", "off"))
    finally:
        crashing.close()
    assert crashing.sessions == 1
    assert seen["server"] == "memtab" and seen["tools"] == ["list", "search", "view"]
    found, failed = seen["search"]
    assert not failed and json.loads(found)["results"]  # served, from the files


def test_a_runtime_folder_that_cannot_be_used_leaves_it_to_its_own_process(
    demo: Path, tmp_path: Path
) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir()
    (runtime / "memtab").write_text("a file where the folder would be")
    (tmp_path / "tmp").write_text("and where the other would be")
    parameters = with_env(
        server_parameters(demo, "--writes", "off"),
        XDG_RUNTIME_DIR=str(runtime),
        TMPDIR=str(tmp_path / "tmp"),
    )
    seen = session(parameters)
    assert seen["tools"] == ["list", "search", "view"] and not seen["search"][1]


def test_a_host_of_another_memtab_leaves_it_to_its_own_process(demo: Path) -> None:
    place = rendezvous(str(demo), os.environ)
    skewed = _SkewedHost(place.socket)
    try:
        seen = session(server_parameters(demo, "--writes", "off"))
    finally:
        skewed.close()
    assert seen["tools"] == ["list", "search", "view"] and not seen["search"][1]
    assert skewed.hellos == 1


class _SkewedHost(_CrashingHost):
    """A host of another Memtab: it answers every hello as such."""

    def __init__(self, path: str) -> None:
        self.hellos = 0
        super().__init__(path)

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection:
                connection.makefile("rb").readline()
                self.hellos += 1
                welcome = {"ok": True, "memtab": "0.0.1-other", "protocol": PROTOCOL, "pid": 1}
                connection.sendall(json.dumps(welcome).encode() + b"\n")


def test_a_bad_home_is_answered(demo: Path, tmp_path: Path) -> None:
    seen = session(server_parameters(tmp_path / "no-such-home", "--writes", "off"))
    assert seen["server"] == "memtab" and "search" in seen["tools"]


def test_a_broken_settings_file_is_answered(demo: Path) -> None:
    settings = Path(os.environ["MEMTAB_CONFIG_DIR"]) / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text("{ not json")
    seen = session(server_parameters(demo, "--writes", "off"))
    assert seen["tools"] == ["list", "search", "view"] and not seen["search"][1]


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        (["--writes", "bogus"], "argument --writes: invalid choice: 'bogus'"),
        # what the bridge does not read: an option of a newer Memtab's install, a value
        # missing, a word where an action goes
        (["--writes", "off", "--bogus-flag"], "unrecognized arguments: --bogus-flag"),
        (["--answer-budget"], "argument --answer-budget: expected one argument"),
        (["extra-word"], "argument ACTION: invalid choice: 'extra-word'"),
    ],
)
def test_a_command_line_memtab_refuses_is_answered_saying_why(
    demo: Path, options: list[str], reason: str
) -> None:
    seen = session(server_parameters(demo, *options))
    assert seen["instructions"].startswith(f"Memtab cannot serve memory in this session: {reason}")
    assert seen["search"] == (seen["instructions"], True)
