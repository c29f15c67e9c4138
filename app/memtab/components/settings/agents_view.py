"""Settings → Other agents without Qt: where each agent's memory is looked for, what the form
saves, and each agent's line in "Memtab for your agents" (docs/formats.md §22.6)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from memtab.agent_server.agents import AGENT_TITLES as SERVER_AGENT_TITLES
from memtab.agent_server.agents import AgentName
from memtab.agent_server.config_files.checked_replace import BACKUP_SUFFIX
from memtab.agent_server.install import Outcome, PlannedChange
from memtab.agent_server.registrations import Registration
from memtab.file_protocol.file_ref import Agent
from memtab.humanize import display_path, display_paths_in
from memtab.sources.config import (
    DEFAULT_DIRS,
    ENV_SUBDIRS,
    ENV_VARIABLES,
    AgentSettings,
    SourcesSettings,
)
from memtab.sources.model import LookedFor

LOOKING = "Looking…"
ISOLATED_HOME = (
    "This home sets its own sources (memtab/sources.json): what you choose "
    "here applies to your other homes."
)
SERVER_INTRO = (
    "A registered agent starts `memtab mcp` and reads this memory from its first turn; its "
    "changes go to your Inbox. Install and Remove act at once, after you confirm (not on Save)."
)


def looked_for_text(agent: Agent, looked: Iterable[LookedFor]) -> str:
    """Where Memtab looked for `agent`'s memory and what it found, one line each."""
    lines = []
    for item in looked:
        if item.agent != agent:
            continue
        if not item.path:
            lines.append(f"Not looked for ({item.note or item.how})")
            continue
        state = "found" if item.found else "not found"
        note = f"; {item.note}" if item.note else ""
        lines.append(f"{display_path(item.path)} — {state} ({item.how}{note})")
    return "\n".join(lines) or "Not looked for"


def default_text(agent: Agent) -> str:
    """Where the agent's memory is found without a path, in words."""
    if agent == "loki":
        variable = ENV_VARIABLES[agent]
        return f"Each project's .loki/memory; also a .loki directory named here or in ${variable}"
    subdir = ENV_SUBDIRS.get(agent)
    variable = f"${ENV_VARIABLES[agent]}" + (f"/{subdir}" if subdir else "")
    places = [variable] + [f"~/{d}" for d in DEFAULT_DIRS[agent]]
    return "Found in " + ", else ".join(places)


def path_tip(agent: Agent) -> str:
    """The path field's tooltip."""
    return "Empty: found automatically. " + default_text(agent)


def chosen_settings(enabled: bool, typed: str) -> AgentSettings:
    """What the form says for an agent: on or off, the path typed (absolute, `~` expanded;
    empty: found automatically)."""
    raw = typed.strip()
    path = os.path.abspath(os.path.expanduser(raw)) if raw else None
    return AgentSettings(enabled=enabled, path=path)


def changed_agents(
    stored: SourcesSettings, chosen: Mapping[Agent, AgentSettings]
) -> list[tuple[Agent, AgentSettings]]:
    """The agents whose chosen settings differ from the saved ones: those Save writes."""
    return [(agent, chose) for agent, chose in chosen.items() if chose != stored.agent(agent)]


def sources_note(problems: Sequence[str], *, isolated: bool) -> str:
    """The note under the agents ("": none): the home's own sources first, then each
    problem of the saved settings."""
    return "\n".join(([ISOLATED_HOME] if isolated else []) + list(problems))


def server_tip(agent: AgentName, registered: bool) -> str:
    """The command a server row's button runs, as its tooltip."""
    return f"memtab mcp {'uninstall' if registered else 'install'} --{agent}"


@dataclass(frozen=True)
class ServerRow:
    """One agent's line in "Memtab for your agents" and its button."""

    text: str
    registered: bool
    button: str
    tip: str
    offered: bool  # A button at all: not for a file Memtab cannot read.


def server_row(registration: Registration, *, demo: bool = False) -> ServerRow:
    """What the box shows of one agent's registration (`demo`: the home is a demo home,
    which changes no agent's files: no button)."""
    registered = registration.registered
    return ServerRow(
        text=display_paths_in(registration.text()),
        registered=registered,
        button="Remove" if registered else "Install",
        tip=server_tip(registration.agent, registered),
        offered=registration.problem is None and not demo,
    )


# Where an agent starts the sessions that will have Memtab: Gemini CLI starts a stdio MCP
# server only in a folder it trusts (docs/formats.md §22.6).
_SESSIONS_WHERE: dict[AgentName, str] = {"gemini": " in a folder it trusts"}


@dataclass(frozen=True)
class InstallQuestion:
    """The question Install asks first: what it does for whom, each file it changes."""

    title: str
    text: str
    informative: str
    confirm: str = "&Install"


def install_question(
    agent: AgentName, home: str, changes: Sequence[PlannedChange]
) -> InstallQuestion:
    """Install's question for `agent` on the home at `home`, naming each file it changes."""
    title = SERVER_AGENT_TITLES[agent]
    files = "\n".join(f"• {change.path}: {change.change}" for change in changes)
    shared = [change for change in changes if change.shared]
    backups = ", ".join(f"{change.path.name}{BACKUP_SUFFIX}" for change in shared)
    kept = (
        f"Nothing else in them changes, and each that exists is first copied beside itself "
        f"({backups})"
        if len(shared) > 1
        else f"Nothing else in {'it' if len(changes) == 1 else 'the other'} changes, and if "
        f"it exists it is first copied beside itself ({backups})"
    )
    return InstallQuestion(
        title=f"Install Memtab in {title}?",
        text=(
            f"Every {title} session{_SESSIONS_WHERE.get(agent, '')} will start Memtab's "
            f"server for the memory in {home}, and read it from its first turn; its changes "
            "go to your Inbox."
        ),
        informative=(
            f"This changes {'these files' if len(changes) > 1 else 'this file'} now:\n"
            f"{files}\n\n{kept}. Remove takes it all out again."
        ),
    )


def changing(agent: AgentName, registered: bool) -> str:
    """What the box says while a change runs."""
    where = "Removing from" if registered else "Installing in"
    return f"{where} {SERVER_AGENT_TITLES[agent]}…"


def changed(outcomes: Sequence[Outcome]) -> str:
    """What a change did: each outcome's message, then each warning (a path under the
    user's home from `~`: the box is a settings page's, not a terminal's width)."""
    lines = [o.message for o in outcomes] + [w for o in outcomes for w in o.warnings]
    return display_paths_in("\n".join(lines))


def change_failed(message: str) -> str:
    return f"Could not change the agent's settings: {message}"


def look_failed(message: str) -> str:
    return f"Could not look: {message}"
