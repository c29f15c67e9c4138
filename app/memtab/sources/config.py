"""Which agents' memory to look for, and where: the home's `sources.json` (maybe isolated), then
Memtab's settings, the agent's own variable, the default."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Self

from memtab.file_protocol.file_ref import OTHER_AGENTS, Agent
from memtab.fs.config.config_dir import config_dir
from memtab.fs.config.settings_file import (
    SettingsFileError,
    load_settings_file,
    save_settings_section,
    settings_path,
)
from memtab.fs.jsonfile import JsonError, read_json
from memtab.fs.locking.locks import interprocess_lock
from memtab.fs.records import Checked, KeepUnread, Key, OmitNone, OrNone, Record, TrueOnly
from memtab.store.home import Home, HomeError
from memtab.store.sidecars.registry import Registry, load_registry

logger = logging.getLogger(__name__)

SETTINGS_KEY = "sources"
HOME_OVERRIDES_NAME = "sources.json"
ENV_VARIABLES: dict[Agent, str] = {
    "claude-code": "CLAUDE_CONFIG_DIR",
    "codex": "CODEX_HOME",
    "loki": "LOKI_DIR",
    "gemini": "GEMINI_CLI_HOME",
}
# Where in the folder an agent's variable names its directory is ("": the folder itself).
ENV_SUBDIRS: dict[Agent, str] = {"gemini": ".gemini"}
# Relative to the user's home directory, in the order they are looked at.
DEFAULT_DIRS: dict[Agent, tuple[str, ...]] = {
    "claude-code": (".claude", ".config/claude"),
    "codex": (".codex",),
    "loki": (),
    "gemini": (".gemini",),
}


def _trimmed(path: str | None) -> str | None:
    return path.strip() or None if path else None


class AgentSettings(Record, checked_when_built=False):
    """One agent's switch and path override (docs/formats.md §15.1)."""

    enabled: bool = True
    path: Annotated[str | None, Checked(_trimmed)] = None
    """Trimmed; a blank one is None."""


_AGENT_FIELDS: dict[Agent, str] = {agent: agent.replace("-", "_") for agent in OTHER_AGENTS}
AgentEntry = Annotated[OrNone[AgentSettings], KeepUnread, OmitNone]
"""One agent's entry: a malformed one reads as None and is kept as it was, to be reported."""


class AgentSources(Record, keep_unknown=True):
    """Each agent's entry, read on its own (docs/formats.md §15.1, §14.4)."""

    claude_code: Annotated[AgentEntry, Key("claude-code")] = None
    codex: AgentEntry = None
    loki: AgentEntry = None
    gemini: AgentEntry = None

    @classmethod
    def of(cls, agents: Mapping[Agent, AgentSettings], **fields: Any) -> Self:
        """The entries of `agents` (and the record's other `fields`)."""
        return cls(
            **{_AGENT_FIELDS[agent]: settings for agent, settings in agents.items()}, **fields
        )

    def agents(self) -> dict[Agent, AgentSettings]:
        """The agents whose entry was read."""
        read = ((agent, getattr(self, name)) for agent, name in _AGENT_FIELDS.items())
        return {agent: settings for agent, settings in read if settings is not None}

    def malformed(self) -> list[Agent]:
        """The agents whose entry is there but could not be read (a null one is absent)."""
        unread = self.unknown
        return [agent for agent in _AGENT_FIELDS if unread.get(agent) is not None]


class HomeSources(AgentSources):
    """`<home>/memtab/sources.json` (docs/formats.md §14.4); `isolated` only when `true`."""

    isolated: TrueOnly = False


@dataclass(frozen=True)
class SourcesSettings:
    agents: Mapping[Agent, AgentSettings] = field(default_factory=dict)
    problems: tuple[str, ...] = ()

    def agent(self, agent: Agent) -> AgentSettings:
        return self.agents.get(agent, AgentSettings())


def parse_sources_settings(raw: Any, *, origin: str) -> SourcesSettings:
    """The `"sources"` object; each malformed entry is reported and left at its default."""
    return _settings(raw, AgentSources.read(raw), origin)


def _settings(raw: Any, read: AgentSources | None, origin: str) -> SourcesSettings:
    if raw is None:
        return SourcesSettings()
    if read is None:
        return SourcesSettings(problems=(f"{origin}: `sources` is not an object; ignored",))
    problems = (
        f"{origin}: sources.{agent} is malformed; using the defaults" for agent in read.malformed()
    )
    return SourcesSettings(read.agents(), tuple(problems))


