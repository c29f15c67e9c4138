"""Whether the agents' MCP sessions get a warm Memtab (docs/formats.md §22.8), and why not:
sessions that would serve themselves for want of a private folder are worth a look; the
user's choice (`MEMTAB_MCP_SHARED=off`) and a system without peer credentials are not.
And whether the login service keeps it warm from login, as the user answered `memtab mcp
install` (a fact, never a finding: either answer is the user's to give)."""

from __future__ import annotations

from collections.abc import Mapping

from memtab.agent_server.bridge.rendezvous import shared_unavailable
from memtab.agent_server.hosting.login_service import LoginServiceFacts, login_service_facts
from memtab.agent_server.hosting.status import SharedServerFacts, shared_server_facts
from memtab.diagnostics.report import Findings
from memtab.store.home import Home


def check_agent_server(home: Home, env: Mapping[str, str]) -> tuple[SharedServerFacts, Findings]:
    """Whether agents' sessions of `home` started with `env` get a warm server (asks the
    host over its socket, for at most ~2 s)."""
    found = Findings("agentServer")
    facts = shared_server_facts(home, env)
    if facts.why_not is not None and shared_unavailable(env) is None:
        found.warning(facts.note)
    return facts, found


def check_login_service(home: Home, env: Mapping[str, str]) -> tuple[LoginServiceFacts, Findings]:
    """Whether `home`'s agents find a warm host from login, and what was answered."""
    return login_service_facts(home, env), Findings("loginService")
