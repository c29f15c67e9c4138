"""The agents `memtab mcp install` registers with and the files of theirs it edits (docs/formats.md
§22.6)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal, NamedTuple

from memtab.agent_server.bridge.rendezvous import last_option
from memtab.agent_server.server_names import DEFAULT_WRITES, READ_TOOLS
from memtab.sources.claude.source import auto_memory_base
from memtab.sources.gemini.settings import SETTINGS_NAME as GEMINI_SETTINGS_NAME
from memtab.sources.gemini.source import GEMINI_DIR, HOME_VARIABLE
from memtab.store.home import Home

SERVER_KEY = "memtab"
AgentName = Literal["claude", "codex", "gemini", "xum"]
AGENTS: tuple[AgentName, ...] = ("claude", "codex", "gemini", "xum")
AGENT_TITLES: dict[AgentName, str] = {
    "claude": "Claude Code",
    "codex": "Codex",
    "gemini": "Gemini CLI",
    "xum": "xum",
}
# Agents with a per-project file, reached through real folders only.
PROJECT_FILE_AGENTS: tuple[AgentName, ...] = ("codex", "gemini")
NO_XUM_PROJECT = (
    "xum keeps its MCP servers per home (<home>/mcp.jsonc), not per project: install it "
    "without --project (each session there serves the project it works in)"
)
# Claude Code's permission names of Memtab's read-only tools.
CLAUDE_READ_RULES: tuple[str, ...] = tuple(f"mcp__{SERVER_KEY}__{name}" for name in READ_TOOLS)
# Gemini CLI's (`formatMcpToolName`), as its policy engine names them.
GEMINI_READ_TOOLS: tuple[str, ...] = tuple(f"mcp_{SERVER_KEY}_{name}" for name in READ_TOOLS)


def demo_around(home: Home) -> Path | None:
    """The demo home `home` is or lies in (by path or through links), else None."""
    for root in dict.fromkeys([home.root, Path(os.path.realpath(home.root))]):
        for folder in (root, *root.parents):
            if Home(folder).demo_marker.is_file():
                return folder
    return None


def demo_refusal(home: Home, change: str = "install") -> str | None:
    """Why `change` is refused for a demo home or a folder in one (None: neither): the demo never
    reaches a real agent."""
    around = demo_around(home)
    if around is None:
        return None
    demo = f"{around} is a demo home, its memory invented (a fresh demo replaces it)"
    if change == "install":
        return (
            f"{demo}: Memtab registers it with no agent, or your real agents would read the "
            "demo's facts as your memory and send their changes to a home that is wiped. "
            "Install from a window or a shell on your own home"
        )
    return (
        f"{demo}: Memtab changes no agent's settings from it (an entry there serves your "
        "own home). memtab mcp uninstall, run on your own home, takes an entry out"
    )


def _user_home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


def gemini_home(env: Mapping[str, str]) -> Path:
    """The folder Gemini CLI takes for the home directory: `$GEMINI_CLI_HOME`, else the user's."""
    named = env.get(HOME_VARIABLE, "").strip()
    return Path(os.path.abspath(os.path.expanduser(named))) if named else _user_home(env)


class ProjectPlace(NamedTuple):
    """Where a per-project install goes (formats §22.6): the checkout, Claude Code's key."""

    checkout: Path
    claude_key: str


def project_place(directory: Path) -> ProjectPlace:
    """The place of a per-project install for a checkout at (or holding) `directory`."""
    checkout = Path(os.path.abspath(directory))
    return ProjectPlace(checkout, str(auto_memory_base(checkout)))


