"""Whether agents get a warm Memtab and why not (docs/formats.md §22.8), for doctor and Settings:
the host asked over its socket, else the reason found as a bridge finds it, and other hosts of this
home named with what differs."""

from __future__ import annotations

import contextlib
import json
import os
import socket
from collections.abc import Mapping

from memtab import __version__
from memtab.agent_server.bridge.greeting import STATUS, hello
from memtab.agent_server.bridge.reach import IDLE_EXIT_S
from memtab.agent_server.bridge.rendezvous import (
    RendezvousError,
    host_rendezvous,
    peer_credentials,
)
from memtab.agent_server.hosting.handshake import HostSetup, HostStatus, host_setup
from memtab.fs.records import Record
from memtab.store.home import Home

STATUS_TIMEOUT_S = 2.0
OTHER_STATUS_TIMEOUT_S = 0.5
"""How long another host in the runtime folder is given to say what it serves."""
MAX_OTHER_HOSTS = 32
_WHO = {
    "watch": "`memtab watch`",
    "agents": "a shared server an agent started",
    "command": "`memtab mcp host`",
}


class SharedServerFacts(Record, write_only=True):
    """`memtab doctor --json`'s `agentServer`: shared or why not, who runs it, `note`."""

    shared: bool
    why_not: str | None = None
    running: bool = False
    hosted_by: str | None = None
    pid: int | None = None
    sessions: int | None = None
    socket: str | None = None
    note: str


def host_status(path: str, timeout_s: float = STATUS_TIMEOUT_S) -> HostStatus | None:
    """How the host at socket `path` is, or None when none of this user's answers in time."""
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with contextlib.closing(connection):
        connection.settimeout(timeout_s)
        try:
            connection.connect(path)
            if peer_credentials(connection)[1] != os.geteuid():
                return None
            connection.sendall(hello(STATUS))
            answer = bytearray()
            while b"\n" not in answer:
                chunk = connection.recv(4096)
                if not chunk:
                    return None
                answer += chunk
        except OSError:
            return None
    try:
        return HostStatus.read(json.loads(bytes(answer).partition(b"\n")[0]))
    except ValueError:
        return None


def shared_server_facts(home: Home, env: Mapping[str, str] | None = None) -> SharedServerFacts:
    """Whether sessions of `home` started with `env` get a warm Memtab, and why not (blocks ~2 s at
    most)."""
    environ = os.environ if env is None else env
    try:
        place = host_rendezvous(str(home.root), environ)
    except RendezvousError as error:
        note = f"Each agent session runs its own server: {error}"
        return SharedServerFacts(shared=False, why_not=str(error), note=note)
    status = host_status(place.socket)
    if status is None:
        note = (
            "No shared server runs now: the next agent session starts one (it exits after "
            f"{IDLE_EXIT_S / 60:g} idle minutes); `memtab watch --install` keeps one warm "
            "from login"
        )
        setup = host_setup(str(home.root), environ)
        if (other := _other_host(place.folder, place.socket, setup)) is not None:
            note = _elsewhere_note(other, setup)
        return SharedServerFacts(shared=True, socket=place.socket, note=note)
    sessions = f"{status.sessions} session{'' if status.sessions == 1 else 's'} now"
    note = f"Agents' sessions are served by {_WHO[status.hosted_by]} (pid {status.pid}, {sessions})"
    if status.idle_exit_s is not None:
        note += f"; it exits after {status.idle_exit_s / 60:g} idle minutes"
    if status.hosted_by != "watch":
        note += "; `memtab watch --install` keeps one warm from login"
    return SharedServerFacts(
        shared=True,
        running=True,
        hosted_by=status.hosted_by,
        pid=status.pid,
        sessions=status.sessions,
        socket=place.socket,
        note=note,
    )


def _other_host(folder: str, ours: str, setup: HostSetup) -> HostStatus | None:
    """A host in `folder` (at another socket than `ours`) that serves `setup`'s home."""
    try:
        names = sorted(
            n for n in os.listdir(folder) if n.startswith("mcp-") and n.endswith(".sock")
        )
    except OSError:
        return None
    for name in names[:MAX_OTHER_HOSTS]:
        path = os.path.join(folder, name)
        if path == ours:
            continue
        status = host_status(path, OTHER_STATUS_TIMEOUT_S)
        if status is not None and status.setup is not None and status.setup.home == setup.home:
            return status
    return None


def _elsewhere_note(status: HostStatus, ours: HostSetup) -> str:
    """Settings' and doctor's line for a host of this home under another set-up."""
    assert status.setup is not None
    theirs = status.setup
    differs = []
    if (status.memtab, theirs.package) != (__version__, ours.package):
        differs.append(f"another Memtab ({status.memtab}, {theirs.package})")
    elif theirs.python != ours.python:
        differs.append(f"another Python ({theirs.python})")
    names = sorted(set(theirs.variables) | set(ours.variables))
    for name in [n for n in names if theirs.variables.get(n) != ours.variables.get(n)][:3]:
        value = theirs.variables.get(name)
        differs.append(f"{name}={value}" if value is not None else f"{name} unset")
    sessions = f"{status.sessions} session{'' if status.sessions == 1 else 's'} now"
    return (
        f"A shared server serves this home for agents started with "
        f"{', '.join(differs) or 'another set-up'}: {_WHO[status.hosted_by]} (pid "
        f"{status.pid}, {sessions}). None runs for sessions started as this window is: "
        f"the next one starts one (it exits after {IDLE_EXIT_S / 60:g} idle minutes)"
    )
