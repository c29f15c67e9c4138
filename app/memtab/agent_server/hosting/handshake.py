"""The lines a bridge and a host exchange before a session (docs/formats.md §22.8), as records
(`bridge.greeting` writes them by hand)."""

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
"""Who runs the host: `memtab watch`, a bridge for the agents (exits when idle), or `memtab mcp
host` by hand."""


class Hello(Record):
    """The bridge's first line (§22.8): its Memtab, `session` or `status`, a session's origin."""

    memtab: str
    protocol: int
    python: str
    package: str
    purpose: Literal["session", "status"]
    origin: SessionOrigin | None = None


class Welcome(Record):
    """The host's answer to a session's `Hello` (§22.8): `ok`, its Memtab and pid, or `reason`;
    the files the session's `initialize` and tools are made from (the bridge keeps those answers
    while they hold)."""

    ok: bool
    memtab: str
    protocol: int
    pid: int
    reason: Annotated[str | None, OmitNone] = None
    answers_from: tuple[str, ...] = ()


class HostSetup(Record):
    """What a host serves (§22.8): its `--home`, Python, package folder and key variables."""

    home: str | None
    python: str
    package: str
    variables: dict[str, str] = field(default_factory=dict)


def host_setup(home: str | None, env: Mapping[str, str]) -> HostSetup:
    """The set-up of a host of `home` chosen with `env`, relative paths made absolute."""
    resolved = resolved_env(env, working_directory())
    variables = {name: resolved[name] for name in KEY_VARIABLES if name in resolved}
    python, package = install_identity()
    return HostSetup(home=home, python=python, package=package, variables=variables)


class HostStatus(Record):
    """The host's answer to a status `Hello` (§22.8)."""

    memtab: str
    protocol: int
    pid: int
    hosted_by: HostedBy
    started_at: int
    sessions: int
    idle_exit_s: float | None
    socket: str
    setup: Annotated[HostSetup | None, OmitNone] = None
