"""The lines a bridge and a host exchange before a session (docs/formats.md §22.8): the
bridge's `Hello`, the host's `Welcome` (or its `HostStatus`, to a status question).

The bridge writes and reads them by hand (`bridge.greeting`); these records are what they
are, and what the host, `memtab doctor` and Settings read and write.
"""

from __future__ import annotations

from typing import Annotated, Literal

from memtab.agent_server.origin import SessionOrigin
from memtab.fs.records import OmitNone, Record

HostedBy = Literal["watch", "agents", "command"]
"""Who runs the host: `memtab watch` (the login service), a bridge that started it for
the agents (it exits when idle), or `memtab mcp host` run by hand."""


class Hello(Record):
    """The bridge's first line (§22.8): its Memtab (version, protocol, Python and package
    folder), what it wants (`session` or `status`), and a session's origin."""

    memtab: str
    protocol: int
    python: str
    package: str
    purpose: Literal["session", "status"]
    origin: SessionOrigin | None = None


class Welcome(Record):
    """The host's answer to a session's `Hello` (§22.8): `ok` and the host's Memtab and
    pid, or why not (`reason`: the bridge then serves the session in its own process)."""

    ok: bool
    memtab: str
    protocol: int
    pid: int
    reason: Annotated[str | None, OmitNone] = None


class HostStatus(Record):
    """The host's answer to a status `Hello` (§22.8), for `memtab doctor` and Settings:
    its Memtab, pid, who runs it, since when (ms since the epoch), how many sessions it
    holds, after how many idle seconds it exits (None: never) and its socket."""

    memtab: str
    protocol: int
    pid: int
    hosted_by: HostedBy
    started_at: int
    sessions: int
    idle_exit_s: float | None
    socket: str