def config_path(
    agent: AgentName,
    home: Home,
    env: Mapping[str, str] | None = None,
    project: ProjectPlace | None = None,
) -> Path:
    """The file an agent reads its MCP servers from (for `project`: its per-project one; xum has
    none: ValueError)."""
    environ = os.environ if env is None else env
    if project is not None and agent == "codex":
        return project.checkout / ".codex" / "config.toml"
    if project is not None and agent == "gemini":
        return project.checkout / GEMINI_DIR / GEMINI_SETTINGS_NAME
    if project is not None and agent == "xum":
        raise ValueError(NO_XUM_PROJECT)
    if agent == "claude":
        folder = environ.get("CLAUDE_CONFIG_DIR")
        return Path(folder) / ".claude.json" if folder else _user_home(environ) / ".claude.json"
    if agent == "codex":
        folder = environ.get("CODEX_HOME")
        return (Path(folder) if folder else _user_home(environ) / ".codex") / "config.toml"
    if agent == "gemini":
        return gemini_home(environ) / GEMINI_DIR / GEMINI_SETTINGS_NAME
    return home.root / "mcp.jsonc"


def project_folder(agent: AgentName, project: ProjectPlace | None) -> Path | None:
    """The project folder below which no link is followed; None for the user's own file."""
    return project.checkout if project is not None and agent in PROJECT_FILE_AGENTS else None


def gemini_project_refusal(
    project: ProjectPlace, env: Mapping[str, str] | None = None
) -> str | None:
    """Why Gemini CLI would never read an install for `project` (its workspace settings are its user
    settings there), or None."""
    environ = os.environ if env is None else env
    if os.path.realpath(project.checkout) != os.path.realpath(gemini_home(environ)):
        return None
    return (
        f"{project.checkout} is the folder Gemini CLI takes for your home: it reads no project "
        "settings there, only ~/.gemini/settings.json. Install without --project"
    )


def claude_settings_path(env: Mapping[str, str] | None = None) -> Path:
    """Claude Code's user settings (`$CLAUDE_CONFIG_DIR/settings.json` when set)."""
    environ = os.environ if env is None else env
    folder = environ.get("CLAUDE_CONFIG_DIR")
    return (Path(folder) if folder else _user_home(environ) / ".claude") / "settings.json"


def agent_found(agent: AgentName, home: Home, env: Mapping[str, str] | None = None) -> bool:
    """Whether the agent seems used here: its configuration or folder exists; xum for a xum or mux
    home."""
    if agent == "xum":
        return (home.root / "config.json").is_file()
    environ = os.environ if env is None else env
    path = config_path(agent, home, environ)
    if agent in ("codex", "gemini"):
        return path.parent.is_dir()
    return path.exists() or (_user_home(environ) / ".claude").is_dir()


class ServedOptions(NamedTuple):
    """What a registered command line serves: a workspace (else global), the writes, `--home`."""

    workspace: str | None
    writes: str
    home: str | None = None

    def scopes_words(self) -> str:
        if self.workspace is None:
            return "the global scope only"
        return f"workspace {self.workspace} (its global, project and workspace scopes)"


WRITES_WORDS = {
    "inbox": "changes go to your Inbox",
    "direct": "changes are written at once",
    "off": "read-only",
}


def served_options(command: Sequence[str]) -> ServedOptions | None:
    """The options of a `memtab mcp` command line, or None for another program's entry."""
    words = list(command)
    try:
        at = words.index("mcp")
    except ValueError:
        return None
    rest = words[at + 1 :]
    writes = last_option(rest, "--writes")
    return ServedOptions(
        last_option(rest, "--workspace") or None,
        DEFAULT_WRITES if writes is None else writes,
        last_option(rest, "--home") or None,
    )


def changed_options(before: ServedOptions | None, after: ServedOptions) -> list[str]:
    """What a new registration changes the user may not mean (§22.6), a warning each."""
    if before is None:
        return []
    warnings = []
    if before.workspace != after.workspace:
        narrows = after.workspace is None
        verb = "narrows what it serves" if narrows else "changes what it serves"
        warnings.append(
            f"this {verb}: it served {before.scopes_words()}, now {after.scopes_words()}"
        )
    if before.writes != after.writes:
        warnings.append(
            f"this changes the write mode: it was --writes {before.writes} "
            f"({WRITES_WORDS.get(before.writes, 'unknown')}), now --writes {after.writes} "
            f"({WRITES_WORDS.get(after.writes, 'unknown')})"
        )
    return warnings
