"""What keeps Gemini CLI from starting an MCP server it has an entry for, or from reading the
server's policy rule (docs/formats.md §22.6): `mcp.excluded`, `mcp.allowed`, `gemini mcp
disable`, `policyPaths`."""

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
    """One entry of `mcp-server-enablement.json`: `enabled` false when the user disabled it."""

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
    """Why Gemini CLI would not start the MCP server `name` or read its rule, a sentence each
    (none: it would)."""
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
