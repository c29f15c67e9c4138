"""Whether the agents' MCP sessions get a warm Memtab (docs/formats.md §22.8), and why not:
sessions that would serve themselves for want of a private folder are worth a look; the
user's choice (`MEMTAB_MCP_SHARED=off`) and a system without peer credentials are not.
An agent registered with a `--home` that does not exist is a warning: its sessions find
nothing (§22.1). And whether the login service keeps it warm from login, as the user
answered `memtab mcp install` (a fact, never a finding: either answer is the user's to
give)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from memtab.agent_server.agents import AGENT_TITLES
from memtab.agent_server.bridge.rendezvous import shared_unavailable
from memtab.agent_server.hosting.login_service import LoginServiceFacts, login_service_facts
from memtab.agent_server.hosting.status import SharedServerFacts, shared_server_facts
from memtab.agent_server.registrations import registrations
from memtab.diagnostics.report import Findings
from memtab.store.home import Home


def check_agent_server(home: Home, env: Mapping[str, str]) -> tuple[SharedServerFacts, Findings]:
    """Whether agents' sessions of `home` started with `env` get a warm server (asks the
    host over its socket, for at most ~2 s)."""
    found = Findings("agentServer")
    facts = shared_server_facts(home, env)
    if facts.why_not is not None and shared_unavailable(env) is None:
        found.warning(facts.note)
    for registered in registrations(home, env):
        named = registered.options.home if registered.options is not None else None
        if named is None or not os.path.isabs(named) or os.path.isdir(named):
            continue  # a relative --home is the agent's directory's: not known here
        what = "is not a folder" if os.path.lexists(named) else "does not exist"
        found.warning(
            f"{AGENT_TITLES[registered.agent]}'s Memtab server serves the home {named}, which "
            f"{what}: its sessions list and find nothing (a typo in --home, or a home moved "
            f"or deleted since). Fix --home in {registered.path}, or run `memtab mcp "
            f"install` again with the home meant"
        )
    return facts, found


def check_login_service(home: Home, env: Mapping[str, str]) -> tuple[LoginServiceFacts, Findings]:
    """Whether `home`'s agents find a warm host from login, and what was answered."""
    return login_service_facts(home, env), Findings("loginService")
