"""Registering `memtab mcp` where each agent looks for MCP servers (docs/formats.md §22.6).

- Claude Code: its user configuration, `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json`
  when set), top-level `mcpServers.memtab` = `{"type": "stdio", "command", "args", "env"}`,
  as `claude mcp add --scope user` writes it;
- Codex: `~/.codex/config.toml` (`$CODEX_HOME/config.toml`), the table
  `[mcp_servers.memtab]` with `command` and `args`;
- xum: `<home>/mcp.jsonc`, `servers.memtab` = the command line as one string, as xum's
  own settings write a stdio server (xum's `src/node/services/mcpConfigService.ts`).

Each file keeps everything else. Registering again changes nothing and says so. A file
that cannot be read as its format is never rewritten: the user gets the snippet to add
by hand (`--print` shows the snippets without touching anything).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from memtab.fs.atomic import atomic_write_json, atomic_write_text
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import Record, field
from memtab.store.home import Home

SERVER_KEY = "memtab"
AgentName = Literal["claude", "codex", "xum"]
AGENTS: tuple[AgentName, ...] = ("claude", "codex", "xum")
AGENT_TITLES: dict[AgentName, str] = {"claude": "Claude Code", "codex": "Codex", "xum": "xum"}
Status = Literal["added", "updated", "unchanged", "refused"]
_CODEX_HEADER = re.compile(r"""^\s*\[\s*mcp_servers\s*\.\s*(?:memtab|"memtab")\s*\]\s*(?:#.*)?$""")
_TABLE_START = re.compile(r"^\s*\[")


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
    # A JSON string is a TOML basic string (same escapes), so json.dumps quotes for both.
    quoted = ", ".join(json.dumps(arg, ensure_ascii=False) for arg in command[1:])
    return (
        f"[mcp_servers.{SERVER_KEY}]\n"
        f"command = {json.dumps(command[0], ensure_ascii=False)}\n"
        f"args = [{quoted}]\n"
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


def register_server(agent: AgentName, path: Path, command: list[str]) -> Outcome:
    """Add (or bring up to date) the server in `path`, keeping everything else."""
    try:
        if agent == "codex":
            status = _register_codex(path, command)
        else:
            key = "mcpServers" if agent == "claude" else "servers"
            entry: Any = claude_entry(command) if agent == "claude" else xum_entry(command)
            status = _register_json(path, key, entry)
    except InstallError as error:
        message = f"{error}; add this by hand:\n{snippet(agent, command)}"
        return Outcome(agent=agent, path=path, status="refused", message=message)
    except OSError as error:
        message = f"cannot write {path}: {error.strerror or error}"
        return Outcome(agent=agent, path=path, status="refused", message=message)
    words = {
        "added": "added the memtab server to",
        "updated": "updated the memtab server in",
        "unchanged": "the memtab server is already in",
    }
    message = f"{AGENT_TITLES[agent]}: {words[status]} {path}"
    return Outcome(agent=agent, path=path, status=status, message=message)


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise InstallError(f"{path} is not UTF-8 text") from None


def _register_json(path: Path, key: str, entry: Any) -> Status:
    text = _read_text(path)
    document: Any = {}
    if text is not None and text.strip():
        try:
            document = parse_json(text)
        except JsonError as error:
            # mcp.jsonc may hold comments: rewriting it as JSON would drop them.
            raise InstallError(f"{path} is not plain JSON ({error})") from None
    if not isinstance(document, dict) or not isinstance(document.get(key, {}), dict):
        raise InstallError(f"{path} does not hold a JSON object with an object {key!r}")
    servers = dict(document.get(key, {}))
    if servers.get(SERVER_KEY) == entry:
        return "unchanged"
    status: Status = "updated" if SERVER_KEY in servers else "added"
    servers[SERVER_KEY] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(path, {**document, key: servers}, mode=0o600)
    return status


def _register_codex(path: Path, command: list[str]) -> Status:
    """Replace the `[mcp_servers.memtab]` table's own lines (or append one), then check
    with tomllib that the file now says exactly that and everything else as before."""
    text = _read_text(path) or ""
    before = _parse_toml(path, text)
    wanted = {"command": command[0], "args": command[1:]}
    current = before.get("mcp_servers", {}).get(SERVER_KEY)
    if isinstance(current, dict) and {k: current.get(k) for k in wanted} == wanted:
        return "unchanged"
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if _CODEX_HEADER.match(line)), None)
    table = codex_table(command)
    if start is None:
        prefix = text if not text or text.endswith("\n") else text + "\n"
        updated = prefix + ("\n" if text.strip() else "") + table
    else:
        end = next(
            (i for i in range(start + 1, len(lines)) if _TABLE_START.match(lines[i])), len(lines)
        )
        kept = [line for line in lines[start + 1 : end] if _other_key(line)]
        block = table + "".join(kept)
        gap = "\n" if end < len(lines) and not block.endswith("\n\n") else ""
        updated = "".join(lines[:start]) + block + gap + "".join(lines[end:])
    try:
        after = tomllib.loads(updated)
    except tomllib.TOMLDecodeError:
        after = {}
    server = after.get("mcp_servers", {}).get(SERVER_KEY, {})
    others_kept = _without_server(after) == _without_server(before)
    if {k: server.get(k) for k in wanted} != wanted or not others_kept:
        raise InstallError(f"{path} declares mcp_servers.{SERVER_KEY} in a way Memtab cannot edit")
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, updated)
    return "added" if current is None else "updated"


def _other_key(line: str) -> bool:
    """A line of the old table worth keeping: a key other than command and args."""
    stripped = line.strip()
    return bool(stripped) and not re.match(r"^(command|args)\s*=", stripped)


def _parse_toml(path: Path, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InstallError(f"{path} is not valid TOML ({error})") from None


def _without_server(document: dict[str, Any]) -> dict[str, Any]:
    servers = dict(document.get("mcp_servers", {}))
    servers.pop(SERVER_KEY, None)
    rest = {key: value for key, value in document.items() if key != "mcp_servers"}
    return {**rest, "mcp_servers": servers} if servers else rest


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
    """Whether `path` names a memtab server (any command): for Settings and `--print`."""
    try:
        text = _read_text(path)
        if text is None:
            return False
        if agent == "codex":
            return SERVER_KEY in _parse_toml(path, text).get("mcp_servers", {})
        document = parse_json(text)
    except (InstallError, JsonError, OSError):
        return False
    key = "mcpServers" if agent == "claude" else "servers"
    servers = document.get(key) if isinstance(document, dict) else None
    return isinstance(servers, dict) and SERVER_KEY in servers


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
