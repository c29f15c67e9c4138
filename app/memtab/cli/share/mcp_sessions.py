"""A session of `memtab mcp` opened from its origin, in its own process or hosted by a warm Memtab,
and the hosts (docs/formats.md §22.8). `session_service` is the one way a session's
`MemoryService` is made."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
import threading
from collections.abc import Sequence
from typing import Any

from memtab.agent_server.bridge.rendezvous import (
    Rendezvous,
    RendezvousError,
    host_rendezvous,
)
from memtab.agent_server.hosting.catalogs import CatalogShelf
from memtab.agent_server.hosting.handshake import HostedBy, host_setup
from memtab.agent_server.hosting.host import McpHost, SessionRefusedError
from memtab.agent_server.origin import SessionOrigin
from memtab.agent_server.server_names import WriteMode
from memtab.agent_server.service import MemoryService
from memtab.agent_server.serving.server import serve_stdio
from memtab.check.recalled import RecallChecks
from memtab.cli.common import as_cli_error
from memtab.cli.main import build_parser
from memtab.cli.options import CliError, home_location
from memtab.store.home import Home, HomeError
from memtab.store.sidecars.registry import load_registry

logger = logging.getLogger(__name__)


def run_session(
    home: str | None, workspace: str | None, writes: WriteMode, answer_budget: int | None
) -> int:
    """`memtab mcp` in this process: one session served over stdio (the bridge's
    fallback, or MEMTAB_MCP_SHARED=off)."""
    origin = SessionOrigin.here(sys.argv[1:])
    serve_stdio(session_service(origin, None, home, workspace, writes, answer_budget))
    return 0


def session_service(
    origin: SessionOrigin,
    shelf: CatalogShelf | None,
    home: str | None,
    workspace: str | None,
    writes: WriteMode,
    answer_budget: int | None,
) -> MemoryService:
    """The service of a session started from `origin` with `memtab mcp`'s options (its
    handler's arguments: `agent_server_commands.run_session`; CliError: why not): the project
    it serves from the origin's directory (docs/formats.md §22.9), its catalogs from `shelf`
    when a host shares them."""
    memory_home = Home(home_location(home, env=origin.env, cwd=origin.cwd).path)
    served = None
    if workspace is not None:
        with as_cli_error(HomeError):
            served = load_registry(memory_home).require_workspace(workspace)
    return MemoryService(
        memory_home,
        served,
        writes=writes,
        budget=answer_budget,
        origin=origin,
        catalogs=shelf,
        checks=recall_checks(memory_home, shelf),
    )


_CHECKS: dict[str, RecallChecks] = {}
_CHECKS_LOCK = threading.Lock()


def recall_checks(home: Home, shelf: CatalogShelf | None = None) -> RecallChecks:
    """The home's checks where its memory is recalled (docs/formats.md §19.8): one per
    home, so a host's sessions share one engine and one worker, stopped as the host ends
    (`shelf`); a session serving itself has the process's, which ends with it."""
    if shelf is not None:
        return shelf.shared(f"checks:{home.root}", lambda: RecallChecks(home), RecallChecks.stop)
    with _CHECKS_LOCK:
        checks = _CHECKS.get(str(home.root))
        if checks is None:
            checks = _CHECKS[str(home.root)] = RecallChecks(home)
        return checks


def open_session(origin: SessionOrigin, shelf: CatalogShelf) -> MemoryService:
    """A hosted session's service, from the words its bridge was started with, parsed by
    `memtab`'s parser (SessionRefusedError when they are not a session of `memtab mcp` or name
    no usable home or workspace: the bridge's own process then says so)."""
    given = _parsed(origin.argv)
    try:
        return session_service(origin, shelf, **given)
    except CliError as error:
        raise SessionRefusedError(str(error)) from None


def _parsed(words: Sequence[str]) -> dict[str, Any]:
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said):  # argparse's complaint, for the reason
            args = build_parser(words).parse_args(words)
    except SystemExit:
        problem = said.getvalue().strip().splitlines()
        reason = problem[-1] if problem else "not a `memtab mcp` command"
        raise SessionRefusedError(reason) from None
    if args.command != "mcp" or getattr(args, "mcp_action", None) is not None:
        raise SessionRefusedError("not a session of `memtab mcp`")
    return args.handler.given(args)


# --- hosts --------------------------------------------------------------------------------


def run_host(given: str | None, idle_exit: float, ready_fd: int | None) -> int:
    """`memtab mcp host`: serve every agent session of the home (`given`: as --home) until
    stopped (or idle for `idle_exit` seconds)."""
    home = os.path.abspath(os.path.expanduser(given)) if given else None
    try:
        place = host_rendezvous(home, os.environ)
    except RendezvousError as error:
        raise CliError(f"No shared server here: {error}") from None
    hosted_by: HostedBy = "agents" if ready_fd is not None else "command"
    host = McpHost(
        place,
        open_session,
        hosted_by=hosted_by,
        idle_exit_s=idle_exit or None,
        setup=host_setup(home, os.environ),
    )

    def ready() -> None:
        if ready_fd is not None:
            with contextlib.suppress(OSError):
                os.write(ready_fd, b"R")
                os.close(ready_fd)
        else:
            print(f"memtab mcp host: serving {place.socket}", file=sys.stderr, flush=True)

    try:
        host.run(ready=ready, signals=True)
    except OSError as error:
        raise CliError(f"Cannot serve at {place.socket}: {error.strerror or error}") from None
    return 0


class HostThread:
    """A host on a thread of its own (`memtab watch`'s): `stop()` ends it."""

    def __init__(self, host: McpHost) -> None:
        self.host = host
        self._thread = threading.Thread(target=self._run, name="memtab-mcp-host", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.host.run()
        except OSError as error:
            logger.info("memtab watch: not hosting agents' sessions (%s)", error)

    def stop(self, timeout_s: float = 5.0) -> None:
        self.host.stop()
        self._thread.join(timeout_s)


def start_hosting(
    place: Rendezvous, home: str | None = None, hosted_by: HostedBy = "watch"
) -> HostThread:
    """Host on a thread the agents' sessions of `home` that wait at `place` (the home's,
    from `rendezvous.host_rendezvous`: they run `memtab mcp --home <home>`, as `memtab mcp
    install` registers it)."""
    setup = host_setup(home, os.environ)
    host = McpHost(place, open_session, hosted_by=hosted_by, idle_exit_s=None, setup=setup)
    return HostThread(host)
