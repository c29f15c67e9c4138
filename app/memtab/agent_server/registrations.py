"""Who has Memtab's server and what it serves there, for Settings and `memtab mcp uninstall`
(docs/formats.md §22.6); an unreadable file is said to be so."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from memtab.agent_server.agents import (
    AGENT_TITLES,
    AGENTS,
    WRITES_WORDS,
    AgentName,
    ServedOptions,
    config_path,
    served_options,
)
from memtab.agent_server.config_files.checked_replace import CONFIG_LIMIT
from memtab.agent_server.install import InstallError, decode, entry_command
from memtab.fs.user_files import read_regular_file
from memtab.store.home import Home


class Registration(NamedTuple):
    """One agent's file and Memtab's entry: `command`, the `options` it serves, `problem`."""

    agent: AgentName
    path: Path
    command: list[str] | None
    options: ServedOptions | None
    problem: str | None = None

    @property
    def registered(self) -> bool:
        return self.command is not None

    def text(self) -> str:
        """The line Settings shows."""
        title = AGENT_TITLES[self.agent]
        if self.problem is not None:
            return f"{title}: {self.problem}"
        if self.command is None:
            return f"{title}: not registered ({self.path})"
        if self.options is None:
            return f"{title}: registered, as a command Memtab does not know ({self.path})"
        writes = WRITES_WORDS.get(self.options.writes, f"--writes {self.options.writes}")
        return f"{title}: registered — {writes} ({self.path})"


def registration(agent: AgentName, path: Path) -> Registration:
    """What the agent's MCP file `path` says of Memtab's server (disk)."""
    try:
        data = read_regular_file(path, limit=CONFIG_LIMIT)
        command = entry_command(agent, path, decode(path, data))
    except FileNotFoundError:
        return Registration(agent, path, None, None)
    except OSError as error:
        why = f"cannot read {path}: {error.strerror or error}"
        return Registration(agent, path, None, None, why)
    except InstallError as error:  # not UTF-8, or not readable as its format
        return Registration(agent, path, None, None, str(error))
    return Registration(agent, path, command, served_options(command) if command else None)


def registered(agent: AgentName, path: Path) -> bool:
    """Whether `path` names a memtab server Memtab can read."""
    return registration(agent, path).registered


def registrations(home: Home, env: Mapping[str, str] | None = None) -> list[Registration]:
    """Every agent's registration (disk: call it off the GUI thread)."""
    return [registration(agent, config_path(agent, home, env)) for agent in AGENTS]
