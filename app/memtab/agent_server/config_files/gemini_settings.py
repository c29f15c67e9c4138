"""Memtab's server in Gemini CLI's settings.json (`mcpServers.memtab`, set in place, comments kept)
and its allow rule for the read-only tools in a policy file of its own, `<gemini
dir>/policies/memtab.toml` (docs/formats.md §22.6)."""

from __future__ import annotations

import json
from pathlib import Path

from memtab.agent_server.agents import SERVER_KEY
from memtab.agent_server.config_files import EditStatus
from memtab.agent_server.config_files.json_members import JsonEditError, member_value, set_member
from memtab.agent_server.server_names import READ_TOOLS
from memtab.fs.jsonfile import JsonError, parse_json, strip_json_comments
from memtab.fs.records import Record

SERVERS_KEY = "mcpServers"
ENTRY_KEYS = (SERVERS_KEY, SERVER_KEY)
# Keys Gemini CLI connects to before it looks at `command` (`createTransport`).
_OTHER_TRANSPORTS = ("httpUrl", "url", "tcp")

POLICIES_DIR = "policies"
POLICY_NAME = f"{SERVER_KEY}.toml"
POLICY_PRIORITY = 300
_POLICY_MARK = "# Memtab's rule for Gemini CLI (memtab mcp install --gemini)."
POLICY_TEXT = (
    f"{_POLICY_MARK}\n"
    f"# Memtab's read-only tools ({', '.join(READ_TOOLS)}) run without asking, in gemini -p\n"
    "# too; its change tools still ask. memtab mcp uninstall --gemini takes this file away.\n"
    "[[rule]]\n"
    f'mcpName = "{SERVER_KEY}"\n'
    f"toolName = [{', '.join(f'{chr(34)}{name}{chr(34)}' for name in READ_TOOLS)}]\n"
    'decision = "allow"\n'
    f"priority = {POLICY_PRIORITY}\n"
)
"""Memtab's policy file, whole (the names are Memtab's own, plain ASCII: nothing to escape)."""


class GeminiMcpServer(Record, write_only=True):
    """Memtab's server in Gemini CLI's `mcpServers`, as `gemini mcp add` writes one (no `trust`)."""

    command: str
    args: tuple[str, ...]


class GeminiMcpServers(Record, write_only=True):
    """Gemini CLI's `mcpServers` with Memtab's server alone: the snippet to add by hand."""

    mcp_servers: dict[str, GeminiMcpServer]


class ForeignPolicyError(ValueError):
    """A policy file named as Memtab's that Memtab did not write: never changed."""


def policy_path(gemini_dir: Path) -> Path:
    """Memtab's policy file in the Gemini directory `gemini_dir` (`~/.gemini`)."""
    return gemini_dir / POLICIES_DIR / POLICY_NAME


def server_snippet(command: list[str]) -> str:
    """What to add to Gemini CLI's settings.json by hand for the server."""
    server = GeminiMcpServer(command=command[0], args=tuple(command[1:]))
    return json.dumps(GeminiMcpServers(mcp_servers={SERVER_KEY: server}).to_json(), indent=2)


def check_readable(text: str) -> None:
    """JsonEditError when Gemini CLI could not read `text` (comments stripped, then
    `JSON.parse`)."""
    if not text.strip(" \t\r\n"):
        return
    try:
        parse_json(strip_json_comments(text))
    except JsonError as error:
        raise JsonEditError(
            f"is not JSON as Gemini CLI reads it ({error}; comments are allowed, a trailing "
            "comma is not): Gemini CLI stops at its start"
        ) from None


def set_gemini_server(
    text: str, command: list[str], keys: tuple[str, ...] = ENTRY_KEYS
) -> tuple[str, EditStatus]:
    """`text` with Memtab's server run by `command` at `keys`, and what changed; JsonEditError."""
    check_readable(text)
    entry = GeminiMcpServer(command=command[0], args=tuple(command[1:])).to_json()
    there, current = member_value(text, keys, jsonc=True) if text.strip() else (False, None)
    if there and isinstance(current, dict) and not any(k in current for k in _OTHER_TRANSPORTS):
        updated, command_status = set_member(text, (*keys, "command"), entry["command"], jsonc=True)
        updated, args_status = set_member(updated, (*keys, "args"), entry["args"], jsonc=True)
        unchanged = command_status == args_status == "unchanged"
        status: EditStatus = "unchanged" if unchanged else "updated"
    else:
        updated, status = set_member(text, keys, entry, jsonc=True)
    check_readable(updated)
    return updated, status


def _memtabs(data: bytes) -> bool:
    return data.startswith(_POLICY_MARK.encode("utf-8"))


def policy_written(data: bytes | None) -> tuple[bytes, EditStatus]:
    """Memtab's policy file for `data` (None: none yet) and what changed; ForeignPolicyError for a
    file Memtab did not write."""
    wanted = POLICY_TEXT.encode("utf-8")
    if data is None:
        return wanted, "added"
    if data == wanted:
        return data, "unchanged"
    if not _memtabs(data):
        raise ForeignPolicyError("holds rules Memtab did not write, which it never changes")
    return wanted, "updated"  # an older Memtab's


def policy_removed(data: bytes | None) -> tuple[bytes, EditStatus]:
    """Nothing in place of Memtab's policy file (`edit_file(whole=True)` takes it away);
    ForeignPolicyError."""
    if data is None:
        return b"", "unchanged"
    if not _memtabs(data):
        raise ForeignPolicyError("holds rules Memtab did not write, which it never changes")
    return b"", "updated"
