"""Memtab's server in Codex's `config.toml` (docs/formats.md §22.6): `[mcp_servers.memtab]` with
`required = true`, the `env_vars` that decide what Memtab reads (`FORWARDED_VARIABLES`) and an
approved table per read-only tool, set in place or taken out, written only if every other value
reads as before."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from memtab.agent_server.agents import SERVER_KEY
from memtab.agent_server.bridge.rendezvous import PATH_VARIABLES, SHARED_VARIABLE
from memtab.agent_server.config_files import EditStatus
from memtab.agent_server.server_names import READ_TOOLS

APPROVED = "approve"
_TABLE = ("mcp_servers", SERVER_KEY)
# What Codex passes a server beside its own few (HOME, PATH, TMPDIR…), by name, from its
# session's environment: what decides the home, config, cache, log and the other agents'
# memory a Memtab session reads, and where its warm host waits (bridge/rendezvous.py).
FORWARDED_VARIABLES = tuple(
    name for name in (*PATH_VARIABLES, "XDG_RUNTIME_DIR", SHARED_VARIABLE) if name != "HOME"
)
_MANAGED = ("command", "args", "required", "env_vars")


class CodexConfigError(ValueError):
    """A config.toml Memtab will not change; the message (one line) says why."""


def parse_toml(path: Path, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CodexConfigError(f"{path} is not valid TOML ({error})") from None
    except RecursionError:
        raise CodexConfigError(f"{path} is nested too deeply to read as TOML") from None


def codex_server(path: Path, document: dict[str, Any]) -> Any:
    """The `mcp_servers.memtab` value of a parsed config.toml (None: none)."""
    servers = document.get("mcp_servers", {})
    if not isinstance(servers, dict):
        raise CodexConfigError(f"{path} holds an mcp_servers that is not a table")
    return servers.get(SERVER_KEY)


def _wanted(command: list[str], server: Any = None) -> dict[str, Any]:
    """The values Memtab sets in its table for `command`: `env_vars` keeps what `server`
    (the entry there now) forwards, `FORWARDED_VARIABLES` added."""
    entries = _env_vars(server)
    return {
        "command": command[0],
        "args": command[1:],
        "required": True,
        "env_vars": [*entries, *(name for name in FORWARDED_VARIABLES if name not in entries)],
    }


def _env_vars(server: Any) -> list[Any]:
    """The `env_vars` entries of `server` (names, or Codex's table form), in their order."""
    entries = server.get("env_vars") if isinstance(server, dict) else None
    return entries if isinstance(entries, list) else []


def _is_set(server: Any, command: list[str]) -> bool:
    """Whether `server` (parsed) already says everything Memtab writes for `command`."""
    if not isinstance(server, dict):
        return False
    if any(server.get(key) != value for key, value in _wanted(command, server).items()):
        return False
    tools = server.get("tools")
    return isinstance(tools, dict) and all(
        isinstance(tools.get(name), dict) and tools[name].get("approval_mode") == APPROVED
        for name in READ_TOOLS
    )


def set_codex_server(
    text: str, command: list[str], *, path: Path = Path("config.toml")
) -> tuple[str, EditStatus]:
    """`text` with Memtab's server run by `command`, and what that changed."""
    before = parse_toml(path, text)
    current = codex_server(path, before)
    if _is_set(current, command):
        return text, "unchanged"
    tables: dict[tuple[str, ...], dict[str, Any] | None] = {_TABLE: _wanted(command, current)}
    tables.update({(*_TABLE, "tools", name): {"approval_mode": APPROVED} for name in READ_TOOLS})
    updated, after = _edited(path, text, "edit", tables)
    if not _is_set(codex_server(path, after), command) or not same_values(
        _unmanaged(before), _unmanaged(after)
    ):
        raise _cannot(path, "edit")
    return updated, "added" if current is None else "updated"


def remove_codex_server(
    text: str, *, path: Path = Path("config.toml")
) -> tuple[str, Literal["removed", "unchanged"]]:
    """`text` without Memtab's server (its table and the tables below it)."""
    before = parse_toml(path, text)
    if codex_server(path, before) is None:
        return text, "unchanged"
    updated, after = _edited(path, text, "take out", {_TABLE: None})
    if codex_server(path, after) is not None or not same_values(
        _without_server(before), _without_server(after)
    ):
        raise _cannot(path, "take out")
    return updated, "removed"


def _cannot(path: Path, verb: str) -> CodexConfigError:
    return CodexConfigError(
        f"{path} declares mcp_servers.{SERVER_KEY} in a way Memtab cannot {verb}"
    )


def _edited(
    path: Path, text: str, verb: str, tables: dict[tuple[str, ...], dict[str, Any] | None]
) -> tuple[str, dict[str, Any]]:
    """`text` with each of `tables` set to its values (None: taken out), and as parsed; tomlkit,
    which must first write `text` back as it was, loads only here (reading never pays for it)."""
    # lazy: tomlkit and its editor (~10 ms, 0.7 MiB of `memtab mcp install --claude`'s start),
    # for an edit of Codex's config.toml alone
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    # lazy: the same, Memtab's editor of tomlkit's documents
    from memtab.agent_server.config_files.toml_edits import (
        TomlEditError,
        ending_as,
        remove_table,
        set_table,
    )

    try:
        document = tomlkit.parse(text)
        if document.as_string() != text:
            raise TomlEditError("tomlkit does not write it back as it was")
        for table, values in tables.items():
            if values is None:
                remove_table(document, table)
            else:
                set_table(document, table, values, "\r\n" if "\r\n" in text else "\n")
        updated = ending_as(text, document.as_string())
        return updated, tomllib.loads(updated)
    except (TomlEditError, TOMLKitError, tomllib.TOMLDecodeError, RecursionError):
        raise _cannot(path, verb) from None


def _without_server(document: dict[str, Any]) -> dict[str, Any]:
    """`document` without Memtab's server (nor an `mcp_servers` that leaves empty)."""
    return _with_server(document, lambda server: None)


def _unmanaged(document: dict[str, Any]) -> dict[str, Any]:
    """`document` without what Memtab sets (its names in `env_vars` included): what an edit of the
    server must keep."""
    return _with_server(document, _unmanaged_server)


def _unmanaged_server(server: Any) -> Any:
    if not isinstance(server, dict):
        return server
    rest = {k: v for k, v in server.items() if k not in _MANAGED}
    if theirs := [entry for entry in _env_vars(server) if entry not in FORWARDED_VARIABLES]:
        rest["env_vars"] = theirs
    tools = rest.get("tools")
    if isinstance(tools, dict):
        kept = {}
        for name, tool in tools.items():
            left = tool
            if name in READ_TOOLS and isinstance(tool, dict):
                left = {k: v for k, v in tool.items() if k != "approval_mode"}
            if left:
                kept[name] = left
        rest = {k: v for k, v in rest.items() if k != "tools"}
        if kept:
            rest["tools"] = kept
    return rest or None


def _with_server(document: dict[str, Any], change: Callable[[Any], Any]) -> dict[str, Any]:
    """`document` with Memtab's server replaced by `change(server)` (None: taken out), every key in
    place."""
    result: dict[str, Any] = {}
    for key, value in document.items():
        if key == "mcp_servers" and isinstance(value, dict):
            servers: dict[str, Any] = {}
            for name, server in value.items():
                kept = change(server) if name == SERVER_KEY else server
                if kept is not None:
                    servers[name] = kept
            if servers:
                result[key] = servers
        else:
            result[key] = value
    return result


def same_values(one: Any, other: Any) -> bool:
    """Whether two parsed documents hold the same values, NaN equal to NaN; without recursion."""
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