def load_sources_settings(env: Mapping[str, str] | None = None) -> SourcesSettings:
    """The `"sources"` section of settings.json (defaults when absent or unreadable)."""
    path = settings_path(env)
    try:
        stored = load_settings_file(path)
    except SettingsFileError as error:
        return SourcesSettings(problems=(f"sources: using the defaults ({error})",))
    return parse_sources_settings(stored.get(SETTINGS_KEY), origin=str(path))


def save_agent_settings(
    agent: Agent, settings: AgentSettings, *, env: Mapping[str, str] | None = None
) -> Path:
    """Store one agent's switch and path in settings.json under a lock, keeping the others'."""
    with interprocess_lock(config_dir(env) / ".sources-settings.lock"):
        agents = {**load_sources_settings(env).agents, agent: settings}
        return save_settings_section(SETTINGS_KEY, AgentSources.of(agents).to_json(), env=env)


@dataclass(frozen=True)
class HomeOverrides:
    """`<home>/memtab/sources.json`: the home's own source settings (the demo's)."""

    agents: Mapping[Agent, AgentSettings] = field(default_factory=dict)
    isolated: bool = False
    problems: tuple[str, ...] = ()


def load_home_overrides(home: Home) -> HomeOverrides:
    path = home.memtab_dir / HOME_OVERRIDES_NAME
    try:
        raw = read_json(path)
    except FileNotFoundError:
        return HomeOverrides()
    except (OSError, JsonError) as error:
        # Never fall back to the user's real agents for a home that asked to be isolated.
        return HomeOverrides(isolated=True, problems=(f"{path}: {error}; no sources shown",))
    sources = HomeSources.read(raw)
    parsed = _settings(raw, sources, str(path))
    agents = {
        agent: AgentSettings(enabled=s.enabled, path=_against(home.root, s.path))
        for agent, s in parsed.agents.items()
    }
    return HomeOverrides(agents, sources is not None and sources.isolated, parsed.problems)


def _against(base: Path, raw: str | None) -> str | None:
    if raw is None:
        return None
    return str(base / os.path.expanduser(raw)) if not os.path.isabs(raw) else raw


@dataclass(frozen=True)
class Candidate:
    """A directory an agent's memory may be in, and which rule named it."""

    path: Path
    how: str


@dataclass(frozen=True)
class SourceContext:
    """Everything discovery reads besides the agents' directories themselves."""

    env: Mapping[str, str]
    user_home: Path
    home: Home | None = None
    registry: Registry | None = None
    settings: SourcesSettings = field(default_factory=SourcesSettings)
    overrides: HomeOverrides = field(default_factory=HomeOverrides)

    @classmethod
    def load(
        cls,
        home: Home | None,
        *,
        env: Mapping[str, str] | None = None,
        user_home: Path | None = None,
        registry: Registry | None = None,
    ) -> SourceContext:
        """Read settings.json, the home's overrides and its registry (never raises)."""
        environ = dict(os.environ if env is None else env)
        if registry is None and home is not None:
            try:
                registry = load_registry(home)
            except HomeError as error:  # a broken registry must not hide other agents
                logger.info("Sources: no registered projects (%s)", error)
        return cls(
            env=environ,
            user_home=user_home or Path(os.path.expanduser("~")),
            home=home,
            registry=registry,
            settings=load_sources_settings(environ),
            overrides=load_home_overrides(home) if home is not None else HomeOverrides(),
        )

    @property
    def isolated(self) -> bool:
        return self.overrides.isolated

    @property
    def problems(self) -> tuple[str, ...]:
        return self.overrides.problems + (() if self.isolated else self.settings.problems)

    def agent_settings(self, agent: Agent) -> AgentSettings:
        override = self.overrides.agents.get(agent)
        if override is not None:
            return override
        if self.isolated:
            return AgentSettings(enabled=False)
        return self.settings.agent(agent)

    def candidates(self, agent: Agent) -> list[Candidate]:
        """Where to look for the agent's directory, first match wins (empty when off)."""
        settings = self.agent_settings(agent)
        if not settings.enabled:
            return []
        if settings.path:
            how = "home overrides" if agent in self.overrides.agents else "settings"
            return [Candidate(_absolute(settings.path), how)]
        if self.isolated:
            return []
        variable = ENV_VARIABLES[agent]
        value = self.env.get(variable, "").strip()
        if value:
            return [Candidate(_absolute(value) / ENV_SUBDIRS.get(agent, ""), variable)]
        return [Candidate(self.user_home / d, "default") for d in DEFAULT_DIRS[agent]]

    def allows_project(self, project: str) -> bool:
        """Whether a project directory may be looked into (an isolated home: only its own)."""
        if not self.isolated:
            return True
        assert self.home is not None
        return Path(project) == self.home.root or self.home.root in Path(project).parents


def _absolute(raw: str) -> Path:
    return Path(os.path.abspath(os.path.expanduser(raw)))
