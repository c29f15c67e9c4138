"""Registering `memtab mcp` where each agent looks for MCP servers (docs/formats.md §22.6).

- Claude Code: its user configuration, `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json`
  when set), top-level `mcpServers.memtab` = `{"type": "stdio", "command", "args", "env"}`,
  as `claude mcp add --scope user` writes it;
- Codex: `~/.codex/config.toml` (`$CODEX_HOME/config.toml`), the table
  `[mcp_servers.memtab]` with `command` and `args`;
- xum: `<home>/mcp.jsonc`, `servers.memtab` = the command line as one string, as xum's
  own settings write a stdio server (xum's `src/node/services/mcpConfigService.ts`).

Only the server's entry changes: every other byte of the file stays as it was, and the
file is replaced only while it holds what was read (`config_files/`). Registering again
changes nothing and says so. A file that is not a regular file within its cap, or cannot
be read as its format, is never rewritten: the user gets the snippet to add by hand
(`--print` shows the snippets without touching anything).
"""

from __future__ import annotations

import json
import math
import os
import shlex
import shutil
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from memtab.agent_server.config_files import EditStatus
from memtab.agent_server.config_files.checked_replace import (
    CONFIG_LIMIT,
    ConfigFileError,
    edit_file,
)
from memtab.agent_server.config_files.json_members import JsonEditError, member_value, set_member
from memtab.agent_server.config_files.toml_tables import (
    TomlEditError,
    set_keys,
    toml_array,
    toml_string,
)
from memtab.fs.records import Record, field
from memtab.fs.user_files import read_regular_file
from memtab.store.home import Home

SERVER_KEY = "memtab"
AgentName = Literal["claude", "codex", "xum"]
AGENTS: tuple[AgentName, ...] = ("claude", "codex", "xum")
AGENT_TITLES: dict[AgentName, str] = {"claude": "Claude Code", "codex": "Codex", "xum": "xum"}
Status = Literal["added", "updated", "unchanged", "refused"]


class InstallError(Exception):
    """A configuration file Memtab will not rewrite; the message says why and what to do."""


class Outcome(Record):
    """What registering with one agent did (`memtab mcp install --json`)."""

    agent: AgentName
    path: Path
    status: Status
    message: str


