"""Settings' jobs off the GUI thread: the model connection tested, local model servers found,
where other agents' memory was looked for, and Memtab's MCP server registered with an agent or
taken out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from memtab.agent_server.agents import demo_refusal
from memtab.agent_server.hosting.status import shared_server_facts
from memtab.agent_server.registrations import Registration, registrations
from memtab.components.jobs import JobContext
from memtab.llm.local_servers import LocalServer, ServerKind, find_local_servers
from memtab.llm.probe import ProbeResult, probe_provider
from memtab.llm.settings import ProviderName, form_settings, saved_key
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.model import LookedFor
from memtab.store.home import Home


def probe_connection(
    provider: ProviderName,
    model: str,
    base_url: str,
    typed_key: str,
    env: Mapping[str, str],
    ctx: JobContext,
) -> ProbeResult:
    """The connection test: the form's values, with the key saved for this provider and
    host read here, off the GUI thread, when none was typed for it."""
    key = None if typed_key.strip() else saved_key(provider, base_url, env)
    settings = form_settings(provider, model, base_url, typed_key=typed_key, saved_key=key, env=env)
    return probe_provider(settings, cancel=ctx.cancel_event)


def local_servers(kinds: Sequence[ServerKind], ctx: JobContext) -> list[LocalServer]:
    """The model servers of `kinds` answering on this machine (within about a timeout)."""
    return find_local_servers(kinds, cancel=ctx.cancel_event)


def looked_for(home: Home, env: Mapping[str, str], _ctx: JobContext) -> list[LookedFor]:
    """Where discovery looked for other agents' memory, and what it found."""
    return list(discover(SourceContext.load(home, env=env)).looked_for)


class AgentServerLook(NamedTuple):
    """Each agent's registration of Memtab's server, warm sessions, and why not (a demo home)."""

    registrations: list[Registration]
    warm: str
    refusal: str | None


def agent_server_registrations(
    home: Home, env: Mapping[str, str], _ctx: JobContext
) -> AgentServerLook:
    """One per agent: whether Memtab's MCP server is in its configuration, and how;
    whether the agents' sessions get a warm server (the host asked over its socket); and
    whether this is a demo home, which installs in no agent."""
    return AgentServerLook(
        registrations(home, env), shared_server_facts(home, env).note, demo_refusal(home)
    )
