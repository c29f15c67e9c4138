"""What keeps Gemini CLI from starting an MCP server it has an entry for, or from reading the
server's rule in its user policies folder (docs/formats.md §22.6), read as Gemini CLI 0.61
reads it (`McpClientManager.maybeDiscoverMcpServer`, `getPolicyDirectories`):

- `mcp.excluded` naming it, in any of its settings files (`isBlockedBySettings`);
- an `mcp.allowed` list without it: a server every file with such a list does not name is
  never started;
- `gemini mcp disable <name>` (or `/mcp disable`), kept in
  `~/.gemini/mcp-server-enablement.json` as `{"<name>": {"enabled": false}}`
  (`McpServerEnablementManager`; names lowercased and trimmed);
- `policyPaths` in its settings: read in place of `<gemini dir>/policies`, so a rule there
  (`<name>.toml`) is not (`~/` is Gemini CLI's home, `resolvePath`).

And what no setting changes: a stdio server runs only in a folder Gemini CLI trusts
(`createTransport`: "uses stdio transport but current folder is not trusted"), said once by
install rather than checked here (trust is per folder).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import Lenient, Record
from memtab.fs.user_files import read_regular_file
from memtab.sources.gemini.settings import SettingsReader

logger = logging.getLogger(__name__)

ENABLEMENT_NAME = "mcp-server-enablement.json"
USER_POLICIES = "policies"
_MAX_BYTES = 1024 * 1024


class ServerEnablement(Record):
    """One entry of `mcp-server-enablement.json`: `enabled` false when the user disabled
    the server (another value: enabled, as Gemini CLI's `?? true` reads it)."""

    enabled: Annotated[bool | None, Lenient(None)] = None


def disabled_by_user(gemini_dir: Path, name: str) -> bool:
    """Whether `gemini mcp disable <name>` left the server off."""
    path = gemini_dir / ENABLEMENT_NAME
    try:  # without blocking: a FIFO of that name is refused at once
        raw: Any = parse_json(read_regular_file(path, limit=_MAX_BYTES))
    except FileNotFoundError:
        return False
    except (OSError, JsonError) as error:
        logger.info("Gemini CLI: cannot read %s: %s", path, error)
        return False
    if not isinstance(raw, dict):
        return False
    entry = ServerEnablement.read(raw.get(name.lower().strip()))
    return entry is not None and entry.enabled is False


def server_blocks(
    gemini_dir: Path, env: Mapping[str, str], name: str, project: Path | None = None
) -> list[str]:
    """Why Gemini CLI (its folder `gemini_dir`, started with `env` in `project`, or
    anywhere) would not start the MCP server `name`, or not read its rule
    (`policies/<name>.toml`), one sentence each (none: it would)."""
    settings = SettingsReader(gemini_dir, env).settings(project)
    key = name.lower().strip()
    blocks = []
    if key in settings.mcp_excluded:
        blocks.append(
            f"its settings exclude the {name} server (mcp.excluded), so it never starts it: "
            f'take "{name}" out of that list'
        )
    allowed = settings.mcp_allowed
    if allowed is not None and key not in allowed:
        listed = ", ".join(sorted(allowed)) or "none"
        blocks.append(
            f"its settings allow only these MCP servers (mcp.allowed): {listed}, so it never "
            f'starts {name}: add "{name}" to that list'
        )
    if disabled_by_user(gemini_dir, name):
        blocks.append(
            f"the {name} server is disabled ({gemini_dir / ENABLEMENT_NAME}: `gemini mcp "
            f"disable {name}` or /mcp disable), so it never starts it: `gemini mcp enable "
            f"{name}` turns it on again"
        )
    policies = gemini_dir / USER_POLICIES
    read = [_resolved(path, gemini_dir.parent) for path in settings.policy_paths]
    if read and os.path.abspath(policies) not in read:
        blocks.append(
            f"its settings' policyPaths ({', '.join(settings.policy_paths)}) are read in place of "
            f"{policies}, so it reads no rule there — {name}'s either, and its read-only tools "
            f"ask (gemini -p leaves them out): copy {policies / f'{name}.toml'} to one of them"
        )
    return blocks


def _resolved(path: str, home: Path) -> str:
    """A `policyPaths` entry as Gemini CLI resolves it (`~/` its home), absolute."""
    if path == "~" or path.startswith("~/"):
        path = str(home) + path[1:]
    return os.path.abspath(path)