def launcher() -> list[str]:
    """How this Memtab is started from a shell: the bundle, the `memtab` script on PATH
    that is this one, else this Python with `-m memtab`."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    script = shutil.which("memtab")
    here = Path(sys.executable).parent
    if script is not None and Path(script).parent.resolve() == here.resolve():
        return [script]
    beside = here / "memtab"
    if beside.is_file():
        return [str(beside)]
    return [sys.executable, "-m", "memtab"]


def server_command(
    home: Home, workspace: str | None = None, writes: str | None = None
) -> list[str]:
    """The command line that starts the server on `home` (and `workspace`, and a write
    mode other than the default)."""
    command = [*launcher(), "mcp", "--home", str(home.root)]
    if workspace:
        command += ["--workspace", workspace]
    return [*command, "--writes", writes] if writes else command


def config_path(agent: AgentName, home: Home, env: Mapping[str, str] | None = None) -> Path:
    """The file an agent reads its MCP servers from."""
    environ = os.environ if env is None else env
    user = Path(environ.get("HOME") or os.path.expanduser("~"))
    if agent == "claude":
        folder = environ.get("CLAUDE_CONFIG_DIR")
        return Path(folder) / ".claude.json" if folder else user / ".claude.json"
    if agent == "codex":
        folder = environ.get("CODEX_HOME")
        return (Path(folder) if folder else user / ".codex") / "config.toml"
    return home.root / "mcp.jsonc"


# --- the entries --------------------------------------------------------------------------


class ClaudeMcpServer(Record, write_only=True):
    """The server in Claude Code's `mcpServers` (docs/formats.md §22.6), as `claude mcp add
    --scope user` writes it."""

    type: Literal["stdio"] = "stdio"
    command: str
    args: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)


def claude_entry(command: list[str]) -> dict[str, Any]:
    """Claude Code's entry of the server run by `command`, as JSON."""
    return _claude_server(command).to_json()


def _claude_server(command: list[str]) -> ClaudeMcpServer:
    return ClaudeMcpServer(command=command[0], args=tuple(command[1:]))


class ClaudeMcpServers(Record, write_only=True):
    """Claude Code's `mcpServers` with Memtab's server alone: the snippet to add by hand."""

    mcp_servers: dict[str, ClaudeMcpServer]


class XumMcpServers(Record, write_only=True):
    """xum's `mcp.jsonc` `servers` with Memtab's server alone: the snippet to add by hand."""

    servers: dict[str, str]


def codex_table(command: list[str]) -> str:
    return (
        f"[mcp_servers.{SERVER_KEY}]\n"
        f"command = {toml_string(command[0])}\n"
        f"args = {toml_array(command[1:])}\n"
    )


def xum_entry(command: list[str]) -> str:
    return shlex.join(command)


def snippet(agent: AgentName, command: list[str]) -> str:
    """What to add to the agent's file by hand."""
    if agent == "claude":
        servers = ClaudeMcpServers(mcp_servers={SERVER_KEY: _claude_server(command)})
        return json.dumps(servers.to_json(), indent=2)
    if agent == "codex":
        return codex_table(command).rstrip("\n")
    return json.dumps(XumMcpServers(servers={SERVER_KEY: xum_entry(command)}).to_json(), indent=2)


# --- registering --------------------------------------------------------------------------

_ENTRY_NAMES: dict[AgentName, str] = {
    "claude": "mcpServers.memtab",
    "codex": "[mcp_servers.memtab]",
    "xum": "servers.memtab",
}
_JSON_KEYS: dict[AgentName, str] = {"claude": "mcpServers", "xum": "servers"}
_WORDS = {
    "added": "added the memtab server to",
    "updated": "updated the memtab server in",
    "unchanged": "the memtab server is already in",
}


def register_server(agent: AgentName, path: Path, command: list[str]) -> Outcome:
    """Add (or bring up to date) the server in `path`, changing nothing else there
    (config_files/checked_replace.py says how)."""
    try:
        edited = edit_file(path, lambda data: _edited(agent, path, data, command))
    except (InstallError, ConfigFileError) as error:
        why = f"left {path} as it is: {error}" if isinstance(error, ConfigFileError) else error
        message = f"{AGENT_TITLES[agent]}: {why}; add this by hand:\n{snippet(agent, command)}"
        return Outcome(agent=agent, path=path, status="refused", message=message)
    except OSError as error:
        message = f"{AGENT_TITLES[agent]}: cannot write {path}: {error.strerror or error}"
        return Outcome(agent=agent, path=path, status="refused", message=message)
    where = str(path) if edited.target == path else f"{edited.target} (linked from {path})"
    message = f"{AGENT_TITLES[agent]}: {_WORDS[edited.status]} {where}"
    if edited.status != "unchanged":
        message += f": {_ENTRY_NAMES[agent]} runs {shlex.join(command)}; nothing else changed"
    if edited.backup is not None:
        message += f"; the file as it was is kept as {edited.backup}"
    return Outcome(agent=agent, path=path, status=edited.status, message=message)


def _edited(
    agent: AgentName, path: Path, data: bytes | None, command: list[str]
) -> tuple[bytes, EditStatus]:
    """The file's new bytes with the server's entry, and what changed."""
    text = _decode(path, data)
    if agent == "codex":
        updated, status = _codex_text(path, text, command)
    else:
        try:
            updated, status = _json_text(agent, text, command)
        except JsonEditError as error:
            raise InstallError(f"{path} {error}") from None
    try:
        return updated.encode("utf-8"), status
    except UnicodeEncodeError:
        raise InstallError(
            f"the server's command line cannot be written as UTF-8: {command}"
        ) from None


def _json_text(agent: AgentName, text: str, command: list[str]) -> tuple[str, EditStatus]:
    """Set the server's member in Claude Code's or xum's file. xum's entry written as an
    object (a server the user disabled, or whose tools they chose) keeps all but its
    `command`, as xum's own settings keep them when a server is added again."""
    xum = agent == "xum"
    path: tuple[str, ...] = (_JSON_KEYS[agent], SERVER_KEY)
    entry: Any = claude_entry(command) if agent == "claude" else xum_entry(command)
    if xum and text.strip():
        there, current = member_value(text, path, jsonc=True)
        if there and isinstance(current, dict):
            path = (*path, "command")
    edited, status = set_member(text, path, entry, jsonc=xum)
    return edited, "updated" if status == "added" and len(path) > 2 else status


def _decode(path: Path, data: bytes | None) -> str:
    if data is None:
        return ""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InstallError(f"{path} is not UTF-8 text") from None


def _codex_text(path: Path, text: str, command: list[str]) -> tuple[str, EditStatus]:
    """Set the `[mcp_servers.memtab]` table's `command` and `args` in place (or add the
    table), then check with tomllib that the file now says exactly that and everything
    else as before."""
    before = _parse_toml(path, text)
    wanted = {"command": command[0], "args": command[1:]}
    current = _codex_server(path, before)
    if isinstance(current, dict) and {k: current.get(k) for k in wanted} == wanted:
        return text, "unchanged"
    values = {"command": toml_string(command[0]), "args": toml_array(command[1:])}
    cannot = InstallError(f"{path} declares mcp_servers.{SERVER_KEY} in a way Memtab cannot edit")
    try:
        updated = set_keys(text, ("mcp_servers", SERVER_KEY), values)
        after = tomllib.loads(updated)
    except (TomlEditError, tomllib.TOMLDecodeError, RecursionError):
        raise cannot from None
    server = _codex_server(path, after)
    if not isinstance(server, dict) or {k: server.get(k) for k in wanted} != wanted:
        raise cannot
    if not same_values(_without_command(before), _without_command(after)):
        raise cannot
    return updated, "added" if current is None else "updated"


def _codex_server(path: Path, document: dict[str, Any]) -> Any:
    servers = document.get("mcp_servers", {})
    if not isinstance(servers, dict):
        raise InstallError(f"{path} holds an mcp_servers that is not a table")
    return servers.get(SERVER_KEY)


def _parse_toml(path: Path, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InstallError(f"{path} is not valid TOML ({error})") from None
    except RecursionError:
        raise InstallError(f"{path} is nested too deeply to read as TOML") from None


def _without_command(document: dict[str, Any]) -> dict[str, Any]:
    """`document` without the server's `command` and `args` (nor the tables they leave
    empty): what an edit of the server must keep."""
    servers = dict(document.get("mcp_servers", {}))
    server = servers.pop(SERVER_KEY, None)
    if isinstance(server, dict):
        rest = {key: value for key, value in server.items() if key not in ("command", "args")}
        if rest:
            servers[SERVER_KEY] = rest
    others = {key: value for key, value in document.items() if key != "mcp_servers"}
    return {**others, "mcp_servers": servers} if servers else others


def same_values(one: Any, other: Any) -> bool:
    """Whether two parsed documents hold the same values, NaN equal to NaN (a TOML `nan`
    read twice is two floats that compare unequal); without recursion."""
    pairs = [(one, other)]
    while pairs:
        a, b = pairs.pop()
        if isinstance(a, dict):
            if not isinstance(b, dict) or list(a) != list(b):
                return False
            pairs.extend((a[key], b[key]) for key in a)
        elif isinstance(a, list):
            if not isinstance(b, list) or len(a) != len(b):
                return False
            pairs.extend(zip(a, b, strict=True))
        elif isinstance(a, float) and isinstance(b, float) and math.isnan(a):
            if not math.isnan(b):
                return False
        elif type(a) is not type(b) or a != b:
            return False
    return True


def agent_found(agent: AgentName, home: Home, env: Mapping[str, str] | None = None) -> bool:
    """Whether the agent seems to be used here: its configuration (or folder) exists; xum
    when the home is a xum (or mux) home."""
    if agent == "xum":
        return (home.root / "config.json").is_file()
    path = config_path(agent, home, env)
    if agent == "codex":
        return path.parent.is_dir()
    environ = os.environ if env is None else env
    user = Path(environ.get("HOME") or os.path.expanduser("~"))
    return path.exists() or (user / ".claude").is_dir()


# --- who has it ---------------------------------------------------------------------------


def registered(agent: AgentName, path: Path) -> bool:
    """Whether `path` names a memtab server (any command): for Settings and `--print`.
    Read as install reads it: a regular file within its cap, else not."""
    try:
        text = read_regular_file(path, limit=CONFIG_LIMIT).decode("utf-8")
        if agent == "codex":
            servers = _parse_toml(path, text).get("mcp_servers")
            return isinstance(servers, dict) and SERVER_KEY in servers
        there, _ = member_value(text, (_JSON_KEYS[agent], SERVER_KEY), jsonc=agent == "xum")
    except (InstallError, JsonEditError, OSError, UnicodeDecodeError):
        return False
    return there


def registrations(home: Home, env: Mapping[str, str] | None = None) -> list[tuple[str, bool]]:
    """One line per agent for Settings: where its configuration is, and whether it has
    the memtab server (disk: call it off the GUI thread)."""
    lines = []
    for agent in AGENTS:
        path = config_path(agent, home, env)
        found = registered(agent, path)
        if found:
            text = f"{AGENT_TITLES[agent]}: connected ({path})"
        else:
            text = f"{AGENT_TITLES[agent]}: not connected — memtab mcp install --{agent}"
        lines.append((text, found))
    return lines
