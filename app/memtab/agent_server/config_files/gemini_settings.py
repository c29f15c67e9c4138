"""Memtab's server in Gemini CLI's settings.json, and its rule in Gemini CLI's policy engine
(docs/formats.md §22.6).

Gemini CLI 0.61 reads each settings file with `strip-json-comments` and `JSON.parse`
(comments allowed, no trailing comma: a file with one stops it at its start) and writes
it back with `comment-json`, comments kept. Memtab's entry there, set in place with every
other byte kept, comments included:

- `mcpServers.memtab` = `{"command", "args"}`, what `gemini mcp add memtab <command>
  <args…>` writes. An entry already there keeps its other keys (`env`, `timeout`,
  `trust`, `includeTools`… the user added) and gets the two replaced — unless it names a
  `url`, `httpUrl` or `tcp`, which Gemini CLI would connect to instead of the command:
  then it is replaced whole. No `trust: true`: a trusted server's every tool runs without
  asking, the change tools too.

Which tools run without asking is the policy engine's: `gemini -p` leaves out of the
model's tools every tool whose decision is to ask (its default for an MCP tool), so
without a rule a headless session would have no Memtab tool at all. Memtab's rule is a
file of its own in the user's policies folder, `<gemini dir>/policies/memtab.toml`
(`Storage.getUserPoliciesDir`; every `*.toml` there is read, user tier): its read-only
tools `allow`ed at priority 300 — 4.300 once in the user tier, where `tools.allowed`
would put them, above `tools.core`'s allow-list (4.25) and below what the user denies
(`tools.exclude` 4.4, `confirmationRequired` 4.35, `mcp.excluded` 4.9). The change tools
still ask, and are left out of `gemini -p`. (`tools.allowed` in settings.json would do
the same, but Gemini CLI 0.61 warns at every interactive start that it "is deprecated and
will be removed in 1.0: Migrate to Policy Engine".) The file's first line says whose it
is: a file there that does not start with it is not Memtab's and is never changed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memtab.agent_server.agents import SERVER_KEY
from memtab.agent_server.config_files import EditStatus
from memtab.agent_server.config_files.json_members import JsonEditError, member_value, set_member
from memtab.agent_server.server_names import READ_TOOLS
from memtab.fs.jsonfile import JsonError, parse_json, strip_json_comments
from memtab.fs.records import Record

SERVERS_KEY = "mcpServers"
ENTRY_KEYS = (SERVERS_KEY, SERVER_KEY)
# Keys of a server entry Gemini CLI connects to before it looks at `command`
# (`createTransport`: httpUrl, then url; tcp for a websocket).
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
    """Memtab's server in Gemini CLI's `mcpServers`, as `gemini mcp add` writes a stdio
    server (no `trust`: see the module doc)."""

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


def gemini_entry(command: list[str]) -> dict[str, Any]:
    """Gemini CLI's entry of the server run by `command`, as JSON."""
    return GeminiMcpServer(command=command[0], args=tuple(command[1:])).to_json()


def server_snippet(command: list[str]) -> str:
    """What to add to Gemini CLI's settings.json by hand for the server."""
    server = GeminiMcpServer(command=command[0], args=tuple(command[1:]))
    return json.dumps(GeminiMcpServers(mcp_servers={SERVER_KEY: server}).to_json(), indent=2)


def check_readable(text: str) -> None:
    """Raise JsonEditError when Gemini CLI could not read `text` (`strip-json-comments`,
    then `JSON.parse`): Memtab's entry in a file that stops Gemini CLI at its start would
    do nothing."""
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
    """`text` with Memtab's server run by `command` at `keys`, and what that changed;
    JsonEditError for a file Memtab will not edit."""
    check_readable(text)
    entry = gemini_entry(command)
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
    """Memtab's policy file for `data` (the file's bytes; None: none yet), and what that
    changed; ForeignPolicyError for a file of that name Memtab did not write."""
    wanted = POLICY_TEXT.encode("utf-8")
    if data is None:
        return wanted, "added"
    if data == wanted:
        return data, "unchanged"
    if not _memtabs(data):
        raise ForeignPolicyError("holds rules Memtab did not write, which it never changes")
    return wanted, "updated"  # an older Memtab's


def policy_removed(data: bytes | None) -> tuple[bytes, EditStatus]:
    """Nothing in place of Memtab's policy file (`edit_file(whole=True)` then takes it
    away); ForeignPolicyError for a file of that name Memtab did not write."""
    if data is None:
        return b"", "unchanged"
    if not _memtabs(data):
        raise ForeignPolicyError("holds rules Memtab did not write, which it never changes")
    return b"", "updated"
