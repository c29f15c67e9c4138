"""The lines a bridge and a host exchange before a session (docs/formats.md §22.8): the
bridge's `Hello`, the host's `Welcome` (or its `HostStatus`, to a status question).

The bridge writes and reads them by hand (`bridge.greeting`); these records are what they
are, and what the host, `memtab doctor` and Settings read and write.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from memtab.agent_server.bridge.rendezvous import (
    KEY_VARIABLES,
    install_identity,
    resolved_env,
    working_directory,
)
from memtab.agent_server.origin import SessionOrigin
from memtab.fs.records import OmitNone, Record, field

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


class HostSetup(Record):
    """What a host serves (§22.8): the `--home` of its sessions (None: none given), its
    Memtab's Python and package folder, and the variables its socket was chosen by
    (`KEY_VARIABLES`, those set) — so Settings can tell a host of this home under another
    set-up from none."""

    home: str | None
    python: str
    package: str
    variables: dict[str, str] = field(default_factory=dict)


def host_setup(home: str | None, env: Mapping[str, str]) -> HostSetup:
    """The set-up of a host of `home` (absolute, or None) chosen with `env`: its variables
    as they keyed it, a relative path made absolute against this process's directory
    (`rendezvous.resolved_env`)."""
    resolved = resolved_env(env, working_directory())
    variables = {name: resolved[name] for name in KEY_VARIABLES if name in resolved}
    python, package = install_identity()
    return HostSetup(home=home, python=python, package=package, variables=variables)


class HostStatus(Record):
    """The host's answer to a status `Hello` (§22.8), for `memtab doctor` and Settings:
    its Memtab, pid, who runs it, since when (ms since the epoch), how many sessions it
    holds, after how many idle seconds it exits (None: never), its socket and what it
    serves (`setup`; a host before it says none)."""

    memtab: str
    protocol: int
    pid: int
    hosted_by: HostedBy
    started_at: int
    sessions: int
    idle_exit_s: float | None
    socket: str
    setup: Annotated[HostSetup | None, OmitNone] = None
