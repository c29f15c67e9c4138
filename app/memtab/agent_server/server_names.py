"""The MCP server's read-only tools, write modes and the agents' client names without the SDK
(docs/formats.md §22.2, §22.4), so installing loads no pydantic."""

from __future__ import annotations

from typing import Final, Literal

READ_TOOLS: Final = ("list", "search", "view")
WriteMode = Literal["inbox", "direct", "off"]
WRITE_MODES: tuple[WriteMode, ...] = ("inbox", "direct", "off")
DEFAULT_WRITES: WriteMode = "inbox"
CODEX_CLIENT = "codex-mcp-client"
CLAUDE_CODE_CLIENT = "claude-code"
GEMINI_CLI_CLIENT = "gemini-cli-mcp-client"
